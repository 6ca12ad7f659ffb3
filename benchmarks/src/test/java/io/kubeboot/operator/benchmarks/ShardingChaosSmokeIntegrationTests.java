package io.kubeboot.operator.benchmarks;

import java.nio.file.Path;

import io.kubeboot.operator.benchmarks.harness.ShardingChaosConfig;
import io.kubeboot.operator.benchmarks.harness.ShardingChaosReport;
import io.kubeboot.operator.benchmarks.harness.ShardingChaosRun;
import io.kubeboot.operator.test.ControlPlane;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the sharding run at its smoke size (3 replicas, 300 widgets, lease 3s / renew 2s /
 * retry 0.5s) through every phase: start and shares, {@code kill -9}, graceful stop,
 * scale up and down. Asserts that every phase completed and that no widget was ever
 * reconciled by two replicas at once; prints the measured times but never asserts them,
 * so that a slow machine cannot fail it (each phase may take up to two minutes).
 */
class ShardingChaosSmokeIntegrationTests {

	@Test
	@Timeout(900)
	void replicasShareTheWidgetsAndHandThemOverWithoutEverReconcilingOneAtOnce() throws Exception {
		ShardingChaosConfig config = ShardingChaosConfig
			.smoke(Path.of("target", "chaos-sharding-smoke").toAbsolutePath());
		ShardingChaosReport report;
		try (ControlPlane controlPlane = ControlPlane.start()) {
			report = new ShardingChaosRun(config, controlPlane).run();
		}
		System.out.println(report.parameters());
		System.out.println(report.table());
		assertThat(report.failures()).as(report.table()).isEmpty();
		assertThat(report.phases()).as(report.table())
			.containsExactly("start", "settled: 3 replicas", "kill -9 replica-1", "settled: a replacement joined",
					"SIGTERM replica-2", "settled: a replacement joined", "scale up: settled with 4 replicas",
					"scale down: SIGTERM replica-3 and replica-4", "scale down: settled with 2 replicas");
		assertThat(report.reconciles()).isPositive();
		assertThat(report.overlapsAcrossReplicas()).isZero();
	}

}
