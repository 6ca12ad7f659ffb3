package io.kubeboot.operator.micrometer;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubeboot.operator.reconcile.ReconcileContext;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.ReconcileTrigger;
import io.kubeboot.operator.tracing.OperatorTracing;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.transport.SenderContext;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ObservationTracing}.
 */
class ObservationTracingTests {

	private static final String TRACE = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

	private final ObservationRegistry registry = ObservationRegistry.create();

	private final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();

	private final List<String> events = new CopyOnWriteArrayList<>();

	@Test
	void aRegistryWithoutHandlersIsNoop() {
		assertThat(new ObservationTracing(ObservationRegistry.NOOP).isNoop()).isTrue();
		assertThat(new ObservationTracing(this.registry).isNoop()).isTrue();
		record();
		assertThat(new ObservationTracing(this.registry).isNoop()).isFalse();
	}

	@Test
	void aReconcileIsObservedWithItsKeysItsTriggersAndItsResult() {
		record();
		ReconcileContext reconcile = ReconcileContext.of("bucket", Request.of("default", "b1"),
				List.of(ReconcileTrigger.of(ReconcileTrigger.Kind.SPEC_CHANGED),
						ReconcileTrigger.of(ReconcileTrigger.Kind.OWNED_OBJECT, "ConfigMap",
								Request.of("default", "settings"), TRACE)),
				2, Set.of(ReconcileTrigger.Kind.OWNED_OBJECT), Duration.ofMillis(1500));
		OperatorTracing.ReconcileSpan span = new ObservationTracing(this.registry).reconcile(reconcile);
		span.end("requeue_after", null);

		assertThat(this.stopped).singleElement().satisfies((context) -> {
			assertThat(context.getName()).isEqualTo("operator.reconcile");
			assertThat(context.getContextualName()).isEqualTo("reconcile bucket");
			assertThat(keys(context)).containsEntry("controller", "bucket")
				.containsEntry("result", "requeue_after")
				.containsEntry("namespace", "default")
				.containsEntry("name", "b1")
				.containsEntry("reconcile.id", reconcile.reconcileId())
				.containsEntry("reconcile.triggers", "spec_changed,owned_object:ConfigMap/default/settings")
				.containsEntry("reconcile.triggers.dropped", "2")
				.containsEntry("reconcile.queued", "1.500000");
			// an owned object's creation gives no parent
			assertThat(((ReconcileObservationContext) context).getCarrier()).isEmpty();
			assertThat(context.getLowCardinalityKeyValues().stream().map(KeyValue::getKey))
				.containsExactlyInAnyOrder("controller", "result");
		});
	}

	@Test
	void aReconcileContinuesOnlyTheTraceOfTheCreateThatMadeItsObject() {
		record();
		ObservationTracing tracing = new ObservationTracing(this.registry);
		String created = "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01";
		ReconcileTrigger ownedCreated = ReconcileTrigger.of(ReconcileTrigger.Kind.CREATED, "ConfigMap",
				Request.of("default", "settings"), TRACE);
		ReconcileTrigger watchedCreated = ReconcileTrigger.of(ReconcileTrigger.Kind.WATCHED_OBJECT, "Secret",
				Request.of("default", "key"), TRACE);

		tracing
			.reconcile(ReconcileContext.of("bucket", Request.of("default", "b1"),
					List.of(ownedCreated, watchedCreated, ReconcileTrigger.of(ReconcileTrigger.Kind.SPEC_CHANGED))))
			.end("success", null);
		tracing
			.reconcile(ReconcileContext.of("bucket", Request.of("default", "b1"),
					List.of(ownedCreated, ReconcileTrigger.of(ReconcileTrigger.Kind.CREATED, null, null, created))))
			.end("success", null);

		assertThat(this.stopped).hasSize(2);
		assertThat(((ReconcileObservationContext) this.stopped.get(0)).getCarrier()).isEmpty();
		assertThat(((ReconcileObservationContext) this.stopped.get(1)).getCarrier()).containsEntry("traceparent",
				created);
	}

	@Test
	void aClientCallInsideAReconcileIsItsChildAndHandsOnTheTraceContextATracerWrote() {
		record();
		ObservationTracing tracing = new ObservationTracing(this.registry);
		OperatorTracing.ReconcileSpan reconcile = tracing.reconcile(ReconcileContext.of("bucket",
				Request.of("default", "b1"), List.of(ReconcileTrigger.of(ReconcileTrigger.Kind.CREATED))));
		String traceParent;
		try (OperatorTracing.Scope scope = reconcile.openScope()) {
			OperatorTracing.ClientSpan call = tracing.clientCall("patch", "StorageBucket", "status", "default", "b1");
			traceParent = call.traceParent();
			call.end(200, null);
		}
		reconcile.end("success", null);

		assertThat(traceParent).isEqualTo(TRACE);
		assertThat(this.stopped).hasSize(2);
		Observation.Context call = this.stopped.get(0);
		assertThat(call.getContextualName()).isEqualTo("patch StorageBucket/status");
		assertThat(keys(call)).containsEntry("verb", "patch")
			.containsEntry("kind", "StorageBucket")
			.containsEntry("subresource", "status")
			.containsEntry("status.code", "200");
		assertThat(call.getParentObservation().getContextView()).isSameAs(this.stopped.get(1));
	}

