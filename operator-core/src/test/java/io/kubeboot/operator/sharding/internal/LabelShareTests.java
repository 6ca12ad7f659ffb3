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

	private static final String TERM = "term.sharding.kubeboot.io/widgets";

	private volatile String term = "t1";

	private final LabelShare share = new LabelShare("widgets", "pod-a", () -> this.term);

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
	void onlyObjectsOfTheCurrentTermAreOwn() {
		V1ConfigMap ofT1 = object("1", SHARD, "pod-a");
		assertThat(this.share.mayReconcile("k", ofT1)).isTrue();
		// this replica counted as gone and took its Lease again in a new term: what it
		// was assigned before may have moved, whatever its cache still says
		this.term = "t2";
		assertThat(this.share.isMine(ofT1)).isFalse();
		assertThat(this.share.mayReconcile("k", ofT1)).isFalse();
		assertThat(this.share.isDraining(object("1", SHARD, "pod-a", DRAIN, "true"))).isFalse();
		assertThat(this.share.left("k", ofT1, false)).as("not deleted while its own").isFalse();
		V1ConfigMap stamped = withTerm(object("2", SHARD, "pod-a"), "t2");
		assertThat(this.share.mayReconcile("k", stamped)).isTrue();
		assertThat(this.share.gained(ofT1, stamped)).as("passes the event filters").isTrue();
		assertThat(this.share.gained(stamped, withTerm(object("3", SHARD, "pod-a"), "t2"))).isFalse();
		assertThat(this.share.mayReconcile("k", withTerm(object("2", SHARD, "pod-a"), null))).isFalse();
	}

	@Test
	void nothingIsOwnBeforeTheLeaseWasHeld() {
		this.term = null;
		assertThat(this.share.mayReconcile("k", withTerm(object("1", SHARD, "pod-a"), null))).isFalse();
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
	void aGiveBackThatFoundTheObjectGoneReconcilesItsDeletionWhicheverCameFirst() {
		V1ConfigMap draining = object("7", SHARD, "pod-a", DRAIN, "true");
		// the watch told of the deletion before the 404 answered, and took it for the
		// give-back's move
		this.share.released("first", draining);
		assertThat(this.share.left("first", draining, false)).isFalse();
		assertThat(this.share.goneBeforeGivenBack("first")).as("queued again").isTrue();
		assertThat(this.share.takeTombstone("first")).isFalse();
		// the 404 answered first: the watch then finds it this replica's
		this.share.released("second", draining);
		assertThat(this.share.goneBeforeGivenBack("second")).isFalse();
		assertThat(this.share.left("second", draining, false)).as("deleted while its own").isTrue();
		assertThat(this.share.takeTombstone("second")).isFalse();
	}

	@Test
	void anObjectCachedAgainAsThisReplicasIsNoLongerTheCopyOfOneGivenBack() {
		V1ConfigMap draining = object("7", SHARD, "pod-a", DRAIN, "true");
		this.share.released("k", draining);
		// the give-back in flight: neither the drained copy nor a change of it clears it
		this.share.cached("k", draining);
		this.share.cached("k", object("8", SHARD, "pod-a", DRAIN, "true"));
		this.share.cached("k", object("8", SHARD, "pod-b"));
		assertThat(this.share.left("k", draining, false)).as("the move").isFalse();
		// given back, then moved back while the watch was down: a relist shows it
		// without its leaving
		this.share.released("k", draining);
		this.share.cached("k", object("9", SHARD, "pod-a"));
		assertThat(this.share.left("k", object("10", SHARD, "pod-a"), false)).as("deleted while its own").isTrue();
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
	void givingBackTestsTheOwnLabelAndTermAndRemovesBothLabels() {
		assertThat(this.share.releasePatch(object("1", SHARD, "pod-a", DRAIN, "true")))
			.isEqualTo("[{\"op\":\"test\",\"path\":\"/metadata/labels/"
					+ "shard.sharding.kubeboot.io~1widgets\",\"value\":\"pod-a\"},{\"op\":\"test\",\"path\":"
					+ "\"/metadata/annotations/term.sharding.kubeboot.io~1widgets\",\"value\":\"t1\"},"
					+ "{\"op\":\"remove\",\"path\":"
					+ "\"/metadata/labels/shard.sharding.kubeboot.io~1widgets\"},{\"op\":\"remove\",\"path\":"
					+ "\"/metadata/labels/drain.sharding.kubeboot.io~1widgets\"}]");
	}

	private static V1ConfigMap object(String resourceVersion, String... labels) {
		Map<String, String> map = new HashMap<>();
		for (int i = 0; i < labels.length; i += 2) {
			map.put(labels[i], labels[i + 1]);
		}
		// stamped with the term t1, the replica's at the start of each test
		return new V1ConfigMap().metadata(new V1ObjectMeta().name("o")
			.resourceVersion(resourceVersion)
			.labels(map)
			.annotations(new HashMap<>(Map.of(TERM, "t1"))));
	}

	private static V1ConfigMap withTerm(V1ConfigMap object, String term) {
		object.getMetadata().getAnnotations().remove(TERM);
		if (term != null) {
			object.getMetadata().getAnnotations().put(TERM, term);
		}
		return object;
	}

}
