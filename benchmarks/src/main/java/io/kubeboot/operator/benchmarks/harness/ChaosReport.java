package io.kubeboot.operator.benchmarks.harness;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.kubeboot.operator.benchmarks.harness.ChaosRun.FinalState;

/**
 * What a chaos run did and found: its summary table and whether every check passed.
 */
public final class ChaosReport {

	private final ChaosConfig config;

	private final Map<String, String> environment;

	private final Duration chaos;

	private final long updates;

	private final long retries;

	private final Map<String, Integer> faults;

	private final Duration convergedAfter;

	private final int replicasStarted;

	private final int replicasExited;

	private final int leaseTerms;

	private final FinalState finalState;

	private final JournalAnalysis journals;

	private ChaosReport(Builder builder) {
		this.config = builder.config;
		this.environment = new LinkedHashMap<>(builder.environment);
		this.chaos = builder.chaos;
		this.updates = builder.updates;
		this.retries = builder.retries;
		this.faults = new TreeMap<>(builder.faults);
		this.convergedAfter = builder.convergedAfter;
		this.replicasStarted = builder.replicasStarted;
		this.replicasExited = builder.replicasExited;
		this.leaseTerms = builder.leaseTerms;
		this.finalState = builder.finalState;
		this.journals = builder.journals;
	}

	/**
	 * Whether every check passed: at most one leader per term, never two reconciles of
	 * one object at once, every widget converged, no update lost.
	 * @return whether the run passed
	 */
	public boolean passed() {
		return failures().isEmpty();
	}

	/**
	 * Returns the checks that failed.
	 * @return one line per failed check, empty if all passed
	 */
	public List<String> failures() {
		List<String> failures = new ArrayList<>();
		if (this.journals.sharedTransitions() > 0 || this.journals.outsideTerm() > 0
				|| this.journals.termOverlaps() > 0) {
			failures.add("more than one leader per term");
		}
		if (this.journals.objectOverlaps() > 0) {
			failures.add("two reconciles of one object at once");
		}
		if (this.convergedAfter == null || this.finalState.converged() != this.config.objects()) {
			failures.add("not every widget converged");
		}
		if (this.finalState.specLost() > 0 || this.finalState.statusBehind() > 0) {
			failures.add("updates lost");
		}
		return failures;
	}

	/**
	 * Returns the number of faults injected.
	 * @return faults by kind
	 */
	public Map<String, Integer> faults() {
		return this.faults;
	}

	/**
	 * Returns the number of reconciles the replicas began.
	 * @return the count
	 */
	public long reconciles() {
		return this.journals.reconciles();
	}

	/**
	 * Returns the violations found in the journals and the widgets that did not converge,
	 * with their evidence.
	 * @return descriptions, empty if none
	 */
	public List<String> evidence() {
		List<String> evidence = new ArrayList<>(this.journals.evidence());
		evidence.addAll(this.finalState.examples());
		return evidence;
	}

