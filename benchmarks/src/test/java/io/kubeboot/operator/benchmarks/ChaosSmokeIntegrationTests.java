package io.kubeboot.operator.benchmarks;

import java.nio.file.Path;

import io.kubeboot.operator.benchmarks.harness.ChaosConfig;
import io.kubeboot.operator.benchmarks.harness.ChaosReport;
import io.kubeboot.operator.benchmarks.harness.ChaosRun;
import io.kubeboot.operator.test.ControlPlane;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the chaos run at its smoke size (3 replicas, 100 widgets, 60 seconds of API server
 * restarts and leader kills), with three seeds (other fault times and kinds, other
 * replicas killed), and asserts its checks: at most one leader per term, never two
 * reconciles of one widget at once, every widget converged, no update lost. Never asserts
 * how fast.
 */
class ChaosSmokeIntegrationTests {

	@ParameterizedTest(name = "seed {0}")
	@ValueSource(longs = { 31, 20261129, 7 })
	@Timeout(420)
	void replicasUnderApiServerRestartsAndLeaderKillsNeverOverlapAndConverge(long seed) throws Exception {
		ChaosConfig config = ChaosConfig.smoke(Path.of("target", "chaos-smoke-" + seed).toAbsolutePath(), seed);
		ChaosReport report;
		try (ControlPlane controlPlane = ControlPlane.start()) {
			report = new ChaosRun(config, controlPlane).run();
		}
		System.out.println(report.table());
		assertThat(report.faults()).containsKeys("leader kills (SIGKILL)");
		assertThat(report.faults().keySet()).anyMatch((kind) -> kind.startsWith("API server restarts"));
		assertThat(report.reconciles()).isPositive();
		assertThat(report.failures()).as(report.table()).isEmpty();
	}

}
