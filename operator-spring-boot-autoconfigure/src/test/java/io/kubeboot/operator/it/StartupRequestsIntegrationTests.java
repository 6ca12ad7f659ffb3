package io.kubeboot.operator.it;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import io.kubeboot.operator.client.Patch;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;
import io.kubeboot.operator.rbac.Permission;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import com.google.gson.JsonParser;
import io.kubernetes.client.Discovery;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import okhttp3.Interceptor;
import okhttp3.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a manager asks a real kube-apiserver on the way to its first write, counted on the
 * wire: its access check is one {@code SelfSubjectRulesReview} of its namespace, not a
 * {@code SelfSubjectAccessReview} per verb; the kind's group-version is discovered once
 * for the cache and the client together, and a kind whose CRD is installed after the
 * start is still found by the client.
 */
@WithControlPlane
class StartupRequestsIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(60);

	private static final String DISCOVERY = "GET /apis/test.kubeboot.io/v1";

	@RegisterExtension
	private final TestResources resources = new TestResources();

	@Test
	void oneRulesReviewAndOneDiscoveryBeforeTheFirstWrite(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		Widgets.install(controlPlane.adminClient());
		Widget created = new Widget().metadata(new V1ObjectMeta().namespace(namespace.name()).name("w1"));
		created.setSpec(Map.of("size", 1));
		Widgets.api(controlPlane.adminClient()).create(created).throwsApiException();
		Requests requests = new Requests();
		Manager manager = this.resources
			.manager(Manager.builder(requests.client(controlPlane.adminClient())).namespace(namespace.name()).build());
		AtomicReference<List<String>> beforeFirstWrite = new AtomicReference<>();
		Controller.builder(manager, Widget.class)
			.requires(Permission.of(Widget.class, "patch").subresource("status").because("writes the status"))
			.complete((request) -> {
				Widget widget = manager.client().get(Widget.class, request).orElse(null);
				if (widget == null) {
					return Result.done();
				}
				beforeFirstWrite.compareAndSet(null, List.copyOf(requests.sent));
				manager.client().status().patch(widget, Patch.merge(Map.of("status", Map.of("seen", true))));
				return Result.done();
			});
		manager.start();
		await().atMost(WAIT)
			.until(() -> requests.sent
				.contains("PATCH /apis/test.kubeboot.io/v1/namespaces/" + namespace.name() + "/widgets/w1/status"));
		assertThat(beforeFirstWrite.get()).filteredOn((request) -> request.contains("selfsubjectaccessreviews"))
			.isEmpty();
		assertThat(beforeFirstWrite.get())
			.filteredOn("POST /apis/authorization.k8s.io/v1/selfsubjectrulesreviews"::equals)
			.hasSize(1);
		// the client's status patch found the kind the cache had discovered
		assertThat(requests.sent).filteredOn(DISCOVERY::equals).hasSize(1);
	}

	@Test
	void aKindOfTheSameGroupInstalledAfterTheStartIsFoundByTheClient(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		Widgets.install(controlPlane.adminClient());
		Manager manager = this.resources
			.manager(Manager.builder(controlPlane.adminClient()).namespace(namespace.name()).build());
		Controller.builder(manager, Widget.class).complete((request) -> Result.done());
		manager.start();
		// the cache discovered test.kubeboot.io/v1 before the Sprocket's CRD existed
		String crd = """
				{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
				 "metadata": {"name": "sprockets.test.kubeboot.io"},
				 "spec": {"group": "test.kubeboot.io", "scope": "Namespaced",
				  "names": {"plural": "sprockets", "singular": "sprocket", "kind": "Sprocket"},
				  "versions": [{"name": "v1", "served": true, "storage": true,
				   "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}]}}
				""";
		KubernetesApiResponse<DynamicKubernetesObject> created = new DynamicKubernetesApi("apiextensions.k8s.io", "v1",
				"customresourcedefinitions", controlPlane.adminClient())
			.create(new DynamicKubernetesObject(JsonParser.parseString(crd).getAsJsonObject()));
		assertThat(created.isSuccess() || created.getHttpStatusCode() == 409).as(String.valueOf(created.getStatus()))
			.isTrue();
		Discovery discovery = new Discovery(controlPlane.adminClient());
		await().atMost(WAIT)
			.until(() -> discovery.resourceDiscovery("/apis/test.kubeboot.io/v1")
				.getResources()
				.stream()
				.anyMatch((resource) -> "sprockets".equals(resource.getName())));
		Sprocket sprocket = new Sprocket();
		sprocket.setMetadata(new V1ObjectMeta().namespace(namespace.name()).name("s1"));
		assertThat(manager.client().create(sprocket).getMetadata().getUid()).isNotEmpty();
	}

	/**
	 * A kind of the Widget's group whose CRD only this test installs.
	 */
	@KubernetesKind(group = "test.kubeboot.io", version = "v1", kind = "Sprocket")
	public static class Sprocket extends CustomResource<Map<String, Object>, Map<String, Object>> {

	}

	/**
	 * Records each request's method and path.
	 */
	static final class Requests implements Interceptor {

		final List<String> sent = new CopyOnWriteArrayList<>();

		ApiClient client(ApiClient client) {
			return client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(this).build());
		}

		@Override
		public Response intercept(Chain chain) throws IOException {
			this.sent.add(chain.request().method() + " " + chain.request().url().encodedPath());
			return chain.proceed(chain.request());
		}

	}

}
