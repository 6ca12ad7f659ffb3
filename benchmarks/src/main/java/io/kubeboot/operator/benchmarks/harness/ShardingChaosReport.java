package io.kubeboot.operator.benchmarks.harness;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kubeboot.operator.benchmarks.chaos.ChaosReplicaMain;
import io.kubeboot.operator.sharding.ShardingConfig;

/**
 * What a sharding run measured and found: a table of its phases, whether every phase
 * completed and no object was ever reconciled by two replicas at once (its checks), and
 * whether issue 15's targets were met (share, takeover after {@code kill -9}, handover
 * after a graceful stop).
 */
public final class ShardingChaosReport {

	private final ShardingChaosConfig config;

	private final Map<String, String> environment;

	private final List<Row> phases;

	private final List<String> missedTargets;

	private final String incomplete;

	private final int replicasStarted;

	private final ShardJournalAnalysis journals;

	private ShardingChaosReport(Builder builder) {
		this.config = builder.config;
		this.environment = new LinkedHashMap<>(builder.environment);
		this.phases = List.copyOf(builder.phases);
		this.missedTargets = List.copyOf(builder.missedTargets);
		this.incomplete = builder.incomplete;
		this.replicasStarted = builder.replicasStarted;
		this.journals = builder.journals;
	}

	/**
	 * Whether every check passed and every target was met.
	 * @return whether the run passed
	 */
	public boolean passed() {
		return failures().isEmpty() && this.missedTargets.isEmpty();
	}

	/**
	 * Returns the checks that failed: a phase that did not complete, reconciles of one
	 * object at once. Timing plays no part in them (every phase may take up to
	 * {@code phaseTimeout}).
	 * @return one line per failed check, empty if all passed
	 */
	public List<String> failures() {
		List<String> failures = new ArrayList<>();
		if (this.incomplete != null) {
			failures.add("phase not completed: " + this.incomplete);
		}
		if (this.journals.acrossReplicas() > 0) {
			failures.add("an object reconciled by two replicas at once");
		}
		if (this.journals.withinReplica() > 0) {
			failures.add("an object reconciled twice at once in one replica");
		}
		return failures;
	}

	/**
	 * Returns the targets of issue 15 that were missed, by how much.
	 * @return one line per missed target, empty if all were met
	 */
	public List<String> missedTargets() {
		return this.missedTargets;
	}

	/**
	 * Returns the phases that completed, in order.
	 * @return their names
	 */
	public List<String> phases() {
		return this.phases.stream().map(Row::phase).toList();
	}

	/**
	 * Returns the number of reconciles the replicas began.
	 * @return the count
	 */
	public long reconciles() {
		return this.journals.reconciles();
	}

	/**
	 * Returns the number of reconciles that began while another replica reconciled the
	 * same object.
	 * @return the count
	 */
	public long overlapsAcrossReplicas() {
		return this.journals.acrossReplicas();
	}

