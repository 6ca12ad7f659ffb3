package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.annotation.Watches;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.predicate.EventFilter;
import io.kubeboot.operator.predicate.EventFilters;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.support.GenericApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Event filters against a real kube-apiserver: the reconciled kind's default filter drops
 * status-only and metadata-only updates (the reconciler's own status writes coming back
 * on the watch) and passes spec changes and deletions; {@code @Reconciles(eventFilters)}
 * and {@code @Watches(eventFilters)} replace it, and a filter that throws lets the event
 * pass.
 */
@WithControlPlane
class EventFilterIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	@RegisterExtension
	private final TestResources resources = new TestResources();

	@Test
	void statusOnlyAndLabelUpdatesAreNotReconciledWhileSpecChangesAndDeletionsAre(ApiClient admin,
			TestNamespace namespace) throws Exception {
		Widgets.install(admin);
		Manager manager = this.resources.manager(Manager.builder(admin).namespace(namespace.name()).build());
		List<String> filtered = new CopyOnWriteArrayList<>();
		Set<String> witnessed = ConcurrentHashMap.newKeySet();
		Controller.builder(manager, Widget.class).complete((request) -> {
			filtered.add(manager.cache()
				.get(Widget.class, request)
				.map((widget) -> String.valueOf(widget.getSpec()))
				.orElse("deleted"));
			return Result.done();
		});
		// the witness sees every change of the same informer, so once it has seen one,
		// the filtered controller has been offered it too
		Controller.builder(manager, Widget.class)
			.named("witness")
			.withEventFilter(EventFilters.all())
			.complete((request) -> {
				manager.cache()
					.get(Widget.class, request)
					.ifPresentOrElse((widget) -> witnessed.add(widget.getMetadata().getResourceVersion()),
							() -> witnessed.add("deleted"));
				return Result.done();
			});
		manager.start();
		GenericKubernetesApi<Widget, ?> widgets = Widgets.api(admin);
		Widget created = widgets
			.create(new Widget().metadata(new V1ObjectMeta().name("w1").namespace(namespace.name()))
				.spec(Map.of("size", "large")))
			.throwsApiException()
			.getObject();
		await().atMost(WAIT).untilAsserted(() -> assertThat(filtered).containsExactly("{size=large}"));

		writeStatus(admin, created.status(Map.of("phase", "Ready")));
		Widget statusWritten = widgets.get(namespace.name(), "w1").throwsApiException().getObject();
		assertThat(statusWritten.getStatus()).isEqualTo(Map.of("phase", "Ready"));
		Widget labelled = widgets.update(statusWritten.metadata(statusWritten.getMetadata().putLabelsItem("team", "a")))
			.throwsApiException()
			.getObject();
		await().atMost(WAIT).until(() -> witnessed.contains(labelled.getMetadata().getResourceVersion()));
		await().during(Duration.ofMillis(500))
			.atMost(WAIT)
			.untilAsserted(() -> assertThat(filtered).containsExactly("{size=large}"));

		widgets.update(labelled.spec(Map.of("size", "small"))).throwsApiException();
		await().atMost(WAIT).untilAsserted(() -> assertThat(filtered).containsExactly("{size=large}", "{size=small}"));
		widgets.delete(namespace.name(), "w1").throwsApiException();
		await().atMost(WAIT)
			.untilAsserted(() -> assertThat(filtered).containsExactly("{size=large}", "{size=small}", "deleted"));
	}

	@Test
	void allPredicateReconcilesStatusOnlyUpdates(ApiClient admin, TestNamespace namespace) throws Exception {
		Widgets.install(admin);
		Manager manager = this.resources.manager(Manager.builder(admin).namespace(namespace.name()).build());
		List<Object> statuses = new CopyOnWriteArrayList<>();
		Controller.builder(manager, Widget.class).withEventFilter(EventFilters.all()).complete((request) -> {
			manager.cache().get(Widget.class, request).ifPresent((widget) -> statuses.add(widget.getStatus()));
			return Result.done();
		});
		manager.start();
		GenericKubernetesApi<Widget, ?> widgets = Widgets.api(admin);
		Widget created = widgets
			.create(new Widget().metadata(new V1ObjectMeta().name("w2").namespace(namespace.name()))
				.spec(Map.of("size", "large")))
			.throwsApiException()
			.getObject();
		await().atMost(WAIT).until(() -> !statuses.isEmpty());
		writeStatus(admin, created.status(Map.of("phase", "Ready")));
		await().atMost(WAIT).until(() -> statuses.contains(Map.of("phase", "Ready")));
		assertThat(statuses).hasSizeGreaterThanOrEqualTo(2);
	}

	@Test
	void annotationEventFiltersDecideWhatReconcilesAndAFilterThatThrowsLetsTheEventPass(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		ApiClient admin = controlPlane.adminClient();
		Widgets.install(admin);
		String ns = namespace.name();
		ConfigurableApplicationContext application = new SpringApplicationBuilder(FilterApplication.class)
			.initializers((context) -> ((GenericApplicationContext) context).registerBean("kubernetesApiClient",
					ApiClient.class, () -> admin))
			.run("--spring.main.web-application-type=none", "--spring.main.banner-mode=off",
					"--operator.namespace=" + ns);
		this.resources.closeable(application);
		// after the start, which configures logging afresh
		Logger eventLogger = (Logger) LoggerFactory.getLogger("io.kubeboot.operator.controller");
		ListAppender<ILoggingEvent> logs = new ListAppender<>();
		logs.start();
		eventLogger.addAppender(logs);
		try {
			TeamReconciler reconciler = application.getBean(TeamReconciler.class);
			GenericKubernetesApi<Widget, ?> widgets = Widgets.api(admin);
			CoreV1Api core = new CoreV1Api(admin);

			// the reconciled kind: only team a passes the filter bean
			Widget teamB = widgets.create(widget(ns, "team-b", "b")).throwsApiException().getObject();
			widgets.create(widget(ns, "team-a", "a")).throwsApiException();
			await().atMost(WAIT).until(() -> reconciler.reconciled.contains("team-a"));
			await().during(Duration.ofSeconds(1))
				.atMost(WAIT)
				.untilAsserted(() -> assertThat(reconciler.reconciled).doesNotContain("team-b"));
			// a label-only update passes the filter given instead of the default
			// GenerationChangedPredicate
			widgets.update(teamB.metadata(teamB.getMetadata().putLabelsItem("team", "a"))).throwsApiException();
			await().atMost(WAIT).until(() -> reconciler.reconciled.contains("team-b"));
			// the filter throws: logged, and the event passes
			widgets.create(widget(ns, "team-boom", "boom")).throwsApiException();
			await().atMost(WAIT).until(() -> reconciler.reconciled.contains("team-boom"));

			// the watched kind: its filter (created by Spring, not a bean) passes
			// watched=yes
			core.createNamespacedConfigMap(ns, watched(ns, "quiet", "no")).execute();
			core.createNamespacedConfigMap(ns, watched(ns, "loud", "yes")).execute();
			await().atMost(WAIT).until(() -> reconciler.reconciled.contains("from-loud"));
			await().during(Duration.ofSeconds(1))
				.atMost(WAIT)
				.untilAsserted(() -> assertThat(reconciler.reconciled).doesNotContain("from-quiet"));
			core.createNamespacedConfigMap(ns, watched(ns, "broken", "boom")).execute();
			await().atMost(WAIT).until(() -> reconciler.reconciled.contains("from-broken"));

			List<ILoggingEvent> failures;
			synchronized (logs) {
				failures = new ArrayList<>(logs.list);
			}
			failures.removeIf((event) -> !event.getFormattedMessage().startsWith("Event filter failed, event passes"));
			assertThat(failures).hasSize(2).allSatisfy((event) -> {
				assertThat(event.getLevel()).isEqualTo(Level.ERROR);
				assertThat(event.getThrowableProxy().getMessage()).startsWith("cannot decide");
			});
			assertThat(failures).anySatisfy((event) -> assertThat(event.getFormattedMessage()).contains("team-boom"));
			assertThat(failures).anySatisfy((event) -> assertThat(event.getFormattedMessage()).contains("broken"));
		}
		finally {
			eventLogger.detachAppender(logs);
		}
	}

	private static Widget widget(String namespace, String name, String team) {
		return new Widget().metadata(new V1ObjectMeta().name(name).namespace(namespace).putLabelsItem("team", team))
			.spec(Map.of("size", "large"));
	}

	private static V1ConfigMap watched(String namespace, String name, String watched) {
		return new V1ConfigMap()
			.metadata(new V1ObjectMeta().name(name).namespace(namespace).putLabelsItem("watched", watched));
	}

	private static void writeStatus(ApiClient admin, Widget widget) throws ApiException {
		new CustomObjectsApi(admin)
			.replaceNamespacedCustomObjectStatus("test.kubeboot.io", "v1", widget.getMetadata().getNamespace(),
					"widgets", widget.getMetadata().getName(), widget)
			.execute();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class FilterApplication {

		@Bean
		TeamReconciler teamReconciler() {
			return new TeamReconciler();
		}

		@Bean
		TeamAOnly teamAOnly() {
			return new TeamAOnly();
		}

	}

	@Reconciles(value = Widget.class, eventFilters = TeamAOnly.class)
	static class TeamReconciler {

		final Set<String> reconciled = ConcurrentHashMap.newKeySet();

		Result reconcile(Request request) {
			this.reconciled.add(request.name());
			return Result.done();
		}

		@Watches(value = V1ConfigMap.class, eventFilters = WatchedOnly.class)
		Request configMap(V1ConfigMap configMap) {
			return Request.of(configMap.getMetadata().getNamespace(), "from-" + configMap.getMetadata().getName());
		}

	}

	/**
	 * Passes objects whose label {@code key} is {@code yes}, and throws for {@code boom}.
	 */
	abstract static class LabelFilter implements EventFilter<KubernetesObject> {

		private final String key;

		private final String value;

		LabelFilter(String key, String value) {
			this.key = key;
			this.value = value;
		}

		@Override
		public boolean create(KubernetesObject object) {
			return passes(object);
		}

		@Override
		public boolean update(KubernetesObject oldObject, KubernetesObject newObject) {
			return passes(newObject);
		}

		private boolean passes(KubernetesObject object) {
			Map<String, String> labels = object.getMetadata().getLabels();
			String label = (labels != null) ? labels.get(this.key) : null;
			if ("boom".equals(label)) {
				throw new IllegalStateException("cannot decide " + object.getMetadata().getName());
			}
			return this.value.equals(label);
		}

	}

	static class TeamAOnly extends LabelFilter {

		TeamAOnly() {
			super("team", "a");
		}

	}

	static class WatchedOnly extends LabelFilter {

		WatchedOnly() {
			super("watched", "yes");
		}

	}

}
