package io.kubeboot.operator.autoconfigure.observation;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.client.Patch;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.controller.Enqueuer;
import io.kubeboot.operator.it.Widget;
import io.kubeboot.operator.it.Widgets;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.reconcile.ReconcileContext;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.reconcile.ReconcileTrigger;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubeboot.operator.tracing.TraceContextAnnotation;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.support.GenericApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Operators built with the starter and {@code spring-boot-starter-opentelemetry}, their
 * spans exported to OpenTelemetry's in-memory exporter, against a real kube-apiserver: a
 * reconcile is a span whose client calls are its children and which records its triggers;
 * a reconcile triggered by another operator's write continues that operator's trace
 * through the trace context annotation, which never triggers a reconcile by itself. No
 * code of the operator's sets the tracing up: the auto-configuration finds the
 * OpenTelemetry bridge.
 */
@WithControlPlane
class OperatorObservationIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private final List<ConfigurableApplicationContext> contexts = new CopyOnWriteArrayList<>();

	@AfterEach
	void close() {
		this.contexts.forEach(ConfigurableApplicationContext::close);
	}

	@Test
	void aReconcileThatWritesAStatusIsASpanWithTheWriteAsItsChildAndItsTrigger(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		ApiClient admin = controlPlane.adminClient();
		Widgets.install(admin);
		ConfigurableApplicationContext context = start(StatusWriterApplication.class, admin, namespace);
		InMemorySpanExporter tracer = context.getBean(InMemorySpanExporter.class);
		StatusWriter reconciler = context.getBean(StatusWriter.class);

		Widgets.api(admin)
			.create(new Widget().metadata(new V1ObjectMeta().name("traced").namespace(namespace.name()))
				.spec(Map.of("size", "large")))
			.throwsApiException();
		await().atMost(WAIT).until(() -> !reconciler.triggers.isEmpty() && reconcileSpans(tracer).size() == 1);

		SpanData reconcile = reconcileSpans(tracer).get(0);
		assertThat(reconcile.getName()).isEqualTo("reconcile widget");
		assertThat(reconcile.getParentSpanContext().isValid()).isFalse();
		assertThat(keys(reconcile)).containsEntry("controller", "widget")
			.containsEntry("result", "success")
			.containsEntry("namespace", namespace.name())
			.containsEntry("name", "traced")
			.containsEntry("reconcile.triggers", "created")
			.containsEntry("reconcile.triggers.dropped", "0")
			.containsKey("reconcile.queued")
			.containsEntry("reconcile.id", reconciler.reconcileIds.get(0));
		assertThat(reconciler.triggers.get(0)).extracting(ReconcileTrigger::kind)
			.containsExactly(ReconcileTrigger.Kind.CREATED);
		List<SpanData> children = tracer.getFinishedSpanItems()
			.stream()
			.filter((span) -> reconcile.getSpanId().equals(span.getParentSpanId()))
			.toList();
		assertThat(children).singleElement().satisfies((write) -> {
			assertThat(write.getName()).isEqualTo("patch Widget/status");
			assertThat(write.getTraceId()).isEqualTo(reconcile.getTraceId());
			assertThat(keys(write)).containsEntry("verb", "patch")
				.containsEntry("kind", "Widget")
				.containsEntry("subresource", "status")
				.containsEntry("status.code", "200")
				.containsEntry("name", "traced");
		});
		// its own status write came back on the watch and was filtered: once a request
		// queued after it was reconciled, still one reconcile of the object
		assertThat(Widgets.api(admin).get(namespace.name(), "traced").throwsApiException().getObject().getStatus())
			.containsEntry("observed", true);
		context.getBean(Enqueuer.class).enqueue("widget", Request.of(namespace.name(), "marker"));
		await().atMost(WAIT)
			.until(() -> reconcileSpans(tracer).stream().anyMatch((span) -> "marker".equals(keys(span).get("name"))));
		assertThat(reconcileSpans(tracer)).filteredOn((span) -> "traced".equals(keys(span).get("name"))).hasSize(1);
	}

	@Test
	void twoOperatorsGiveOneTraceThroughTheAnnotationWhichNeverTriggersAReconcileByItself(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		ApiClient admin = controlPlane.adminClient();
		Widgets.install(admin);
		ConfigurableApplicationContext first = start(WidgetMakerApplication.class, admin, namespace,
				"--operator.tracing.annotate-objects=true");
		ConfigurableApplicationContext second = start(TraceFollowerApplication.class, admin, namespace);
		InMemorySpanExporter firstTracer = first.getBean(InMemorySpanExporter.class);
		InMemorySpanExporter secondTracer = second.getBean(InMemorySpanExporter.class);
		TraceFollower secondReconciler = second.getBean(TraceFollower.class);

		new CoreV1Api(admin)
			.createNamespacedConfigMap(namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name("order").labels(Map.of("tracing-test", "true"))))
			.execute();
		// each operator exports its spans on its own schedule: the second's reconcile may
		// be exported before the first's ends
		await().atMost(WAIT)
			.until(() -> !reconcileSpans(secondTracer).isEmpty() && !reconcileSpans(firstTracer).isEmpty());

		SpanData firstReconcile = reconcileSpans(firstTracer).get(0);
		SpanData create = firstTracer.getFinishedSpanItems()
			.stream()
			.filter((span) -> "create Widget".equals(span.getName()))
			.findFirst()
			.orElseThrow();
		SpanData secondReconcile = reconcileSpans(secondTracer).get(0);
		assertThat(create.getParentSpanId()).isEqualTo(firstReconcile.getSpanId());
		assertThat(secondReconcile.getTraceId()).as("one trace across the two operators")
			.isEqualTo(firstReconcile.getTraceId());
		assertThat(secondReconcile.getParentSpanId()).isEqualTo(create.getSpanId());
		assertThat(secondReconcile.getParentSpanContext().isRemote()).isTrue();
		assertThat(keys(secondReconcile)).containsEntry("reconcile.triggers", "created");
		assertThat(secondReconciler.triggers.get(0)).singleElement()
			.satisfies((trigger) -> assertThat(trigger.traceParent()).contains(create.getTraceId()));
		GenericKubernetesApi<Widget, ?> widgets = Widgets.api(admin);
		Widget made = widgets.get(namespace.name(), "order").throwsApiException().getObject();
		assertThat(made.getMetadata().getAnnotations()).containsEntry(TraceContextAnnotation.NAME,
				"00-" + create.getTraceId() + "-" + create.getSpanId() + "-"
						+ create.getSpanContext().getTraceFlags().asHex());

		// a traced patch that changes nothing else leaves the object as it is: no write
		Client firstClient = first.getBean(Client.class);
		await().atMost(WAIT)
			.until(() -> firstClient.get(Widget.class, Request.of(namespace.name(), "order"))
				.map((cached) -> cached.getMetadata().getResourceVersion())
				.equals(Optional.of(made.getMetadata().getResourceVersion())));
		Widget again = firstClient.patch(made, Patch.merge(Map.of("spec", Map.of("size", "large"))));
		assertThat(again.getMetadata().getResourceVersion()).isEqualTo(made.getMetadata().getResourceVersion());
		await().atMost(WAIT)
			.until(() -> firstTracer.getFinishedSpanItems()
				.stream()
				.anyMatch((span) -> "patch Widget".equals(span.getName())));
		// a write of the annotation alone, then a change: only the change is reconciled,
		// though this reconciler's event filter passes every change
		String other = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
		Widget current = widgets.get(namespace.name(), "order").throwsApiException().getObject();
		current.getMetadata().putAnnotationsItem(TraceContextAnnotation.NAME, other);
		widgets.update(current).throwsApiException();
		current = widgets.get(namespace.name(), "order").throwsApiException().getObject();
		widgets.update(current.spec(Map.of("size", "small"))).throwsApiException();
		await().atMost(WAIT)
			.until(() -> secondReconciler.triggers.stream()
				.flatMap(List::stream)
				.anyMatch((trigger) -> trigger.kind() == ReconcileTrigger.Kind.SPEC_CHANGED));
		assertThat(secondReconciler.triggers).flatMap((triggers) -> triggers)
			.noneMatch((trigger) -> trigger.kind() == ReconcileTrigger.Kind.METADATA_CHANGED
					|| other.equals(trigger.traceParent()));
	}

	private ConfigurableApplicationContext start(Class<?> application, ApiClient admin, TestNamespace namespace,
			String... arguments) {
		// tracing on (off in the module's other tests), every trace sampled, spans
		// exported at once
		String[] common = { "--spring.main.web-application-type=none", "--spring.main.banner-mode=off",
				"--spring.application.name=" + application.getSimpleName().toLowerCase(),
				"--operator.namespace=" + namespace, "--management.tracing.export.enabled=true",
				"--management.tracing.sampling.probability=1.0",
				"--management.opentelemetry.tracing.export.schedule-delay=20ms" };
		String[] all = new String[common.length + arguments.length];
		System.arraycopy(common, 0, all, 0, common.length);
		System.arraycopy(arguments, 0, all, common.length, arguments.length);
		ConfigurableApplicationContext context = new SpringApplicationBuilder(application)
			.initializers((initialized) -> ((GenericApplicationContext) initialized).registerBean("kubernetesApiClient",
					ApiClient.class, () -> admin))
			.run(all);
		this.contexts.add(context);
		awaitRunning(context);
		return context;
	}

	private static void awaitRunning(ConfigurableApplicationContext context) {
		Manager manager = context.getBean(Manager.class);
		await().atMost(WAIT)
			.until(() -> !Controller.of(manager).isEmpty()
					&& Controller.of(manager).stream().allMatch(Controller::isRunning));
	}

	/**
	 * The reconcile spans exported so far, in the order they ended.
	 */
	private static List<SpanData> reconcileSpans(InMemorySpanExporter exporter) {
		return exporter.getFinishedSpanItems()
			.stream()
			.filter((span) -> span.getName().startsWith("reconcile "))
			.toList();
	}

	/**
	 * A span's attributes as strings, by key.
	 */
	private static Map<String, String> keys(SpanData span) {
		Map<String, String> keys = new HashMap<>();
		span.getAttributes().forEach((key, value) -> keys.put(key.getKey(), String.valueOf(value)));
		return keys;
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class StatusWriterApplication {

		@Bean
		InMemorySpanExporter spanExporter() {
			return InMemorySpanExporter.create();
		}

		@Bean
		StatusWriter statusWriter(Client client) {
			return new StatusWriter(client);
		}

	}

	/**
	 * Reconciles widgets: records why, and writes {@code status.observed}.
	 */
	@Reconciles(Widget.class)
	static class StatusWriter {

		final List<List<ReconcileTrigger>> triggers = new CopyOnWriteArrayList<>();

		final List<String> reconcileIds = new CopyOnWriteArrayList<>();

		private final Client client;

		StatusWriter(Client client) {
			this.client = client;
		}

		Result reconcile(Request request, ReconcileContext context) {
			this.triggers.add(context.triggers());
			this.reconcileIds.add(context.reconcileId());
			this.client.get(Widget.class, request)
				.ifPresent((widget) -> this.client.status()
					.patch(widget, Patch.merge(Map.of("status", Map.of("observed", true)))));
			return Result.done();
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class WidgetMakerApplication {

		@Bean
		InMemorySpanExporter spanExporter() {
			return InMemorySpanExporter.create();
		}

		@Bean
		WidgetMaker widgetMaker(Client client) {
			return new WidgetMaker(client);
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TraceFollowerApplication {

		@Bean
		InMemorySpanExporter spanExporter() {
			return InMemorySpanExporter.create();
		}

		@Bean
		TraceFollower traceFollower() {
			return new TraceFollower();
		}

	}

	/**
	 * Reconciles widgets on every change, and records why: the second operator of the
	 * chain.
	 */
	@Reconciles(value = Widget.class, eventFilters = {})
	static class TraceFollower {

		final List<List<ReconcileTrigger>> triggers = new CopyOnWriteArrayList<>();

		Result reconcile(Request request) {
			this.triggers.add(ReconcileContext.current().orElseThrow().triggers());
			return Result.done();
		}

	}

	/**
	 * Makes a widget of every labelled ConfigMap: the first operator of the chain. It
	 * caches widgets (as their owner kind), so that its client can tell a write that
	 * changes nothing.
	 */
	@Reconciles(value = V1ConfigMap.class, labelSelector = "tracing-test=true", owns = Widget.class)
	static class WidgetMaker {

		private final Client client;

		WidgetMaker(Client client) {
			this.client = client;
		}

		Result reconcile(Request request) {
			if (this.client.get(V1ConfigMap.class, request).isPresent()) {
				this.client.createOrPatch(widgetFor(request.namespace(), request.name()), (widget) -> {
				});
			}
			return Result.done();
		}

		static Widget widgetFor(String namespace, String name) {
			return new Widget().metadata(new V1ObjectMeta().namespace(namespace).name(name))
				.spec(Map.of("size", "large"));
		}

	}

}