	/**
	 * Renders the phases and the checks as a Markdown table, followed by the evidence of
	 * any overlap.
	 * @return the summary
	 */
	public String table() {
		StringBuilder table = new StringBuilder("| phase | replicas | measured | target |\n|---|---|---|---|\n");
		for (Row row : this.phases) {
			table.append("| ")
				.append(row.phase())
				.append(" | ")
				.append(row.replicas())
				.append(" | ")
				.append(row.measured())
				.append(" | ")
				.append(row.target())
				.append(" |\n");
		}
		if (this.incomplete != null) {
			table.append("| ").append(this.incomplete).append(" | | not completed | |\n");
		}
		Map<String, String> checks = new LinkedHashMap<>();
		checks.put("replicas started in all", String.valueOf(this.replicasStarted));
		checks.put("reconciles begun / wrote the status / failed / cut short by a kill", this.journals.reconciles()
				+ " / " + this.journals.writes() + " / " + this.journals.failed() + " / " + this.journals.cutShort());
		checks.put("reconciles overlapping another replica's of the same object",
				String.valueOf(this.journals.acrossReplicas()));
		checks.put("reconciles overlapping another of the same object in one replica",
				String.valueOf(this.journals.withinReplica()));
		checks.put("longest overlap", millis(this.journals.maxOverlapMicros()));
		checks.put("result", passed() ? "PASSED" : "FAILED: " + String.join(", ", failuresAndMisses()));
		table.append("\n| | |\n|---|---|\n");
		checks.forEach((name, value) -> table.append("| ").append(name).append(" | ").append(value).append(" |\n"));
		if (!this.journals.evidence().isEmpty()) {
			table.append("\nEvidence:\n");
			this.journals.evidence().forEach((line) -> table.append("- ").append(line).append('\n'));
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
				"mode %s, replicas %d (then %d, then %d), objects %d, lease %s / renew %s / retry %s, work %d ms per reconcile, requeued after %s, %d workers per replica, phase timeout %s, replica JVM %s"
					.formatted(modeDescription(), this.config.replicas(), this.config.replicas() + 1,
							this.config.replicas() - 1, this.config.objects(), seconds(this.config.leaseDuration()),
							seconds(this.config.renewDeadline()), seconds(this.config.retryPeriod()),
							this.config.workTime().toMillis(), seconds(this.config.requeueAfter()),
							ChaosReplicaMain.SHARDED_WORKERS, seconds(this.config.phaseTimeout()),
							String.join(" ", this.config.replicaJvmFlags())));
		StringBuilder text = new StringBuilder();
		lines.forEach((name, value) -> text.append("- ").append(name).append(": ").append(value).append('\n'));
		return text.toString();
	}

	private String modeDescription() {
		return (this.config.mode() == ShardingConfig.Mode.LABEL)
				? "label-based (with leader election on the same timings: the leader runs the sharder)"
				: "filter-based (no leader election)";
	}

	private List<String> failuresAndMisses() {
		List<String> all = new ArrayList<>(failures());
		all.addAll(this.missedTargets);
		return all;
	}

	static String seconds(Duration duration) {
		return "%.1f s".formatted(duration.toMillis() / 1000.0);
	}

	static String seconds(long micros) {
		return "%.2f s".formatted(micros / 1_000_000.0);
	}

	private static String millis(long micros) {
		return "%.1f ms".formatted(micros / 1000.0);
	}

	private static String percent(double fraction) {
		return "%.1f%%".formatted(fraction * 100);
	}

	private static String points(double fraction) {
		return "%.1f points".formatted(fraction * 100);
	}

	/**
	 * One phase's line of the table.
	 */
	private record Row(String phase, String replicas, String measured, String target) {

	}

	/**
	 * How the objects were shared in a settled window: the ring acknowledged alike by
	 * every member, then until every object was reconciled.
	 *
	 * @param members the replicas running
	 * @param counts the objects each began reconciling in the window
	 * @param objects all objects
	 * @param byTwo objects more than one replica began reconciling in the window
	 * @param windowMicros how long the window lasted
	 */
	record Shares(List<String> members, Map<String, Integer> counts, int objects, int byTwo, long windowMicros) {

		/**
		 * Returns how far the share furthest from a fair one is from it.
		 * @return the distance in shares of all objects (0.05 is 5 percentage points)
		 */
		double largestDeviation() {
			double fair = 1.0 / this.members.size();
			return this.members.stream()
				.mapToDouble((member) -> Math.abs((double) this.counts.getOrDefault(member, 0) / this.objects - fair))
				.max()
				.orElse(0);
		}

		String describe() {
			List<String> shares = new ArrayList<>();
			for (String member : this.members) {
				int count = this.counts.getOrDefault(member, 0);
				shares.add(member + " " + percent((double) count / this.objects) + " (" + count + ")");
			}
			return String.join(", ", shares) + " of " + this.objects + " objects in " + seconds(this.windowMicros)
					+ "; by two replicas: " + this.byTwo;
		}

	}

