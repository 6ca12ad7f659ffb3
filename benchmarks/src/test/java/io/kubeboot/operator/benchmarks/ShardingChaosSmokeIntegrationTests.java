package io.kubeboot.operator.benchmarks;

import java.nio.file.Path;

import io.kubeboot.operator.benchmarks.harness.ShardingChaosConfig;
import io.kubeboot.operator.benchmarks.harness.ShardingChaosReport;
import io.kubeboot.operator.benchmarks.harness.ShardingChaosRun;
import io.kubeboot.operator.sharding.ShardingConfig;
import io.kubeboot.operator.test.ControlPlane;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the sharding run at its smoke size (3 replicas, 300 widgets, lease 3s / renew 2s /
 * retry 0.5s) through every phase, in both modes: start and shares, {@code kill -9},
 * graceful stop, in the label-based mode {@code kill -9} of the leader, scale up and
 * down. Asserts that every phase completed and that no widget was ever reconciled by two
 * replicas at once; prints the measured times but never asserts them, so that a slow
 * machine cannot fail it (each phase may take up to two minutes).
 */
class ShardingChaosSmokeIntegrationTests {

	@Test
	@Timeout(900)
	void filterBasedReplicasShareTheWidgetsAndHandThemOverWithoutEverReconcilingOneAtOnce() throws Exception {
		ShardingChaosReport report = run(ShardingConfig.Mode.FILTER);
		assertThat(report.phases()).as(report.table())
			.containsExactly("start", "settled: 3 replicas", "kill -9 replica-1", "settled: a replacement joined",
					"SIGTERM replica-2", "settled: a replacement joined", "scale up: settled with 4 replicas",
					"scale down: SIGTERM replica-3 and replica-4", "scale down: settled with 2 replicas");
	}

	@Test
	@Timeout(900)
	void labelBasedReplicasShareTheWidgetsAndHandThemOverAlsoWhenTheSharderMoves() throws Exception {
		ShardingChaosReport report = run(ShardingConfig.Mode.LABEL);
		// which replica leads is up to the election: the phases name it
		assertThat(report.phases()).as(report.table())
			.satisfiesExactly((phase) -> assertThat(phase).isEqualTo("start"),
					(phase) -> assertThat(phase).isEqualTo("settled: 3 replicas"),
					(phase) -> assertThat(phase).matches("kill -9 replica-[123]"),
					(phase) -> assertThat(phase).isEqualTo("settled: a replacement joined"),
					(phase) -> assertThat(phase).matches("SIGTERM replica-[1234]"),
					(phase) -> assertThat(phase).isEqualTo("settled: a replacement joined"),
					(phase) -> assertThat(phase).matches("kill -9 replica-[12345] \\(the leader\\)"),
					(phase) -> assertThat(phase).isEqualTo("settled: a replacement joined"),
					(phase) -> assertThat(phase).isEqualTo("scale up: settled with 4 replicas"),
					(phase) -> assertThat(phase).matches("scale down: SIGTERM replica-\\d and replica-\\d"),
					(phase) -> assertThat(phase).isEqualTo("scale down: settled with 2 replicas"));
	}

	private static ShardingChaosReport run(ShardingConfig.Mode mode) throws Exception {
		ShardingChaosConfig config = ShardingChaosConfig
			.smoke(Path.of("target", "chaos-sharding-smoke-" + mode.name().toLowerCase()).toAbsolutePath(), mode);
		ShardingChaosReport report;
		try (ControlPlane controlPlane = ControlPlane.start()) {
			report = new ShardingChaosRun(config, controlPlane).run();
		}
		System.out.println(report.parameters());
		System.out.println(report.table());
		assertThat(report.failures()).as(report.table()).isEmpty();
		assertThat(report.reconciles()).isPositive();
		assertThat(report.overlapsAcrossReplicas()).isZero();
		return report;
	}

}
