package io.kubeboot.operator.sharding.internal;

import java.util.HashMap;
import java.util.Map;

import io.kubeboot.operator.controller.WorkGate.ObjectEvent;
import io.kubeboot.operator.controller.WorkGate.ObjectEvent.Type;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.sharding.ShardRing;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for how {@link LabelGate} lets the events of the reconciled kind through.
 */
class LabelGateTests {

	private static final Request A = Request.of("default", "a");

	private final LabelShare share = new LabelShare("widgets", "pod-a", () -> "t1");

	@Test
	void theDeletionOfAnObjectBackAsThisReplicasAfterAGiveBackIsNoMove() {
		V1ConfigMap draining = labelled("7", true);
		pass(new ObjectEvent(Type.ADD, null, draining, false), true);
		this.share.released(LabelGate.shareKey(A), draining);
		// given back, and moved back while the watch was down: a relist finds it
		// this replica's again without its leaving
		V1ConfigMap back = labelled("9", false);
		pass(new ObjectEvent(Type.UPDATE, draining, back, false), true);

		assertThat(pass(new ObjectEvent(Type.DELETE, null, back, false), true)).isTrue();
	}

	@Test
	void aDeletionTheEventFilterDropsLeavesNoTombstone() {
		V1ConfigMap own = labelled("1", false);
		pass(new ObjectEvent(Type.ADD, null, own, false), true);

		assertThat(pass(new ObjectEvent(Type.DELETE, null, own, false), false)).isFalse();
		assertThat(this.share.takeTombstone(LabelGate.shareKey(A))).isNull();
	}

	@Test
	void aDrainRequestPassesWhateverTheEventFilterSays() {
		V1ConfigMap own = labelled("1", false);
		pass(new ObjectEvent(Type.ADD, null, own, false), true);

		assertThat(pass(new ObjectEvent(Type.UPDATE, own, labelled("2", true), false), false)).isTrue();
	}

	@Test
	void anObjectThatMovedToAnotherReplicaIsNoDeletion() {
		V1ConfigMap own = labelled("1", false);
		pass(new ObjectEvent(Type.ADD, null, own, false), true);
		V1ConfigMap moved = configMap("2");
		moved.getMetadata().labels(Map.of(ShardRing.shardLabel("widgets"), "pod-b"));

		assertThat(pass(new ObjectEvent(Type.DELETE, null, moved, false), true)).isFalse();
	}

	private boolean pass(ObjectEvent event, boolean eventFilter) {
		return LabelGate.passes(this.share, event, () -> eventFilter);
	}

	/**
	 * Object a labelled for replica pod-a of ring widgets in its term t1.
	 */
	private static V1ConfigMap labelled(String resourceVersion, boolean draining) {
		Map<String, String> labels = new HashMap<>(Map.of(ShardRing.shardLabel("widgets"), "pod-a"));
		if (draining) {
			labels.put(ShardRing.drainLabel("widgets"), "true");
		}
		V1ConfigMap object = configMap(resourceVersion);
		object.getMetadata().labels(labels).annotations(Map.of(ShardRing.termAnnotation("widgets"), "t1"));
		return object;
	}

	private static V1ConfigMap configMap(String resourceVersion) {
		return new V1ConfigMap()
			.metadata(new V1ObjectMeta().namespace("default").name("a").resourceVersion(resourceVersion));
	}

}
