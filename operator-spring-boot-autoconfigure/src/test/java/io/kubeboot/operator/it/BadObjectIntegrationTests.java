package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import ch.qos.logback.classic.spi.ILoggingEvent;
import com.google.gson.JsonParser;
import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerState;
import io.kubeboot.operator.micrometer.OperatorMetrics;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Objects that do not decode into their model class, against a real kube-apiserver: the
 * Widget CRD preserves unknown fields, so it accepts widgets whose {@code spec.replicas}
 * is a string, which {@link TypedWidget} reads as an integer.
 */
@WithControlPlane
class BadObjectIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	@RegisterExtension
	private final TestResources resources = new TestResources();

	@RegisterExtension
	private final CapturedLogs logs = new CapturedLogs("io.kubeboot.operator.cache");

	@Test
	void objectsThatDoNotDecodeAreSkippedWhileEveryOtherObjectKeepsFlowing(ApiClient admin, TestNamespace namespace)
			throws Exception {
		Widgets.install(admin);
		DynamicKubernetesApi widgets = new DynamicKubernetesApi("test.kubeboot.io", "v1", "widgets", admin);
		String ns = namespace.name();
		create(widgets, ns, "good-before", "1");
		create(widgets, ns, "bad-before", "\"many\"");
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		OperatorMetrics metrics = new OperatorMetrics(registry);
		Manager manager = metrics.applyTo(Manager.builder(admin).namespace(ns)).build();
		metrics.bindTo(manager);
		this.resources.manager(manager);
		Map<String, String> reconciled = new ConcurrentHashMap<>();
		Controller.builder(manager, TypedWidget.class).complete((request) -> {
			reconciled.put(request.name(), replicas(manager, request));
			return Result.done();
		});

		// the list: the cache syncs without the widget that does not decode
		manager.start();
		assertThat(manager.state()).isEqualTo(ManagerState.RUNNING);
		Informer<TypedWidget> informer = manager.cache().informer(TypedWidget.class, ns, null);
		assertThat(informer.hasSynced()).isTrue();
		await().atMost(WAIT).until(() -> "1".equals(reconciled.get("good-before")));
		assertThat(names(manager, ns)).containsExactly("good-before");
		assertThat(reconciled).doesNotContainKey("bad-before");
		assertThat(skippedWarnings()).singleElement()
			.asString()
			.startsWith("Object does not decode into its model, skipped: kind=Widget object=" + ns + "/bad-before ")
			.contains("cachedResourceVersion=none")
			.contains("$.spec.replicas");
		assertThat(informer.undecodableObjects()).isEqualTo(1);

		// the watch: the one that does not decode is skipped, the watch goes on
		create(widgets, ns, "bad-after", "\"lots\"");
		create(widgets, ns, "good-after", "2");
		await().atMost(WAIT).until(() -> "2".equals(reconciled.get("good-after")));
		await().atMost(WAIT).until(() -> skippedWarnings().size() == 2);
		assertThat(skippedWarnings().get(1)).contains("object=" + ns + "/bad-after ");
		assertThat(names(manager, ns)).containsExactly("good-after", "good-before");
		assertThat(informer.undecodableObjects()).isEqualTo(2);

		// fixed, it appears
		patch(widgets, ns, "bad-before", "3");
		await().atMost(WAIT).until(() -> "3".equals(reconciled.get("bad-before")));
		assertThat(names(manager, ns)).containsExactly("bad-before", "good-after", "good-before");

		// a cached widget changed so that it no longer decodes stays cached as it last
		// decoded; deleted, it is gone
		String lastDecoded = manager.cache()
			.get(TypedWidget.class, Request.of(ns, "good-after"))
			.orElseThrow()
			.getMetadata()
			.getResourceVersion();
		patch(widgets, ns, "good-after", "\"oops\"");
		await().atMost(WAIT).until(() -> skippedWarnings().size() == 3);
		assertThat(skippedWarnings().get(2)).contains("object=" + ns + "/good-after ")
			.contains("cachedResourceVersion=" + lastDecoded);
		assertThat(replicas(manager, Request.of(ns, "good-after"))).isEqualTo("2");
		// and the informer says that it is an older version than the API server's
		String undecodable = widgets.get(ns, "good-after").getObject().getMetadata().getResourceVersion();
		assertThat(informer.undecodableVersion(ns, "good-after")).hasValue(undecodable);
		assertThat(informer.undecodableVersion(ns, "good-before")).isEmpty();
		assertThat(widgets.delete(ns, "good-after").isSuccess()).isTrue();
		await().atMost(WAIT).until(() -> "deleted".equals(reconciled.get("good-after")));
		assertThat(informer.undecodableVersion(ns, "good-after")).isEmpty();
		assertThat(names(manager, ns)).containsExactly("bad-before", "good-before");

		assertThat(informer.undecodableObjects()).isEqualTo(3);
		assertThat(registry.get("operator.informer.undecodable.objects")
			.tag("kind", "Widget")
			.tag("namespace", ns)
			.tag("selector", "")
			.functionCounter()
			.count()).isEqualTo(3);
		assertThat(informer.lastError()).isNull();
	}

	private List<String> skippedWarnings() {
		return this.logs.events()
			.stream()
			.map(ILoggingEvent::getFormattedMessage)
			.filter((message) -> message.startsWith("Object does not decode into its model"))
			.toList();
	}

	private static String replicas(Manager manager, Request request) {
		return manager.cache()
			.get(TypedWidget.class, request)
			.map((widget) -> String.valueOf(widget.getSpec().getReplicas()))
			.orElse("deleted");
	}

	private static List<String> names(Manager manager, String namespace) {
		return manager.cache()
			.list(TypedWidget.class, namespace)
			.stream()
			.map((widget) -> widget.getMetadata().getName())
			.sorted()
			.toList();
	}

	private static void create(DynamicKubernetesApi widgets, String namespace, String name, String replicas) {
		String json = """
				{"apiVersion": "test.kubeboot.io/v1", "kind": "Widget",
				 "metadata": {"name": "%s", "namespace": "%s"}, "spec": {"replicas": %s}}
				""".formatted(name, namespace, replicas);
		assertThat(
				widgets.create(new DynamicKubernetesObject(JsonParser.parseString(json).getAsJsonObject())).isSuccess())
			.isTrue();
	}

	private static void patch(DynamicKubernetesApi widgets, String namespace, String name, String replicas) {
		assertThat(widgets
			.patch(namespace, name, V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
					new V1Patch("{\"spec\": {\"replicas\": " + replicas + "}}"))
			.isSuccess()).isTrue();
	}

}
