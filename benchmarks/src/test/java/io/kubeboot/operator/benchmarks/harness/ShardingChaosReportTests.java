package io.kubeboot.operator.benchmarks.harness;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.kubeboot.operator.sharding.ShardingConfig;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ShardingChaosReportTests {

	private static final List<String> MEMBERS = List.of("replica-1", "replica-2", "replica-3");

	@Test
	void aShareWithinTenPercentagePointsOfAFairOneMeetsTheTarget() {
		ShardingChaosReport.Shares shares = new ShardingChaosReport.Shares(MEMBERS,
				Map.of("replica-1", 969, "replica-2", 1129, "replica-3", 902), 3000, 0, 5_000_000);
		assertThat(shares.largestDeviation()).isCloseTo(0.043, Offset.offset(0.001));
		ShardingChaosReport.Builder builder = new ShardingChaosReport.Builder(config());
		builder.settled("settled: 3 replicas", shares, true);
		assertThat(builder.build().missedTargets()).isEmpty();
	}

	@Test
	void aShareMoreThanTenPercentagePointsFromAFairOneMissesTheTarget() {
		ShardingChaosReport.Shares shares = new ShardingChaosReport.Shares(MEMBERS,
				Map.of("replica-1", 1310, "replica-2", 900, "replica-3", 790), 3000, 0, 5_000_000);
		ShardingChaosReport.Builder builder = new ShardingChaosReport.Builder(config());
		builder.settled("settled: 3 replicas", shares, true);
		assertThat(builder.build().missedTargets())
			.containsExactly("settled: 3 replicas: largest distance from a fair share (33.3%): 10.3 points");
	}

	@Test
	void aHandoverSaysAtWhatRateTheObjectsWereTakenOverAfterTheFirst() {
		ShardingChaosReport.Handover handover = new ShardingChaosReport.Handover(List.of("replica-1"),
				List.of("replica-2", "replica-3"), 1001, 4_000_000, 9_000_000);
		assertThat(handover.describe()).isEqualTo("the 1001 objects of replica-1 reconciled by the others: "
				+ "the first after 4.00 s, all after 9.00 s (200 objects/s from the first to the last)");
	}

	@Test
	void aHandoverMissingItsTargetSaysByHowMuch() {
		ShardingChaosReport.Builder builder = new ShardingChaosReport.Builder(config());
		builder.handover(
				"kill -9 replica-1", new ShardingChaosReport.Handover(List.of("replica-1"),
						List.of("replica-2", "replica-3"), 969, 4_160_000, 9_370_000),
				Duration.ofSeconds(6), "lease + 2 x retry");
		assertThat(builder.build().missedTargets()).containsExactly(
				"kill -9 replica-1: all objects taken over after 9.37 s, more than lease + 2 x retry = 6.0 s");
	}

	private static ShardingChaosConfig config() {
		return new ShardingChaosConfig(ShardingConfig.Mode.FILTER, 3, 3000, Duration.ofSeconds(4),
				Duration.ofSeconds(3), Duration.ofSeconds(1), Duration.ofMillis(20), Duration.ofSeconds(5),
				Duration.ofMinutes(3), List.of(), Path.of("target"));
	}

}
