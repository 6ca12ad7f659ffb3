package io.kubeboot.operator.it;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.annotation.Watches;
import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.cache.ObjectBudgets;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerBuilder;
import io.kubeboot.operator.micrometer.OperatorMetrics;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Secret;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.support.GenericApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the caches cost, against a real kube-apiserver: the objects an informer holds and
 * the estimate of their heap follow creates and deletes in the metrics; an informer of
 * every Secret of the cluster is warned of once at start-up, naming the controller that
 * asked for it, and narrower informers are not; an informer past its object budget logs
 * one WARN per crossing and counts it, and keeps every object; {@code /actuator/operator}
 * shows the same figures as {@code /actuator/prometheus}.
 */
@WithControlPlane
class CacheCostIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final String UNSCOPED_WARNING = "io.kubeboot.operator.cache.internal.UnscopedInformerWarning";

	private static final String COST_TRACKER = "io.kubeboot.operator.cache.internal.CostTracker";

	@RegisterExtension
	private final TestResources resources = new TestResources();

	@RegisterExtension
	private final CapturedLogs logs = new CapturedLogs("io.kubeboot.operator.cache");

	@Test
	void theObjectsAndTheirEstimatedHeapFollowCreatesAndDeletes(ApiClient admin, TestNamespace namespace)
			throws Exception {
		String ns = namespace.name();
		MeterRegistry registry = new SimpleMeterRegistry();
		Manager manager = manager(Manager.builder(admin).namespace(ns), registry);
		manager.cache().informer(V1Secret.class, ns, null);
		manager.start();
		Client client = manager.client();
		assertThat(objects(registry, ns)).isZero();
		assertThat(heap(registry, ns)).isZero();

		for (int i = 0; i < 5; i++) {
			client.create(secret(ns, "small-" + i, 4_000));
		}
		// the data's arrays, and at most a few kilobytes of metadata and store each
		await().atMost(WAIT).untilAsserted(() -> assertThat(objects(registry, ns)).isEqualTo(5));
		await().atMost(WAIT).untilAsserted(() -> assertThat(heap(registry, ns)).isBetween(5 * 4_000.0, 5 * 8_000.0));
		for (int i = 0; i < 5; i++) {
			client.create(secret(ns, "large-" + i, 40_000));
		}
		await().atMost(WAIT).untilAsserted(() -> {
			assertThat(objects(registry, ns)).isEqualTo(10);
			assertThat(heap(registry, ns)).isBetween(5 * 44_000.0, 5 * 48_000.0);
		});
		for (int i = 0; i < 5; i++) {
			client.delete(secret(ns, "small-" + i, 0));
		}
		await().atMost(WAIT).untilAsserted(() -> {
			assertThat(objects(registry, ns)).isEqualTo(5);
			assertThat(heap(registry, ns)).isBetween(5 * 40_000.0, 5 * 44_000.0);
		});
		for (int i = 0; i < 5; i++) {
			client.delete(secret(ns, "large-" + i, 0));
		}
		await().atMost(WAIT).untilAsserted(() -> {
			assertThat(objects(registry, ns)).isZero();
			assertThat(heap(registry, ns)).isZero();
		});
	}

	@Test
	void anInformerOfEverySecretIsWarnedOfOnceNamingItsControllerAndNarrowerOnesAreNot(ApiClient admin,
			TestNamespace namespace) throws Exception {
		String ns = namespace.name();
		Manager manager = this.resources.manager(Manager.builder(admin).build());
		// the controller's own ConfigMaps are selected; the Secrets it watches are not,
		// in every namespace: the classic memory hog
		Controller.builder(manager, V1ConfigMap.class)
			.labelSelector("cost-test=true")
			.watches(V1Secret.class, (secret) -> List.of())
			.watchesMetadataOnly(V1Pod.class, (pod) -> List.of())
			.complete((request) -> Result.done());
		Cache cache = manager.cache();
		cache.informer(V1Secret.class, ns, null);
		cache.informer(V1Secret.class, null, "cost-test=true");
		cache.informer(V1Pod.class, null, null, "spec.nodeName=node-1");
		manager.start();
		assertThat(warnings()).singleElement()
			.satisfies((message) -> assertThat(message).contains("informer=V1Secret[namespace=*] kind=Secret (core/v1) "
					+ "readBy=[controller-configmap] narrowWith=\"where the informer is declared, a namespace "
					+ "(ManagerBuilder.namespace, ControllerBuilder.namespace), a label selector, a field selector such "
					+ "as type!=helm.sh/release.v1"));

		// registered while running: warned of as it starts, once, however often it
		// stops and starts again
		Informer<V1ConfigMap> everyConfigMap = cache.informer(V1ConfigMap.class, null, null);
		cache.release(everyConfigMap);
		cache.informer(V1ConfigMap.class, null, null);
		await().atMost(WAIT).until(everyConfigMap::hasSynced);
		assertThat(warnings()).hasSize(2)
			.last()
			.satisfies((message) -> assertThat(message)
				.contains("informer=V1ConfigMap[namespace=*] kind=ConfigMap (core/v1) readBy=[]"));
	}

	@Test
	void anInformerPastItsBudgetIsReportedOncePerCrossingAndKeepsEveryObject(ApiClient admin, TestNamespace namespace)
			throws Exception {
		String ns = namespace.name();
		MeterRegistry registry = new SimpleMeterRegistry();
		Manager manager = manager(
				Manager.builder(admin).namespace(ns).objectBudgets(new ObjectBudgets(0, Map.of("ConfigMap", 3))),
				registry);
		Informer<V1ConfigMap> informer = manager.cache().informer(V1ConfigMap.class, ns, null);
		manager.start();
		Client client = manager.client();
		// the control plane's kube-root-ca.crt ConfigMap may be there already: go past 3
		// on objects of the test's own
		for (int i = 0; i < 5; i++) {
			client.create(configMap(ns, "cm-" + i));
		}
		await().atMost(WAIT).untilAsserted(() -> assertThat(informer.cost().objects()).isGreaterThanOrEqualTo(5));
		assertThat(budgetWarnings()).singleElement()
			.satisfies((message) -> assertThat(message).startsWith("Informer holds more objects than its budget, "
					+ "and keeps them all: informer=V1ConfigMap[namespace=" + ns + "] objects=4 budget=3"));
		assertThat(exceeded(registry, ns)).isOne();
		assertThat(informer.cost().overBudget()).isTrue();
		assertThat(manager.cache().list(V1ConfigMap.class, ns)).hasSizeGreaterThanOrEqualTo(5);

		// back to two at most, then past the budget again: another crossing
		List<V1ConfigMap> cached = manager.cache().list(V1ConfigMap.class, ns);
		for (V1ConfigMap configMap : cached.subList(0, cached.size() - 2)) {
			client.delete(configMap);
		}
		await().atMost(WAIT)
			.until(() -> informer.cost().objects() == 2 && this.logs.events()
				.stream()
				.anyMatch((event) -> event.getFormattedMessage()
					.startsWith("Informer is back within its object budget")));
		for (int i = 5; i < 7; i++) {
			client.create(configMap(ns, "cm-" + i));
		}
		await().atMost(WAIT).untilAsserted(() -> assertThat(exceeded(registry, ns)).isEqualTo(2));
		assertThat(budgetWarnings()).hasSize(2);
		assertThat(informer.cost().budgetCrossings()).isEqualTo(2);
	}

	@Test
	@ExtendWith(OutputCaptureExtension.class)
	void aSpringApplicationIsToldTheAttributeThatDeclaredTheInformerAndNotWarnedOfAnAcknowledgedKind(ApiClient admin,
			CapturedOutput output) throws Exception {
		// Spring Boot's logging takes over the loggers as the application starts: read
		// its output
		this.resources.closeable(new SpringApplicationBuilder(WatchingApplication.class)
			.initializers((initialized) -> ((GenericApplicationContext) initialized).registerBean("kubernetesApiClient",
					ApiClient.class, () -> admin))
			.run("--server.port=0", "--spring.main.banner-mode=off", "--operator.leader-election.enabled=false",
					"--operator.cache.acknowledged-unscoped-kinds=Pod"));
		assertThat(output.getOut().lines())
			.filteredOn((line) -> line.contains("Informer caches every object of a kind that is often numerous"))
			.singleElement()
			.satisfies((line) -> assertThat(line).contains(" WARN ")
				.endsWith("informer=V1Secret[namespace=*] kind=Secret (core/v1) readBy=[controller-watching] "
						+ "narrowWith=\"@Watches(V1Secret.class) on WatchingReconciler.ofSecret: set its fieldSelector = "
						+ "\"type!=helm.sh/release.v1\", labelSelector or namespace, or metadataOnly = true; or a "
						+ "CacheTransform bean dropping what no reconciler reads; if intended, set "
						+ "operator.cache.acknowledged-unscoped-kinds=Secret\""));
	}

	@Test
	void theOperatorEndpointShowsTheFiguresOfTheMetrics(ApiClient admin, TestNamespace namespace) throws Exception {
		String ns = namespace.name();
		ConfigurableApplicationContext context = this.resources
			.closeable(new SpringApplicationBuilder(CostApplication.class)
				.initializers((initialized) -> ((GenericApplicationContext) initialized)
					.registerBean("kubernetesApiClient", ApiClient.class, () -> admin))
				.run("--server.port=0", "--spring.main.banner-mode=off",
						"--management.endpoints.web.exposure.include=operator,prometheus", "--operator.namespace=" + ns,
						"--operator.cache.object-budgets.ConfigMap=2"));
		int port = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
		Client client = context.getBean(Client.class);
		for (int i = 0; i < 3; i++) {
			client.create(configMap(ns, "endpoint-" + i).putDataItem("payload", "x".repeat(10_000)));
		}
		await().atMost(WAIT).untilAsserted(() -> {
			JsonObject cache = configMapCache(get(port, "/actuator/operator"));
			assertThat(cache.get("objects").getAsInt()).isGreaterThanOrEqualTo(3);
			assertThat(cache.get("estimatedBytes").getAsLong()).isGreaterThan(3 * 10_000);
		});
		JsonObject cache = configMapCache(get(port, "/actuator/operator"));
		String labels = "{cluster=\"\",field_selector=\"\",kind=\"ConfigMap\",metadata_only=\"false\",namespace=\"" + ns
				+ "\",selector=\"\"}";
		String scrape = get(port, "/actuator/prometheus");
		// the estimate is kept between passes: both read the same figures
		assertThat(value(scrape, "operator_informer_objects" + labels)).isEqualTo(cache.get("objects").getAsDouble());
		assertThat(value(scrape, "operator_informer_estimated_heap_bytes" + labels))
			.isEqualTo(cache.get("estimatedBytes").getAsDouble());
		assertThat(cache.get("objectBudget").getAsInt()).isEqualTo(2);
		assertThat(value(scrape, "operator_informer_object_budget" + labels)).isEqualTo(2.0);
		assertThat(cache.get("overBudget").getAsBoolean()).isTrue();
		assertThat(cache.get("budgetCrossings").getAsLong()).isOne();
		assertThat(value(scrape, "operator_informer_object_budget_exceeded_total" + labels)).isEqualTo(1.0);
	}

	private Manager manager(ManagerBuilder builder, MeterRegistry registry) {
		OperatorMetrics metrics = new OperatorMetrics(registry);
		Manager manager = this.resources.manager(metrics.applyTo(builder).build());
		metrics.bindTo(manager);
		return manager;
	}

	private List<String> warnings() {
		return this.logs.events()
			.stream()
			.filter((event) -> event.getLoggerName().equals(UNSCOPED_WARNING) && event.getLevel() == Level.WARN)
			.map(ILoggingEvent::getFormattedMessage)
			.toList();
	}

	private List<String> budgetWarnings() {
		return this.logs.events()
			.stream()
			.filter((event) -> event.getLoggerName().equals(COST_TRACKER) && event.getLevel() == Level.WARN)
			.map(ILoggingEvent::getFormattedMessage)
			.toList();
	}

	private static double objects(MeterRegistry registry, String namespace) {
		return gauge(registry, "operator.informer.objects", "Secret", namespace).value();
	}

	private static double heap(MeterRegistry registry, String namespace) {
		return gauge(registry, "operator.informer.estimated.heap", "Secret", namespace).value();
	}

	private static double exceeded(MeterRegistry registry, String namespace) {
		return registry.get("operator.informer.object.budget.exceeded")
			.tag("kind", "ConfigMap")
			.tag("namespace", namespace)
			.functionCounter()
			.count();
	}

	private static Gauge gauge(MeterRegistry registry, String name, String kind, String namespace) {
		return registry.get(name).tag("kind", kind).tag("namespace", namespace).gauge();
	}

	private static JsonObject configMapCache(String body) {
		JsonArray caches = JsonParser.parseString(body).getAsJsonObject().getAsJsonArray("caches");
		for (JsonElement cache : caches) {
			if (cache.getAsJsonObject().get("kind").getAsString().equals("V1ConfigMap")) {
				return cache.getAsJsonObject();
			}
		}
		throw new AssertionError("No cache of ConfigMaps in " + body);
	}

	private static String get(int port, String path) throws Exception {
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
					HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(path).isEqualTo(200);
		return response.body();
	}

	private static double value(String scrape, String series) {
		Matcher matcher = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(scrape);
		if (!matcher.find()) {
			throw new AssertionError("No series " + series + " in:\n" + scrape);
		}
		return Double.parseDouble(matcher.group(1));
	}

	private static V1Secret secret(String namespace, String name, int bytes) {
		return new V1Secret().metadata(new V1ObjectMeta().namespace(namespace).name(name))
			.data(Map.of("payload", new byte[bytes]));
	}

	private static V1ConfigMap configMap(String namespace, String name) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().namespace(namespace).name(name));
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class CostApplication {

		@Bean
		ConfigMapReconciler configMapReconciler() {
			return new ConfigMapReconciler();
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class WatchingApplication {

		@Bean
		WatchingReconciler watchingReconciler() {
			return new WatchingReconciler();
		}

	}

	/**
	 * Reconciles labelled ConfigMaps, watching every Secret and every Pod of the cluster.
	 */
	@Reconciles(value = V1ConfigMap.class, name = "watching", labelSelector = "cost-test=watching")
	static class WatchingReconciler {

		Result reconcile(Request request) {
			return Result.done();
		}

		@Watches(V1Secret.class)
		List<Request> ofSecret(V1Secret secret) {
			return List.of();
		}

		@Watches(V1Pod.class)
		List<Request> ofPod(V1Pod pod) {
			return List.of();
		}

	}

	@Reconciles(V1ConfigMap.class)
	static class ConfigMapReconciler {

		Result reconcile(Request request) {
			return Result.done();
		}

	}

}