	/**
	 * Renders the summary as a Markdown table, followed by the evidence of any violation.
	 * @return the summary
	 */
	public String table() {
		Map<String, String> rows = new LinkedHashMap<>();
		rows.put("chaos (faults and spec updates)", seconds(this.chaos));
		rows.put("replicas", this.config.replicas() + " running; " + this.replicasStarted + " started in all");
		rows.put("objects", String.valueOf(this.config.objects()));
		rows.put("spec updates (writes retried)", this.updates + " (" + this.retries + ")");
		this.faults.forEach((kind, count) -> rows.put("faults: " + kind, String.valueOf(count)));
		rows.put("replicas that exited on a lost Lease", String.valueOf(this.replicasExited));
		rows.put("leader terms begun / Lease terms seen by the harness",
				this.journals.terms() + " / " + this.leaseTerms);
		rows.put("reconciles begun / wrote the status / failed / cut short by a kill", this.journals.reconciles()
				+ " / " + this.journals.writes() + " / " + this.journals.failed() + " / " + this.journals.cutShort());
		rows.put("Lease terms held by two replicas", String.valueOf(this.journals.sharedTransitions()));
		rows.put("reconciles outside a term", String.valueOf(this.journals.outsideTerm()));
		rows.put("terms whose reconciles overlapped another term's (longest)",
				this.journals.termOverlaps() + " (" + millis(this.journals.maxTermOverlapMicros()) + ")");
		rows.put("shortest gap between the reconciles of two terms", (this.journals.minTermGapMicros() >= 0)
				? millis(this.journals.minTermGapMicros()) : "fewer than two terms reconciled");
		rows.put("reconciles overlapping another of the same object (longest)",
				this.journals.objectOverlaps() + " (" + millis(this.journals.maxObjectOverlapMicros()) + ")");
		rows.put("converged", this.finalState.converged() + "/" + this.config.objects());
		rows.put("time to converge after the chaos", (this.convergedAfter != null) ? seconds(this.convergedAfter)
				: "not within " + seconds(this.config.convergeTimeout()));
		rows.put("updates lost (spec or status not the last value written)",
				String.valueOf(this.finalState.specLost() + this.finalState.statusBehind()));
		rows.put("result", passed() ? "PASSED" : "FAILED: " + String.join(", ", failures()));
		StringBuilder table = new StringBuilder("| | |\n|---|---|\n");
		rows.forEach((name, value) -> table.append("| ").append(name).append(" | ").append(value).append(" |\n"));
		List<String> evidence = evidence();
		if (!evidence.isEmpty()) {
			table.append("\nEvidence:\n");
			evidence.forEach((line) -> table.append("- ").append(line).append('\n'));
		}
		return table.toString();
	}

	/**
	 * Describes the parameters and the machine.
	 * @return one line per fact
	 */
	public String parameters() {
		Map<String, String> lines = new LinkedHashMap<>(this.environment);
		lines.put("parameters",
				"replicas %d, objects %d, duration %s, fault interval %s, seed %d, %d updates/s, lease %s / renew %s / retry %s, lost Lease %s, work %s per write, replica JVM %s"
					.formatted(this.config.replicas(), this.config.objects(), seconds(this.config.duration()),
							seconds(this.config.faultInterval()), this.config.seed(), this.config.updatesPerSecond(),
							seconds(this.config.leaseDuration()), seconds(this.config.renewDeadline()),
							seconds(this.config.retryPeriod()), this.config.lostLease(),
							this.config.workTime().toMillis() + " ms",
							String.join(" ", this.config.replicaJvmFlags())));
		StringBuilder text = new StringBuilder();
		lines.forEach((name, value) -> text.append("- ").append(name).append(": ").append(value).append('\n'));
		return text.toString();
	}

	private static String seconds(Duration duration) {
		return "%.1f s".formatted(duration.toMillis() / 1000.0);
	}

	private static String millis(long micros) {
		return "%.1f ms".formatted(micros / 1000.0);
	}

	/**
	 * Collects the report while the run goes on.
	 */
	static final class Builder {

		private final ChaosConfig config;

		private final Map<String, String> environment = new LinkedHashMap<>();

		private Duration chaos = Duration.ZERO;

		private long updates;

		private long retries;

		private Map<String, Integer> faults = Map.of();

		private Duration convergedAfter;

		private int replicasStarted;

		private int replicasExited;

		private int leaseTerms;

		private FinalState finalState;

		private JournalAnalysis journals;

		Builder(ChaosConfig config) {
			this.config = config;
		}

		void environment(String name, String value) {
			this.environment.put(name, value);
		}

		void chaos(Duration chaos, long updates, long retries, Map<String, Integer> faults) {
			this.chaos = chaos;
			this.updates = updates;
			this.retries = retries;
			this.faults = faults;
		}

		void convergedAfter(Duration convergedAfter) {
			this.convergedAfter = convergedAfter;
		}

		void replicas(int started, int exited, int leaseTerms) {
			this.replicasStarted = started;
			this.replicasExited = exited;
			this.leaseTerms = leaseTerms;
		}

		void finalState(FinalState finalState) {
			this.finalState = finalState;
		}

		void journals(JournalAnalysis journals) {
			this.journals = journals;
		}

		ChaosReport build() {
			return new ChaosReport(this);
		}

	}

}
