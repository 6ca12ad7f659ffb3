package io.kubeboot.operator.sharding.internal;

import java.util.HashMap;
import java.util.Map;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LabelShareTests {

	private static final String SHARD = "shard.sharding.kubeboot.io/widgets";

	private static final String DRAIN = "drain.sharding.kubeboot.io/widgets";

	private final LabelShare share = new LabelShare("widgets", "pod-a");

	@Test
	void theCacheSelectsTheControllersSelectorAndTheOwnShardLabel() {
		assertThat(this.share.selector(null)).isEqualTo(SHARD + "=pod-a");
		assertThat(this.share.selector("app=shop")).isEqualTo("app=shop," + SHARD + "=pod-a");
	}

	@Test
	void onlyOwnObjectsThatAreNotDrainedMayBeReconciled() {
		assertThat(this.share.mayReconcile("k", object("1", SHARD, "pod-a"))).isTrue();
		assertThat(this.share.mayReconcile("k", object("1", SHARD, "pod-b"))).isFalse();
		assertThat(this.share.mayReconcile("k", object("1", SHARD, "pod-a", DRAIN, "true"))).isFalse();
	}

	@Test
	void aDrainRequestIsNoticedOnceWhenTheDrainLabelArrives() {
		V1ConfigMap before = object("1", SHARD, "pod-a");
		V1ConfigMap after = object("2", SHARD, "pod-a", DRAIN, "true");
		assertThat(this.share.drainRequested(before, after)).isTrue();
		assertThat(this.share.drainRequested(after, object("3", SHARD, "pod-a", DRAIN, "true"))).isFalse();
	}

	@Test
	void aCopyOfAnObjectGivenBackIsNeverReconciledAndItsDisappearanceIsNoDeletion() {
		V1ConfigMap draining = object("7", SHARD, "pod-a", DRAIN, "true");
		this.share.released("k", draining);
		// the cache may still hold the object as it was before the drain label came
		assertThat(this.share.mayReconcile("k", object("7", SHARD, "pod-a"))).isFalse();
		assertThat(this.share.left("k", object("8"), false)).isFalse();
		assertThat(this.share.takeTombstone("k")).isNull();
		// moved back later: a newer version, reconciled again
		assertThat(this.share.mayReconcile("k", object("9", SHARD, "pod-a"))).isTrue();
	}

	@Test
	void theWatchTellingOfTheGiveBackBeforeTheWriteReturnedIsNoDeletion() {
		// the API server's watch tells that an object left a selector with its content
		// before the change: still labelled as this replica's
		this.share.released("k", object("7", SHARD, "pod-a", DRAIN, "true"));
		assertThat(this.share.left("k", object("8", SHARD, "pod-a", DRAIN, "true"), false)).isFalse();
		assertThat(this.share.takeTombstone("k")).isNull();
	}

	@Test
	void anObjectKeptAfterAFailedGiveBackIsThisReplicasAgain() {
		V1ConfigMap draining = object("7", SHARD, "pod-a", DRAIN, "true");
		this.share.released("k", draining);
		this.share.kept("k");
		assertThat(this.share.left("k", draining, false)).as("deleted while its own").isTrue();
		assertThat(this.share.takeTombstone("k")).isFalse();
	}

	@Test
	void anObjectThatMovedAwayIsNoDeletionButOneDeletedWhileOwnIs() {
		assertThat(this.share.left("moved", object("5", SHARD, "pod-b"), false)).isFalse();
		assertThat(this.share.takeTombstone("moved")).isNull();
		assertThat(this.share.left("deleted", object("5", SHARD, "pod-a"), false)).isTrue();
		assertThat(this.share.takeTombstone("deleted")).isFalse();
		assertThat(this.share.takeTombstone("deleted")).as("taken once").isNull();
		assertThat(this.share.left("relisted", object("5", SHARD, "pod-a"), true)).isTrue();
		assertThat(this.share.takeTombstone("relisted")).as("only inferred: checked before it counts").isTrue();
	}

	@Test
	void givingBackTestsTheOwnLabelAndRemovesBoth() {
		assertThat(this.share.releasePatch()).isEqualTo("[{\"op\":\"test\",\"path\":\"/metadata/labels/"
				+ "shard.sharding.kubeboot.io~1widgets\",\"value\":\"pod-a\"},{\"op\":\"remove\",\"path\":"
				+ "\"/metadata/labels/shard.sharding.kubeboot.io~1widgets\"},{\"op\":\"remove\",\"path\":"
				+ "\"/metadata/labels/drain.sharding.kubeboot.io~1widgets\"}]");
	}

	private static V1ConfigMap object(String resourceVersion, String... labels) {
		Map<String, String> map = new HashMap<>();
		for (int i = 0; i < labels.length; i += 2) {
			map.put(labels[i], labels[i + 1]);
		}
		return new V1ConfigMap().metadata(new V1ObjectMeta().name("o").resourceVersion(resourceVersion).labels(map));
	}

}
