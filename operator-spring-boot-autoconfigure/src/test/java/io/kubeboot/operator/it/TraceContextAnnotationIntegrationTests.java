package io.kubeboot.operator.it;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.client.Patch;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubeboot.operator.tracing.OperatorTracing;
import io.kubeboot.operator.tracing.TraceContextAnnotation;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The trace context annotation against a real kube-apiserver, written by clients whose
 * every call has a fresh trace context: a create carries it, and no other write does, so
 * a write that changes nothing stays one (no new resourceVersion) and two field managers
 * applying one object never conflict over it.
 */
@WithControlPlane
class TraceContextAnnotationIntegrationTests {

	@RegisterExtension
	private final TestResources resources = new TestResources();

	@Test
	void writesThatChangeNothingStayNoOpsForEveryWriteShape(ApiClient admin, TestNamespace namespace) throws Exception {
		String ns = namespace.name();
		Manager manager = this.resources.manager(annotating(admin, ns, "tracing-tests"));
		Controller.builder(manager, V1ConfigMap.class).complete((request) -> Result.done());
		manager.start();
		Client client = manager.client();

		V1ConfigMap created = client.create(
				new V1ConfigMap().metadata(new V1ObjectMeta().namespace(ns).name("a")).data(Map.of("key", "value")));
		assertThat(created.getMetadata().getAnnotations()).containsKey(TraceContextAnnotation.NAME);
		String version = created.getMetadata().getResourceVersion();
		// the object as the cache lists it
		await().until(() -> client.list(V1ConfigMap.class, ns)
			.stream()
			.anyMatch((listed) -> version.equals(listed.getMetadata().getResourceVersion())));
		V1ConfigMap listed = client.list(V1ConfigMap.class, ns).get(0);

		assertThat(client.update(listed).getMetadata().getResourceVersion()).isEqualTo(version);
		assertThat(client.patch(listed, Patch.merge(Map.of("data", Map.of("key", "value"))))
			.getMetadata()
			.getResourceVersion()).isEqualTo(version);
		assertThat(client.patch(listed, Patch.strategicMerge(Map.of("data", Map.of("key", "value"))))
			.getMetadata()
			.getResourceVersion()).isEqualTo(version);
		assertThat(client
			.createOrPatch(new V1ConfigMap().metadata(new V1ObjectMeta().namespace(ns).name("a")),
					(configMap) -> configMap.putDataItem("key", "value"))
			.object()
			.getMetadata()
			.getResourceVersion()).isEqualTo(version);

		// an apply whose lists the API server defaults (ports' protocol, containers' pull
		// policy), twice: the second changes nothing
		String applied = client.apply(deployment(ns)).getMetadata().getResourceVersion();
		assertThat(client.apply(deployment(ns)).getMetadata().getResourceVersion()).isEqualTo(applied);
		assertThat(new CoreV1Api(admin).readNamespacedConfigMap("a", ns).execute().getMetadata().getResourceVersion())
			.isEqualTo(version);
	}

	@Test
	void twoFieldManagersApplyingOneObjectNeverConflictOverIt(ApiClient admin, TestNamespace namespace)
			throws Exception {
		String ns = namespace.name();
		Client first = this.resources.manager(annotating(admin, ns, "first")).client();
		Client second = this.resources.manager(annotating(admin, ns, "second")).client();

		first.create(new V1ConfigMap().metadata(new V1ObjectMeta().namespace(ns).name("shared"))
			.data(Map.of("created", "yes")));
		for (int i = 0; i < 3; i++) {
			first.apply(new V1ConfigMap().metadata(new V1ObjectMeta().namespace(ns).name("shared"))
				.data(Map.of("first", Integer.toString(i))));
			second.apply(new V1ConfigMap().metadata(new V1ObjectMeta().namespace(ns).name("shared"))
				.data(Map.of("second", Integer.toString(i))));
		}

		V1ConfigMap shared = new CoreV1Api(admin).readNamespacedConfigMap("shared", ns).execute();
		assertThat(shared.getData()).containsEntry("first", "2").containsEntry("second", "2");
		// the create's, never replaced by an apply
		assertThat(shared.getMetadata().getAnnotations()).containsEntry(TraceContextAnnotation.NAME,
				"00-0af7651916cd43dd8448eb211c80319c-0000000000000001-01");
	}

	/**
	 * A manager whose client writes the trace context annotation, with a fresh span id
	 * for every call, as a tracer gives.
	 */
	private static Manager annotating(ApiClient admin, String namespace, String fieldManager) {
		AtomicInteger calls = new AtomicInteger();
		OperatorTracing tracing = new OperatorTracing() {

			@Override
			public ClientSpan clientCall(String verb, String kind, @Nullable String subresource,
					@Nullable String objectNamespace, @Nullable String name) {
				String traceParent = "00-0af7651916cd43dd8448eb211c80319c-%016x-01".formatted(calls.incrementAndGet());
				return new ClientSpan() {

					@Override
					public Scope openScope() {
						return Scope.NOOP;
					}

					@Override
					public String traceParent() {
						return traceParent;
					}

					@Override
					public void end(int statusCode, @Nullable Throwable error) {
					}

				};
			}

		};
		return Manager.builder(admin)
			.namespace(namespace)
			.fieldManager(fieldManager)
			.streamingLists(false)
			.tracing(tracing)
			.traceContextAnnotation(true)
			.build();
	}

	private static V1Deployment deployment(String namespace) {
		Map<String, String> labels = Map.of("app", "web");
		return new V1Deployment().metadata(new V1ObjectMeta().namespace(namespace).name("web"))
			.spec(new V1DeploymentSpec().replicas(1)
				.selector(new V1LabelSelector().matchLabels(labels))
				.template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(labels))
					.spec(new V1PodSpec().containers(List.of(new V1Container().name("web")
						.image("nginx:1.27")
						.ports(List.of(new V1ContainerPort().containerPort(80))))))));
	}

}
