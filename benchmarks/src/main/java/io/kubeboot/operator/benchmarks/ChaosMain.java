package io.kubeboot.operator.benchmarks;

import io.kubeboot.operator.benchmarks.harness.ChaosConfig;
import io.kubeboot.operator.benchmarks.harness.ChaosReport;
import io.kubeboot.operator.benchmarks.harness.ChaosRun;
import io.kubeboot.operator.test.ControlPlane;

/**
 * Runs the chaos run (faults.md scenario 31) against a local control plane started in
 * this JVM, prints its parameters and summary table, and exits with status 1 if a check
 * failed. Run it from the repository root with
 * {@code mvn -B -pl benchmarks -am verify -DskipTests -Pchaos}; {@code -Dchaos.*}
 * properties adjust it ({@link ChaosConfig#fromSystemProperties()}).
 */
public final class ChaosMain {

	private ChaosMain() {
	}

	public static void main(String[] args) throws Exception {
		ChaosConfig config = ChaosConfig.fromSystemProperties();
		ChaosReport report;
		try (ControlPlane controlPlane = ControlPlane.start()) {
			report = new ChaosRun(config, controlPlane).run();
		}
		System.out.println();
		System.out.println("Chaos run");
		System.out.println();
		System.out.print(report.parameters());
		System.out.println();
		System.out.print(report.table());
		System.out.flush();
		System.exit(report.passed() ? 0 : 1);
	}

}
