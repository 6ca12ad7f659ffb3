package io.kubeboot.operator.benchmarks.harness;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

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

	private static ShardingChaosConfig config() {
		return new ShardingChaosConfig(3, 3000, Duration.ofSeconds(4), Duration.ofSeconds(3), Duration.ofSeconds(1),
				Duration.ofMillis(20), Duration.ofSeconds(5), Duration.ofMinutes(3), List.of(), Path.of("target"));
	}

}