	@Test
	void aFailedCallRecordsItsErrorAndStatus() {
		record();
		OperatorTracing.ClientSpan call = new ObservationTracing(this.registry).clientCall("get", "ConfigMap", null,
				"default", "missing");
		IllegalStateException failure = new IllegalStateException("404");
		call.end(404, failure);

		assertThat(this.stopped).singleElement().satisfies((context) -> {
			assertThat(context.getError()).isSameAs(failure);
			assertThat(keys(context)).containsEntry("status.code", "404").containsEntry("subresource", "none");
		});
	}

	@Test
	void aWebhookRequestRecordsTheAnswer() {
		record();
		ObservationTracing tracing = new ObservationTracing(this.registry);
		OperatorTracing.WebhookSpan webhook = tracing.webhook("admission", "/validate-bucket",
				(header) -> "traceparent".equals(header) ? TRACE : null);
		webhook.answered("StorageBucket", "CREATE", false);
		webhook.end(200, null);

		assertThat(this.stopped).hasSize(1);
		assertThat(keys(this.stopped.get(0))).containsEntry("webhook", "admission")
			.containsEntry("kind", "StorageBucket")
			.containsEntry("operation", "CREATE")
			.containsEntry("allowed", "false")
			.containsEntry("path", "/validate-bucket");
		assertThat(((WebhookObservationContext) this.stopped.get(0)).getCarrier().apply("traceparent"))
			.isEqualTo(TRACE);
	}

	@Test
	void aLeadershipIsOneObservationFromTheLeaseAcquiredToItsEnd() {
		record();
		ObservationTracing tracing = new ObservationTracing(this.registry);

		tracing.leaderTransition("ops/operator-leader", "pod-1", "acquired");
		assertThat(this.stopped).isEmpty();
		tracing.leaderTransition("ops/operator-leader", "pod-1", "lost");
		tracing.leaderTransition("ops/operator-leader", "pod-1", "acquired");
		tracing.leaderTransition("ops/operator-leader", "pod-1", "stopped");

		assertThat(this.stopped).hasSize(2).allSatisfy((context) -> {
			assertThat(context.getName()).isEqualTo("operator.leader.election");
			assertThat(context.getContextualName()).isEqualTo("leadership");
			assertThat(keys(context)).containsEntry("lease", "ops/operator-leader").containsEntry("identity", "pod-1");
		});
		assertThat(keys(this.stopped.get(0))).containsEntry("transition", "lost");
		assertThat(keys(this.stopped.get(1))).containsEntry("transition", "stopped");
		assertThat(this.events).containsExactly("operator.leader.election acquired", "operator.leader.election lost",
				"operator.leader.election acquired", "operator.leader.election stopped");
	}

	@Test
	void aHandlerThatThrowsCostsTheSpanNotTheWorkItObserves() {
		this.registry.observationConfig().observationHandler(new ObservationHandler<>() {

			@Override
			public void onStart(Observation.Context context) {
				throw new IllegalStateException("broken handler");
			}

			@Override
			public void onStop(Observation.Context context) {
				throw new IllegalStateException("broken handler");
			}

			@Override
			public boolean supportsContext(Observation.Context context) {
				return true;
			}

		});
		ObservationTracing tracing = new ObservationTracing(this.registry);

		OperatorTracing.ReconcileSpan reconcile = tracing
			.reconcile(ReconcileContext.of("bucket", Request.of("default", "b1"), List.of()));
		try (OperatorTracing.Scope scope = reconcile.openScope()) {
			OperatorTracing.ClientSpan call = tracing.clientCall("get", "ConfigMap", null, "default", "a");
			call.traceParent();
			call.end(200, null);
		}
		reconcile.end("success", null);
		OperatorTracing.WebhookSpan webhook = tracing.webhook("admission", "/validate", (header) -> null);
		webhook.openScope().close();
		webhook.end(200, null);
		tracing.leaderTransition("ops/operator-leader", "pod-1", "acquired");
	}

	/**
	 * Records stopped observations, and writes a trace context as a propagating handler.
	 */
	private void record() {
		this.registry.observationConfig().observationHandler(new ObservationHandler<>() {

			@Override
			@SuppressWarnings({ "unchecked", "rawtypes" })
			public void onStart(Observation.Context context) {
				if (context instanceof SenderContext sender) {
					sender.getSetter().set(sender.getCarrier(), "traceparent", TRACE);
				}
			}

			@Override
			public void onEvent(Observation.Event event, Observation.Context context) {
				ObservationTracingTests.this.events.add(context.getName() + " " + event.getName());
			}

			@Override
			public void onStop(Observation.Context context) {
				ObservationTracingTests.this.stopped.add(context);
			}

			@Override
			public boolean supportsContext(Observation.Context context) {
				return true;
			}

		});
	}

	private static Map<String, String> keys(Observation.Context context) {
		Map<String, String> keys = new HashMap<>();
		context.getLowCardinalityKeyValues().forEach((keyValue) -> keys.put(keyValue.getKey(), keyValue.getValue()));
		context.getHighCardinalityKeyValues().forEach((keyValue) -> keys.put(keyValue.getKey(), keyValue.getValue()));
		return keys;
	}

}