	/**
	 * How the objects of replicas that left were taken over by the others.
	 *
	 * @param leaving the replicas that left
	 * @param survivors the replicas that stayed
	 * @param objects how many objects the leaving ones had reconciled in the last settled
	 * window
	 * @param firstMicros from the kill or stop to the first reconcile of one of them by a
	 * survivor
	 * @param lastMicros from the kill or stop until every one of them had been reconciled
	 * by a survivor
	 */
	record Handover(List<String> leaving, List<String> survivors, int objects, long firstMicros, long lastMicros) {

		String describe() {
			String text = "the " + this.objects + " objects of " + String.join(" and ", this.leaving)
					+ " reconciled by the others: the first after " + seconds(this.firstMicros) + ", all after "
					+ seconds(this.lastMicros);
			long spread = this.lastMicros - this.firstMicros;
			if (this.objects > 1 && spread > 0) {
				// in the label-based mode, the rate of the sharder's moves
				text += " (%.0f objects/s from the first to the last)"
					.formatted((this.objects - 1) * 1_000_000.0 / spread);
			}
			return text;
		}

	}

	/**
	 * Collects the report while the run goes on.
	 */
	static final class Builder {

		private final ShardingChaosConfig config;

		private final Map<String, String> environment = new LinkedHashMap<>();

		private final List<Row> phases = new ArrayList<>();

		private final List<String> missedTargets = new ArrayList<>();

		private String incomplete;

		private int replicasStarted;

		private ShardJournalAnalysis journals;

		Builder(ShardingChaosConfig config) {
			this.config = config;
		}

		void environment(String name, String value) {
			this.environment.put(name, value);
		}

		void started(List<String> members, long micros) {
			this.phases.add(new Row("start", String.join(", ", members),
					"every object reconciled " + seconds(micros) + " after the processes were started", ""));
		}

		/**
		 * Adds a settled window; with a target, its shares are checked against
		 * {@link ShardingChaosConfig#SHARE_TOLERANCE}.
		 */
		void settled(String phase, Shares shares, boolean target) {
			double fair = 1.0 / shares.members().size();
			String deviation = "largest distance from a fair share (" + percent(fair) + "): "
					+ points(shares.largestDeviation());
			String goal = "";
			if (target) {
				boolean met = shares.largestDeviation() <= ShardingChaosConfig.SHARE_TOLERANCE;
				goal = "each within " + percent(fair) + " +- " + points(ShardingChaosConfig.SHARE_TOLERANCE) + ": "
						+ (met ? "met" : "missed");
				if (!met) {
					this.missedTargets.add(phase + ": " + deviation);
				}
			}
			this.phases
				.add(new Row(phase, String.join(", ", shares.members()), shares.describe() + "; " + deviation, goal));
		}

		/**
		 * Adds a handover; with a target (its name and bound), the time until every
		 * object was taken over is checked against it.
		 */
		void handover(String phase, Handover handover, Duration target, String targetName) {
			String goal = "";
			if (target != null) {
				boolean met = handover.lastMicros() <= target.toNanos() / 1000;
				goal = targetName + " = " + seconds(target) + ": " + (met ? "met" : "missed");
				if (!met) {
					this.missedTargets.add(phase + ": all objects taken over after " + seconds(handover.lastMicros())
							+ ", more than " + targetName + " = " + seconds(target));
				}
			}
			this.phases.add(new Row(phase, String.join(", ", handover.survivors()), handover.describe(), goal));
		}

		void incomplete(String what) {
			this.incomplete = what;
		}

		void replicasStarted(int count) {
			this.replicasStarted = count;
		}

		void journals(ShardJournalAnalysis journals) {
			this.journals = journals;
		}

		ShardingChaosReport build() {
			return new ShardingChaosReport(this);
		}

	}

}
