package io.kubeboot.operator.controller;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import io.kubeboot.operator.predicate.EventFilter;
import io.kubeboot.operator.predicate.EventFilters;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.ReconcileTrigger;
import io.kubeboot.operator.tracing.TraceContextAnnotation;
import io.kubeboot.operator.workqueue.WorkQueue;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentStatus;
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

	private final List<ReconcileTrigger> triggers = new CopyOnWriteArrayList<>();

	private final FakeInformer<V1Deployment> deployments = new FakeInformer<>(V1Deployment.class);

	private static final String TRACE = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

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
	void theGateSeesAnUpdateOfTheTraceContextAloneWhichTheFilterDrops() {
		List<String> seen = new CopyOnWriteArrayList<>();
		WorkGate gate = new WorkGate() {

			@Override
			public boolean passes(WorkGate.ObjectEvent event, BooleanSupplier eventFilter) {
				seen.add(event.type() + " " + event.object().getMetadata().getResourceVersion());
				return eventFilter.getAsBoolean();
			}

		};
		new EventSource<>("test", this.informer, (object) -> List.of(Request.of(object)), EventFilters.all(), gate)
			.register(this::send);
		V1ConfigMap before = traced(configMap("a", "1"), TRACE);
		this.informer.add(before);
		this.sent.clear();

		this.informer.update(before,
				traced(configMap("a", "2"), "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01"));

		assertThat(seen).containsExactly("ADD 1", "UPDATE 2");
		assertThat(this.sent).isEmpty();
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

	@Test
	void aCreationSeenOnTheWatchIsCreatedAndOneOfTheInitialListAResync() {
		source().register(this::send);

		this.informer.addFromInitialList(configMap("a", "1"));
		this.informer.add(configMap("b", "1"));

		assertThat(this.triggers).extracting(ReconcileTrigger::kind)
			.containsExactly(ReconcileTrigger.Kind.RESYNC, ReconcileTrigger.Kind.CREATED);
		assertThat(this.triggers).allSatisfy((trigger) -> assertThat(trigger.object()).isNull());
	}

	@Test
	void anUpdateSaysWhetherTheSpecTheMetadataOrTheStatusChanged() {
		deploymentSource().register(this::send);
		V1Deployment first = deployment("1", 1L);
		this.deployments.add(first);
		this.triggers.clear();

		V1Deployment spec = deployment("2", 2L);
		this.deployments.update(first, spec);
		V1Deployment labelled = deployment("3", 2L);
		labelled.getMetadata().putLabelsItem("tier", "web");
		this.deployments.update(spec, labelled);
		V1Deployment status = deployment("4", 2L).status(new V1DeploymentStatus().replicas(3));
		status.getMetadata().putLabelsItem("tier", "web");
		this.deployments.update(labelled, status);
		this.deployments.update(status, status);
		V1Deployment deleting = deployment("5", 2L);
		deleting.getMetadata().putLabelsItem("tier", "web");
		deleting.getMetadata().deletionTimestamp(OffsetDateTime.now());
		this.deployments.update(status, deleting);
		this.deployments.delete(deleting);

		assertThat(this.triggers).extracting(ReconcileTrigger::kind)
			.containsExactly(ReconcileTrigger.Kind.SPEC_CHANGED, ReconcileTrigger.Kind.METADATA_CHANGED,
					ReconcileTrigger.Kind.STATUS_CHANGED, ReconcileTrigger.Kind.RESYNC, ReconcileTrigger.Kind.DELETED,
					ReconcileTrigger.Kind.DELETED);
	}

	@Test
	void aKindWithoutGenerationChangesItsSpecWhenItsMetadataStayed() {
		source().register(this::send);
		V1ConfigMap before = configMap("a", "1");
		this.informer.add(before);
		this.triggers.clear();

		this.informer.update(before, configMap("a", "2").putDataItem("key", "value"));

		assertThat(this.triggers).extracting(ReconcileTrigger::kind)
			.containsExactly(ReconcileTrigger.Kind.SPEC_CHANGED);
	}

	@Test
	void anOwnedObjectsChangeNamesTheObject() {
		new EventSource<>("test", this.informer, (object) -> List.of(Request.of("default", "owner")),
				EventFilters.all(), EventSource.Relation.OWNED, () -> "ConfigMap")
			.register(this::send);

		this.informer.add(configMap("a", "1"));

		assertThat(this.triggers).singleElement().satisfies((trigger) -> {
			assertThat(trigger.kind()).isEqualTo(ReconcileTrigger.Kind.OWNED_OBJECT);
			assertThat(trigger.objectKind()).isEqualTo("ConfigMap");
			assertThat(trigger.object()).isEqualTo(A);
			assertThat(trigger).hasToString("owned_object:ConfigMap/default/a");
		});
	}

	@Test
	void aKindWithoutGenerationWhoseContentAndLabelsChangedChangedItsSpec() {
		source().register(this::send);
		V1ConfigMap before = configMap("a", "1").putDataItem("key", "value");
		this.informer.add(before);
		this.triggers.clear();
		V1ConfigMap labelled = configMap("a", "2").putDataItem("key", "value");
		labelled.getMetadata().putLabelsItem("tier", "web");
		V1ConfigMap both = configMap("a", "3").putDataItem("key", "other");
		both.getMetadata().putLabelsItem("tier", "db");

		this.informer.update(before, labelled);
		this.informer.update(labelled, both);

		assertThat(this.triggers).extracting(ReconcileTrigger::kind)
			.containsExactly(ReconcileTrigger.Kind.METADATA_CHANGED, ReconcileTrigger.Kind.SPEC_CHANGED);
	}

	@Test
	void anOwnedObjectSeenUnchangedIsAResyncNotAChange() {
		EventSource<V1ConfigMap> owned = new EventSource<>("test", this.informer,
				(object) -> List.of(Request.of("default", "owner")), EventFilters.all(), EventSource.Relation.OWNED,
				() -> "ConfigMap");
		owned.register(this::send);
		V1ConfigMap listed = configMap("a", "1");
		this.informer.addFromInitialList(listed);
		this.informer.update(listed, listed);
		this.informer.update(listed, configMap("a", "1"));
		owned.replay(this::send);
		this.informer.update(listed, configMap("a", "2").putDataItem("key", "value"));

		assertThat(this.triggers).extracting(ReconcileTrigger::kind)
			.containsExactly(ReconcileTrigger.Kind.RESYNC, ReconcileTrigger.Kind.RESYNC, ReconcileTrigger.Kind.RESYNC,
					ReconcileTrigger.Kind.RESYNC, ReconcileTrigger.Kind.OWNED_OBJECT);
		assertThat(this.triggers.subList(0, 4)).allSatisfy((trigger) -> assertThat(trigger.object()).isNull());
		assertThat(this.triggers.get(4).object()).isEqualTo(A);
	}

	@Test
	void onlyACreationCarriesTheTraceContextTheObjectWasCreatedWith() {
		source().register(this::send);
		V1ConfigMap created = traced(configMap("a", "1"), TRACE);
		this.informer.add(created);
		V1ConfigMap changed = traced(configMap("a", "2").putDataItem("key", "value"),
				"00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01");
		this.informer.update(created, changed);

		assertThat(this.triggers).extracting(ReconcileTrigger::traceParent).containsExactly(TRACE, null);
	}

	@Test
	void anUpdateOfTheTraceContextAloneIsDropped() {
		source().register(this::send);
		V1ConfigMap before = traced(configMap("a", "1").putDataItem("key", "value"), TRACE);
		this.informer.add(before);
		this.sent.clear();

		this.informer.update(before, traced(configMap("a", "2").putDataItem("key", "value"),
				"00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01"));
		this.informer.update(before, configMap("a", "3").putDataItem("key", "value"));
		this.informer.update(before, traced(configMap("a", "4").putDataItem("key", "other"), TRACE));

		assertThat(this.sent).containsExactly(A);
		assertThat(this.triggers).last()
			.extracting(ReconcileTrigger::kind)
			.isEqualTo(ReconcileTrigger.Kind.SPEC_CHANGED);
	}

	private EventSource<V1Deployment> deploymentSource() {
		return new EventSource<>("test", this.deployments, (object) -> List.of(Request.of(object)), EventFilters.all());
	}

	private static V1Deployment deployment(String resourceVersion, long generation) {
		return new V1Deployment().metadata(new V1ObjectMeta().namespace("default")
			.name("web")
			.resourceVersion(resourceVersion)
			.generation(generation));
	}

	private static V1ConfigMap traced(V1ConfigMap configMap, String traceParent) {
		configMap.getMetadata().setAnnotations(Map.of(TraceContextAnnotation.NAME, traceParent));
		return configMap;
	}

	private void send(Request request, int priority, ReconcileTrigger trigger) {
		this.sent.add(request);
		this.priorities.add(priority);
		this.triggers.add(trigger);
	}

	private static V1ConfigMap configMap(String name, String resourceVersion) {
		return new V1ConfigMap()
			.metadata(new V1ObjectMeta().namespace("default").name(name).resourceVersion(resourceVersion));
	}

}
