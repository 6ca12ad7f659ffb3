package io.kubeboot.operator.benchmarks.harness;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.kubeboot.operator.benchmarks.harness.ShardingChaosRun.LabelsSettle;
import io.kubeboot.operator.benchmarks.model.Widget;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ShardingChaosRunTests {

	@Test
	void theMembersOfAnAcknowledgementAreTheNamesAfterItsVirtualNodes() {
		assertThat(ShardingChaosRun.members("100:replica-1,replica-2,replica-3")).containsExactly("replica-1",
				"replica-2", "replica-3");
		assertThat(ShardingChaosRun.members("100:replica-2")).containsExactly("replica-2");
	}

	@Test
	void anAcknowledgementThatClaimsNothingHasNoMembers() {
		assertThat(ShardingChaosRun.members("100:")).isEmpty();
		assertThat(ShardingChaosRun.members("")).isEmpty();
		assertThat(ShardingChaosRun.members(null)).isEmpty();
	}

	@Test
	void labelsSettleOnceEveryMemberHasSomeNoneDrainsAndNothingChangedForTheQuietTime() {
		LabelsSettle settle = new LabelsSettle(Set.of("replica-1", "replica-2"), Duration.ofSeconds(2));
		List<Widget> widgets = List.of(widget("a", "replica-1"), widget("b", "replica-2"));
		assertThat(settle.settled(widgets, 0)).isFalse();
		assertThat(settle.settled(widgets, 1_000_000_000L)).isFalse();
		assertThat(settle.settled(widgets, 2_000_000_000L)).isTrue();
	}

	@Test
	void aLabelChangeStartsTheQuietTimeAgain() {
		LabelsSettle settle = new LabelsSettle(Set.of("replica-1", "replica-2"), Duration.ofSeconds(2));
		settle.settled(List.of(widget("a", "replica-1"), widget("b", "replica-1"), widget("c", "replica-2")), 0);
		List<Widget> moved = List.of(widget("a", "replica-1"), widget("b", "replica-2"), widget("c", "replica-2"));
		assertThat(settle.settled(moved, 3_000_000_000L)).isFalse();
		assertThat(settle.settled(moved, 4_000_000_000L)).isFalse();
		assertThat(settle.settled(moved, 5_000_000_000L)).isTrue();
	}

	@Test
	void labelsDoNotSettleWhileAnObjectDrainsOrIsUnlabelledOrAMemberHasNone() {
		LabelsSettle settle = new LabelsSettle(Set.of("replica-1", "replica-2"), Duration.ZERO);
		Widget draining = widget("b", "replica-2");
		draining.getMetadata().putLabelsItem(LabelsSettle.DRAIN_LABEL, "true");
		assertThat(settle.settled(List.of(widget("a", "replica-1"), draining), 0)).isFalse();
		assertThat(settle.settled(List.of(widget("a", "replica-1"), widget("b", null)), 0)).isFalse();
		assertThat(settle.settled(List.of(widget("a", "replica-1"), widget("b", "replica-3")), 0)).isFalse();
		List<Widget> one = List.of(widget("a", "replica-1"), widget("b", "replica-1"));
		settle.settled(one, 0);
		assertThat(settle.settled(one, 1)).isFalse();
	}

	private static Widget widget(String name, String shard) {
		Widget widget = new Widget();
		V1ObjectMeta metadata = new V1ObjectMeta().name(name).namespace("chaos");
		if (shard != null) {
			metadata.labels(new HashMap<>(Map.of(LabelsSettle.SHARD_LABEL, shard)));
		}
		widget.setMetadata(metadata);
		return widget;
	}

}
