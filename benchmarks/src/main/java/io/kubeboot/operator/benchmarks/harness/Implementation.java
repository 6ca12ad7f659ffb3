package io.kubeboot.operator.benchmarks.harness;

import java.util.Arrays;

import io.kubeboot.operator.benchmarks.baseline.BaselineOperatorMain;
import io.kubeboot.operator.benchmarks.plain.ManagerOperatorMain;
import io.kubeboot.operator.benchmarks.raw.RawDrainMain;
import io.kubeboot.operator.benchmarks.spring.SpringOperatorApplication;

/**
 * The programs compared, each run as a separate JVM with identical JVM flags
 * ({@code spring-aot} adds Spring AOT and a class-data archive to them).
 */
public enum Implementation {

	/**
	 * Ours: a Spring Boot application on the starter with one {@code @Reconciles}.
	 */
	SPRING("spring", "ours (Spring Boot starter)", SpringOperatorApplication.class.getName(), false, true, true),

	/**
	 * The same application as {@link #SPRING}, with the same class path and JVM flags,
	 * started the way the archetype's image starts it ({@link AotCache}): Spring AOT
	 * ({@code -Dspring.aot.enabled=true}, the beans this module's build generated) and a
	 * class-data archive that one training run ({@code -Dspring.context.exit=onRefresh},
	 * no cluster) wrote before its first run: a dynamic CDS archive before JDK 25, the
	 * AOT cache from JDK 25 on. Only the cold drain runs it, which measures start-up.
	 */
	SPRING_AOT("spring-aot", "ours (Spring Boot starter, the image's recipe: Spring AOT + CDS or AOT cache)",
			SpringOperatorApplication.class.getName(), false, true, false),

	/**
	 * Ours without Spring: {@code Manager.builder(...)} directly.
	 */
	MANAGER("manager", "ours (Manager, no Spring)", ManagerOperatorMain.class.getName(), false, true, false),

	/**
	 * client-java-extended's {@code ControllerManager}.
	 */
	BASELINE("baseline", "client-java-extended ControllerManager", BaselineOperatorMain.class.getName(), false, true,
			true),

	/**
	 * The Java Operator SDK ({@code operator-framework} 5) with its fabric8 client, from
	 * the module {@code benchmarks-josdk} and on its own class path
	 * ({@link JosdkClassPath}).
	 */
	JOSDK("josdk", "Java Operator SDK (JOSDK)", "io.kubeboot.operator.benchmarks.josdk.JosdkOperatorMain", true, true,
			true),

	/**
	 * No framework: list once, patch with four threads.
	 */
	RAW("raw", "raw client-java (ceiling)", RawDrainMain.class.getName(), false, false, false);

	private final String id;

	private final String label;

	private final String mainClass;

	private final boolean ownClassPath;

	private final boolean operator;

	private final boolean leaderElection;

	Implementation(String id, String label, String mainClass, boolean ownClassPath, boolean operator,
			boolean leaderElection) {
		this.id = id;
		this.label = label;
		this.mainClass = mainClass;
		this.ownClassPath = ownClassPath;
		this.operator = operator;
		this.leaderElection = leaderElection;
	}

	/**
	 * Returns the short name used in properties and file names.
	 * @return the id
	 */
	public String id() {
		return this.id;
	}

	/**
	 * Returns the name shown in reports.
	 * @return the label
	 */
	public String label() {
		return this.label;
	}

	/**
	 * Returns the name of the class whose {@code main} the child JVM runs.
	 * @return the main class's name
	 */
	public String mainClass() {
		return this.mainClass;
	}

	/**
	 * Whether the child JVM runs on a class path of its own ({@link JosdkClassPath})
	 * rather than on the harness's, which holds the other implementations.
	 * @return whether it has its own class path
	 */
	public boolean hasOwnClassPath() {
		return this.ownClassPath;
	}

	/**
	 * Whether this is a long-running operator (watches, caches), as opposed to the raw
	 * one-shot program.
	 * @return whether it is an operator
	 */
	public boolean isOperator() {
		return this.operator;
	}

	/**
	 * Whether it starts with Spring AOT and a class-data archive ({@link #SPRING_AOT}).
	 * @return whether it uses them
	 */
	public boolean usesAotCache() {
		return this == SPRING_AOT;
	}

	/**
	 * Whether the scenarios after the cold drain (live changes, burst, memory) run it:
	 * every operator except {@link #SPRING_AOT}, whose cache only changes start-up.
	 * @return whether those scenarios run it
	 */
	public boolean runsBeyondColdDrain() {
		return this.operator && !usesAotCache();
	}

	/**
	 * Whether the failover scenario runs it.
	 * @return whether it takes part in the failover scenario
	 */
	public boolean isLeaderElectionMeasured() {
		return this.leaderElection;
	}

	/**
	 * Returns the implementation with the given id.
	 * @param id the id
	 * @return the implementation
	 * @throws IllegalArgumentException if there is none
	 */
	public static Implementation of(String id) {
		return Arrays.stream(values())
			.filter((candidate) -> candidate.id.equalsIgnoreCase(id.strip()))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("Unknown implementation '" + id + "'; known: "
					+ Arrays.stream(values()).map(Implementation::id).toList()));
	}

}
