package io.kubeboot.operator.benchmarks.harness;

import java.util.Arrays;

import io.kubeboot.operator.benchmarks.baseline.BaselineOperatorMain;
import io.kubeboot.operator.benchmarks.plain.ManagerOperatorMain;
import io.kubeboot.operator.benchmarks.raw.RawDrainMain;
import io.kubeboot.operator.benchmarks.spring.SpringOperatorApplication;

/**
 * The programs compared, each run as a separate JVM with identical JVM flags.
 */
public enum Implementation {

	/**
	 * Ours: a Spring Boot application on the starter with one {@code @Reconciler}.
	 */
	SPRING("spring", "ours (Spring Boot starter)", SpringOperatorApplication.class, true, true),

	/**
	 * Ours without Spring: {@code Manager.builder(...)} directly.
	 */
	MANAGER("manager", "ours (Manager, no Spring)", ManagerOperatorMain.class, true, false),

	/**
	 * client-java-extended's {@code ControllerManager}.
	 */
	BASELINE("baseline", "client-java-extended ControllerManager", BaselineOperatorMain.class, true, true),

	/**
	 * No framework: list once, patch with four threads.
	 */
	RAW("raw", "raw client-java (ceiling)", RawDrainMain.class, false, false);

	private final String id;

	private final String label;

	private final Class<?> mainClass;

	private final boolean operator;

	private final boolean leaderElection;

	Implementation(String id, String label, Class<?> mainClass, boolean operator, boolean leaderElection) {
		this.id = id;
		this.label = label;
		this.mainClass = mainClass;
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
	 * Returns the class whose {@code main} the child JVM runs.
	 * @return the main class
	 */
	public Class<?> mainClass() {
		return this.mainClass;
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
