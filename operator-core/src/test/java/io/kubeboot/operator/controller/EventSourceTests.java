package io.kubeboot.operator.controller;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import io.kubeboot.operator.predicate.EventFilter;
import io.kubeboot.operator.predicate.EventFilters;
import io.kubeboot.operator.reconcile.Request;
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
	void theGateSeesEveryEventOfTheReconciledKindAndHasTheLastWord() {
		List<WorkGate.ObjectEvent.Type> seen = new CopyOnWriteArrayList<>();
		WorkGate gate = new WorkGate() {

			@Override
			public boolean passes(WorkGate.ObjectEvent event, BooleanSupplier eventFilter) {
				seen.add(event.type());
				// updates pass whatever the filter says, deletions never
				return switch (event.type()) {
					case ADD -> eventFilter.getAsBoolean();
					case UPDATE -> true;
					case DELETE -> false;
				};
			}

		};
		new EventSource<>("test", this.informer, (object) -> List.of(Request.of(object)),
				new EventFilter<V1ConfigMap>() {

					@Override
					public boolean update(V1ConfigMap oldObject, V1ConfigMap newObject) {
						return false;
					}

				}, gate)
			.register(this::send);
		V1ConfigMap before = configMap("a", "1");
		V1ConfigMap after = configMap("a", "2");

		this.informer.add(before);
		this.informer.update(before, after);
		this.informer.delete(after);

		assertThat(seen).containsExactly(WorkGate.ObjectEvent.Type.ADD, WorkGate.ObjectEvent.Type.UPDATE,
				WorkGate.ObjectEvent.Type.DELETE);
		assertThat(this.sent).containsExactly(A, A);
	}

	private EventSource<V1ConfigMap> source() {
		return new EventSource<>("test", this.informer, (object) -> List.of(Request.of(object)), EventFilters.all());
	}

	private void send(Request request, int priority) {
		this.sent.add(request);
		this.priorities.add(priority);
	}

	private static V1ConfigMap configMap(String name, String resourceVersion) {
		return new V1ConfigMap()
			.metadata(new V1ObjectMeta().namespace("default").name(name).resourceVersion(resourceVersion));
	}

}
