package io.kubeboot.operator.controller;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubeboot.operator.predicate.EventFilter;
import io.kubeboot.operator.predicate.EventFilters;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.sharding.ShardRing;
import io.kubeboot.operator.sharding.internal.LabelShare;
import io.kubeboot.operator.workqueue.WorkQueue;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link EventSource}.
 */
class EventSourceTests {

	private static final Request A = Request.of("default", "a");

	private final FakeInformer<V1ConfigMap> informer = new FakeInformer<>(V1ConfigMap.class);

	private final List<Request> sent = new CopyOnWriteArrayList<>();

	private final List<Integer> priorities = new CopyOnWriteArrayList<>();

	@Test
	void updateOfAnObjectThatMapsToOneRequestSendsItOnce() {
		EventSource<V1ConfigMap> source = new EventSource<>("test", this.informer,
				(object) -> List.of(Request.of(object)), EventFilters.all());
		source.register(this::send);
		V1ConfigMap before = configMap("a", "1");
		this.informer.add(before);
		this.sent.clear();

		this.informer.update(before, configMap("a", "2"));

		// sent twice, a worker that takes the first before the second arrives reconciles
		// the object twice
		assertThat(this.sent).containsExactly(A);
	}

	@Test
	void updateThatMovesAnObjectToAnotherRequestSendsBothOnce() {
		EventSource<V1ConfigMap> source = new EventSource<>("test", this.informer,
				(object) -> List.of(Request.of("default", object.getData().get("owner"))), EventFilters.all());
		source.register(this::send);
		V1ConfigMap before = configMap("a", "1").putDataItem("owner", "first");
		this.informer.add(before);
		this.sent.clear();

		this.informer.update(before, configMap("a", "2").putDataItem("owner", "second"));

		assertThat(this.sent).containsExactly(Request.of("default", "first"), Request.of("default", "second"));
	}

	@Test
	void addsOfAnInitialListAreLowPriorityAndOtherAddsDefault() {
		source().register(this::send);

		this.informer.addFromInitialList(configMap("a", "1"));
		this.informer.add(configMap("b", "1"));

		assertThat(this.sent).containsExactly(A, Request.of("default", "b"));
		assertThat(this.priorities).containsExactly(WorkQueue.LOW_PRIORITY, WorkQueue.DEFAULT_PRIORITY);
	}

	@Test
	void updatesThatLeaveTheResourceVersionAsItWasAreLowPriority() {
		source().register(this::send);
		V1ConfigMap cached = configMap("a", "1");
		this.informer.add(cached);
		this.priorities.clear();

		this.informer.update(cached, cached); // a resync
		this.informer.update(cached, configMap("a", "1")); // a relist that found it
															// unchanged
		this.informer.update(cached, configMap("a", "2")); // a change

		assertThat(this.priorities).containsExactly(WorkQueue.LOW_PRIORITY, WorkQueue.LOW_PRIORITY,
				WorkQueue.DEFAULT_PRIORITY);
	}

	@Test
	void deletesAreDefaultPriority() {
		source().register(this::send);
		V1ConfigMap cached = configMap("a", "1");
		this.informer.addFromInitialList(cached);
		this.priorities.clear();

		this.informer.delete(cached);

		assertThat(this.priorities).containsExactly(WorkQueue.DEFAULT_PRIORITY);
	}

	@Test
	void replayingTheCachedObjectsIsLowPriority() {
		EventSource<V1ConfigMap> source = source();
		this.informer.add(configMap("a", "1"));
		this.informer.add(configMap("b", "1"));

		source.replay(this::send);

		assertThat(this.sent).containsExactly(A, Request.of("default", "b"));
		assertThat(this.priorities).containsOnly(WorkQueue.LOW_PRIORITY);
	}

	@Test
	void theDeletionOfAnObjectBackAsThisReplicasAfterAGiveBackIsNoMove() {
		LabelShare share = new LabelShare("widgets", "pod-a", () -> "t1");
		new EventSource<>("test", this.informer, (object) -> List.of(Request.of(object)), EventFilters.all(), share)
			.register(this::send);
		V1ConfigMap draining = labelled("7", true);
		this.informer.add(draining);
		share.released(Controller.shareKey(A), draining);
		// given back, and moved back while the watch was down: a relist finds it
		// this replica's again without its leaving
		V1ConfigMap back = labelled("9", false);
		this.informer.update(draining, back);
		this.sent.clear();

		this.informer.delete(back);

		assertThat(this.sent).containsExactly(A);
	}

	@Test
	void aDeletionTheEventFilterDropsLeavesNoTombstone() {
		LabelShare share = new LabelShare("widgets", "pod-a", () -> "t1");
		new EventSource<>("test", this.informer, (object) -> List.of(Request.of(object)),
				new EventFilter<V1ConfigMap>() {

					@Override
					public boolean delete(V1ConfigMap object) {
						return false;
					}

				}, share)
			.register(this::send);
		V1ConfigMap own = labelled("1", false);
		this.informer.add(own);
		this.sent.clear();

		this.informer.delete(own);

		assertThat(this.sent).isEmpty();
		assertThat(share.takeTombstone(Controller.shareKey(A))).isNull();
	}

	private EventSource<V1ConfigMap> source() {
		return new EventSource<>("test", this.informer, (object) -> List.of(Request.of(object)), EventFilters.all());
	}

	private void send(Request request, int priority) {
		this.sent.add(request);
		this.priorities.add(priority);
	}

	/**
	 * Object a labelled for replica pod-a of ring widgets in its term t1.
	 */
	private static V1ConfigMap labelled(String resourceVersion, boolean draining) {
		Map<String, String> labels = new HashMap<>(Map.of(ShardRing.shardLabel("widgets"), "pod-a"));
		if (draining) {
			labels.put(ShardRing.drainLabel("widgets"), "true");
		}
		V1ConfigMap object = configMap("a", resourceVersion);
		object.getMetadata().labels(labels).annotations(Map.of(ShardRing.termAnnotation("widgets"), "t1"));
		return object;
	}

	private static V1ConfigMap configMap(String name, String resourceVersion) {
		return new V1ConfigMap()
			.metadata(new V1ObjectMeta().namespace("default").name(name).resourceVersion(resourceVersion));
	}

}
