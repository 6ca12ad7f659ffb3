package io.kubeboot.operator.benchmarks.harness;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What to run. The full benchmark reads system properties ({@code benchmark.*}); the
 * smoke test uses {@link #smoke(Path)}.
 *
 * @param smoke whether this is the smoke run (tiny sizes, one run, short leases)
 * @param scenarios the scenarios: {@code drain}, {@code live}, {@code burst},
 * {@code memory}, {@code failover}, {@code cache-memory}, {@code sharded}, {@code jmh}
 * @param implementations the implementations, in the order runs alternate
 * @param drainSizes object counts of the cold drain
 * @param liveSizes object counts of the cold drain during which live changes are made
 * @param burstSizes object counts of the burst
 * @param memorySizes the two cached object counts of the memory scenario
 * @param failoverObjects objects in the namespace during failover
 * @param leaseDuration the lease duration of the failover scenario
 * @param renewDeadline the renew deadline of the failover scenario
 * @param retryPeriod the retry period of the failover scenario
 * @param fixedRuns runs per implementation and size in every scenario, or {@code 0} for
 * the defaults (5 up to 1,000 objects, 3 above; 3 for memory and failover)
 * @param jfr whether operator processes record a JFR profile into the work directory
 * @param priorityQueue whether our implementations use their priority work queue (the
 * default); {@code false} measures them with a first-in, first-out queue
 * @param childJvmFlags the JVM flags of every operator process
 * @param javaHome the home of the JDK the operator processes run on; the harness's own by
 * default
 * @param outputDir where the report ({@code BENCHMARKS.md}, or {@code results.md} for the
 * smoke run) and the plot ({@code drain.png}) go, and where {@code analysis.md} is read
 * from
 * @param workDir where process logs and JFR recordings go
 */
public record BenchmarkConfig(boolean smoke, Set<String> scenarios, List<Implementation> implementations,
		List<Integer> drainSizes, List<Integer> liveSizes, List<Integer> burstSizes, List<Integer> memorySizes,
		int failoverObjects, Duration leaseDuration, Duration renewDeadline, Duration retryPeriod, int fixedRuns,
		boolean jfr, boolean priorityQueue, List<String> childJvmFlags, Path javaHome, Path outputDir, Path workDir) {

	/**
	 * The JVM flags of every operator process, ours, the baseline's and the raw program's
	 * alike.
	 */
	public static final List<String> CHILD_JVM_FLAGS = List.of("-Xmx1g", "-XX:+UseSerialGC");

	/**
	 * The implementations of a full run unless {@code benchmark.implementations} says
	 * otherwise.
	 */
	public static final String DEFAULT_IMPLEMENTATIONS = "spring,spring-aot,baseline,manager,josdk,raw";

	/**
	 * The full benchmark, adjusted by system properties: {@code benchmark.scenarios},
	 * {@code benchmark.implementations}, {@code benchmark.drainSizes},
	 * {@code benchmark.liveSizes}, {@code benchmark.burstSizes},
	 * {@code benchmark.memorySizes}, {@code benchmark.leaseDurations}
	 * ({@code 15s,10s,2s}), {@code benchmark.runs}, {@code benchmark.jfr},
	 * {@code benchmark.priorityQueue}, {@code benchmark.extraJvmFlags} (added to
	 * {@link #CHILD_JVM_FLAGS}, separated by spaces), {@code benchmark.javaHome},
	 * {@code benchmark.outputDir}, {@code benchmark.workDir}.
	 * @return the configuration
	 */
	public static BenchmarkConfig fromSystemProperties() {
		List<Duration> lease = leaseDurations("benchmark.leaseDurations",
				System.getProperty("benchmark.leaseDurations", "15s,10s,2s"));
		return new BenchmarkConfig(false,
				new LinkedHashSet<>(strings(System.getProperty("benchmark.scenarios",
						"drain,live,burst,memory,failover,cache-memory,lists,writes,sharded,jmh"))),
				strings(System.getProperty("benchmark.implementations", DEFAULT_IMPLEMENTATIONS)).stream()
					.map(Implementation::of)
					.toList(),
				ints(System.getProperty("benchmark.drainSizes", "1000,5000")),
				ints(System.getProperty("benchmark.liveSizes", "5000")),
				ints(System.getProperty("benchmark.burstSizes", "1000,5000")),
				ints(System.getProperty("benchmark.memorySizes", "1000,10000")), 100, lease.get(0), lease.get(1),
				lease.get(2), Integer.getInteger("benchmark.runs", 0), Boolean.getBoolean("benchmark.jfr"),
				!"false".equalsIgnoreCase(System.getProperty("benchmark.priorityQueue", "true").strip()),
				childJvmFlags(System.getProperty("benchmark.extraJvmFlags", "")), defaultJavaHome(),
				Path.of(System.getProperty("benchmark.outputDir", ".")).toAbsolutePath(),
				Path.of(System.getProperty("benchmark.workDir", "target/benchmark")).toAbsolutePath());
	}

	/**
	 * The smoke run: every scenario and implementation once at N = 100 (memory at 100 and
	 * 200 objects), failover with 3s/2s/0.5s leases, and each JMH benchmark method called
	 * once without JMH, the operator processes on the harness's JDK
	 * ({@link #withJavaHome(Path)} for another).
	 * @param directory where to write the report and logs
	 * @return the configuration
	 */
	public static BenchmarkConfig smoke(Path directory) {
		return new BenchmarkConfig(true,
				new LinkedHashSet<>(
						List.of("drain", "live", "burst", "memory", "failover", "lists", "writes", "sharded", "jmh")),
				List.of(Implementation.SPRING, Implementation.SPRING_AOT, Implementation.BASELINE,
						Implementation.MANAGER, Implementation.JOSDK, Implementation.RAW),
				List.of(100), List.of(100), List.of(100), List.of(100, 200), 20, Duration.ofSeconds(3),
				Duration.ofSeconds(2), Duration.ofMillis(500), 1, false, true, CHILD_JVM_FLAGS,
				Path.of(System.getProperty("java.home")).toAbsolutePath().normalize(), directory,
				directory.resolve("work"));
	}

	/**
	 * Returns this configuration with the operator processes on another JDK.
	 * @param home the JDK's home
	 * @return the configuration
	 */
	public BenchmarkConfig withJavaHome(Path home) {
		return new BenchmarkConfig(this.smoke, this.scenarios, this.implementations, this.drainSizes, this.liveSizes,
				this.burstSizes, this.memorySizes, this.failoverObjects, this.leaseDuration, this.renewDeadline,
				this.retryPeriod, this.fixedRuns, this.jfr, this.priorityQueue, this.childJvmFlags, home,
				this.outputDir, this.workDir);
	}

	/**
	 * Returns this configuration with other scenarios and implementations.
	 * @param scenarios the scenarios
	 * @param implementations the implementations
	 * @return the configuration
	 */
	public BenchmarkConfig with(Set<String> scenarios, List<Implementation> implementations) {
		return new BenchmarkConfig(this.smoke, scenarios, implementations, this.drainSizes, this.liveSizes,
				this.burstSizes, this.memorySizes, this.failoverObjects, this.leaseDuration, this.renewDeadline,
				this.retryPeriod, this.fixedRuns, this.jfr, this.priorityQueue, this.childJvmFlags, this.javaHome,
				this.outputDir, this.workDir);
	}

	private static Path defaultJavaHome() {
		String value = System.getProperty(ChildJdk.PROPERTY);
		return Path.of((value != null && !value.isBlank()) ? value.strip() : System.getProperty("java.home"))
			.toAbsolutePath()
			.normalize();
	}

	static List<String> childJvmFlags(String extra) {
		List<String> flags = new ArrayList<>(CHILD_JVM_FLAGS);
		Arrays.stream(extra.strip().split("\\s+")).filter((flag) -> !flag.isEmpty()).forEach(flags::add);
		return List.copyOf(flags);
	}

	/**
	 * Returns how many runs each implementation gets at a size.
	 * @param size the object count
	 * @return the number of runs
	 */
	public int runs(int size) {
		if (this.fixedRuns > 0) {
			return this.fixedRuns;
		}
		return (size <= 1000) ? 5 : 3;
	}

	/**
	 * Returns how many runs each implementation gets at each size of the memory scenario.
	 * @return the number of runs
	 */
	public int memoryRuns() {
		return (this.fixedRuns > 0) ? this.fixedRuns : 3;
	}

	/**
	 * Returns how many failover runs (each a kill -9 and a graceful stop) each
	 * implementation gets.
	 * @return the number of runs
	 */
	public int failoverRuns() {
		return (this.fixedRuns > 0) ? this.fixedRuns : 3;
	}

	/**
	 * Whether a scenario is selected.
	 * @param scenario the scenario name
	 * @return whether to run it
	 */
	public boolean runs(String scenario) {
		return this.scenarios.contains(scenario);
	}

	static List<String> strings(String value) {
		return Arrays.stream(value.split(",")).map(String::strip).filter((part) -> !part.isEmpty()).toList();
	}

	private static List<Integer> ints(String value) {
		return strings(value).stream().map(Integer::valueOf).toList();
	}

	/**
	 * Parses a duration such as {@code 15s}, {@code 10m} or {@code 1m30s}.
	 * @param value the value
	 * @return the duration
	 */
	static Duration duration(String value) {
		return Duration.parse("PT" + value.strip().toUpperCase());
	}

	/**
	 * Parses lease duration, renew deadline and retry period, e.g. {@code 15s,10s,2s}.
	 * @param property the property, for the error message
	 * @param value the value
	 * @return the three durations
	 */
	static List<Duration> leaseDurations(String property, String value) {
		List<Duration> durations = strings(value).stream().map(BenchmarkConfig::duration).toList();
		if (durations.size() != 3) {
			throw new IllegalArgumentException(property + " needs lease,renew,retry, e.g. 15s,10s,2s");
		}
		return durations;
	}

}
