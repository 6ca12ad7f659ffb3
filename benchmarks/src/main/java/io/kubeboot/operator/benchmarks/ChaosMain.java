package io.kubeboot.operator.benchmarks;

import io.kubeboot.operator.benchmarks.harness.ChaosConfig;
import io.kubeboot.operator.benchmarks.harness.ChaosReport;
import io.kubeboot.operator.benchmarks.harness.ChaosRun;
import io.kubeboot.operator.benchmarks.harness.ShardingChaosConfig;
import io.kubeboot.operator.benchmarks.harness.ShardingChaosReport;
import io.kubeboot.operator.benchmarks.harness.ShardingChaosRun;
import io.kubeboot.operator.test.ControlPlane;

/**
 * Runs a chaos run against a local control plane started in this JVM, prints its
 * parameters and summary table, and exits with status 1 if a check failed. The scenario
 * is {@code -Dchaos.scenario=}{@code leader-election} (the default: RELIABILITY.md's
 * chaos run, {@link ChaosRun}) or {@code sharding} (issue 15's acceptance,
 * {@link ShardingChaosRun}, which also fails on a missed target). Run it from the
 * repository root with {@code mvn -B -pl benchmarks -am verify -DskipTests -Pchaos};
 * {@code -Dchaos.*} properties adjust it ({@link ChaosConfig#fromSystemProperties()},
 * {@link ShardingChaosConfig#fromSystemProperties()}).
 */
public final class ChaosMain {

	private ChaosMain() {
	}

	public static void main(String[] args) throws Exception {
		String scenario = System.getProperty("chaos.scenario", "");
		boolean passed = switch (scenario.isBlank() ? "leader-election" : scenario.strip()) {
			case "leader-election" -> leaderElection();
			case "sharding" -> sharding();
			default -> throw new IllegalArgumentException(
					"chaos.scenario must be leader-election or sharding, was " + scenario);
		};
		System.exit(passed ? 0 : 1);
	}

	private static boolean leaderElection() throws Exception {
		ChaosConfig config = ChaosConfig.fromSystemProperties();
		ChaosReport report;
		try (ControlPlane controlPlane = ControlPlane.start()) {
			report = new ChaosRun(config, controlPlane).run();
		}
		print("Chaos run", report.parameters(), report.table());
		return report.passed();
	}

	private static boolean sharding() throws Exception {
		ShardingChaosConfig config = ShardingChaosConfig.fromSystemProperties();
		ShardingChaosReport report;
		try (ControlPlane controlPlane = ControlPlane.start()) {
			report = new ShardingChaosRun(config, controlPlane).run();
		}
		print("Chaos run: sharding", report.parameters(), report.table());
		return report.passed();
	}

	private static void print(String title, String parameters, String table) {
		System.out.println();
		System.out.println(title);
		System.out.println();
		System.out.print(parameters);
		System.out.println();
		System.out.print(table);
		System.out.flush();
	}

}
