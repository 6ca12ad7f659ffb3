package io.kubeboot.operator.controller;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.client.Reader;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;
import io.kubeboot.operator.predicate.EventFilters;
import io.kubeboot.operator.rbac.Permission;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests that a controller's field selectors reach its informers, its permissions and its
 * finalizer, resolved without the API server.
 */
class FieldSelectorBuilderTests {

	private static final ApiClient UNREACHABLE = new ApiClient().setBasePath("https://127.0.0.1:1");

	private static final String FINALIZER = "test.kubeboot.io/cleanup";

	@Test
	void everyKindsFieldSelectorKeysItsInformer() {
		Manager manager = Manager.builder(UNREACHABLE).namespace("ns").build();
		Controller controller = Controller.builder(manager, V1Pod.class)
			.labelSelector("app=web")
			.fieldSelector(" spec.nodeName=node-1 ")
			.owns(V1Secret.class, "app=web", "type=kubernetes.io/tls", EventFilters.all())
			.ownsMetadataOnly(V1ConfigMap.class, null, "metadata.name=settings", EventFilters.all())
			.watches(V1Service.class, "other", null, "spec.type=ClusterIP", (service) -> List.of(), EventFilters.all())
			.watchesMetadataOnly(V1ServiceAccount.class, null, null, "metadata.name=default", (account) -> List.of(),
					EventFilters.all())
			.complete((request) -> Result.done());
		assertThat(controller.watches()).containsExactly(
				new InformerKey(V1Pod.class, "ns", "app=web", "spec.nodeName=node-1", false),
				new InformerKey(V1Secret.class, "ns", "app=web", "type=kubernetes.io/tls", false),
				new InformerKey(V1ConfigMap.class, "ns", null, "metadata.name=settings", true),
				new InformerKey(V1Service.class, "other", null, "spec.type=ClusterIP", false),
				new InformerKey(V1ServiceAccount.class, "ns", null, "metadata.name=default", true));
		// what the manager names when one of them cannot start
		assertThat(controller.informerKeys()).isEqualTo(controller.watches());
		assertThat(manager.cache().informers()).extracting((informer) -> informer.key())
			.containsExactlyInAnyOrderElementsOf(controller.watches());
	}

	@Test
	void withoutFieldSelectorsTheInformersAreTheSameAsBefore() {
		Manager manager = Manager.builder(UNREACHABLE).namespace("ns").build();
		Controller controller = Controller.builder(manager, V1Pod.class)
			.fieldSelector("  ")
			.owns(V1Secret.class, null, null, EventFilters.all())
			.watches(V1Service.class, null, null, null, (service) -> List.of(), EventFilters.all())
			.complete((request) -> Result.done());
		assertThat(controller.watches()).containsExactly(new InformerKey(V1Pod.class, "ns", null),
				new InformerKey(V1Secret.class, "ns", null), new InformerKey(V1Service.class, "ns", null));
	}

	@Test
	void theListAndWatchReasonsNameTheFieldSelectors() {
		Manager manager = Manager.builder(UNREACHABLE).namespace("ns").build();
		Controller controller = Controller.builder(manager, V1Pod.class)
			.fieldSelector("spec.nodeName=node-1")
			.owns(V1Secret.class, "app=web", "type=kubernetes.io/tls", EventFilters.all())
			.withFinalizer(FINALIZER, (request) -> Result.done())
			.complete((request) -> Result.done());
		assertThat(controller.requiredPermissions()).extracting(Permission::reason)
			.contains(
					"controller pod reconciles Pod objects with fields spec.nodeName=node-1: its informer lists and "
							+ "watches them",
					"controller pod owns Secret objects labelled app=web with fields type=kubernetes.io/tls: its informer "
							+ "lists and watches them",
					"controller pod reads an object that left its field selector uncached, to remove its finalizer");
	}

	@Test
	void aMalformedFieldSelectorFailsWhereItIsGiven() {
		Manager manager = Manager.builder(UNREACHABLE).namespace("ns").build();
		ControllerBuilder<V1Pod> builder = Controller.builder(manager, V1Pod.class);
		assertThatIllegalArgumentException().isThrownBy(() -> builder.fieldSelector("spec.nodeName"))
			.withMessage("Cannot parse field selector 'spec.nodeName' at 'spec.nodeName': it has no operator (=, == or "
					+ "!=)");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> builder.owns(V1Secret.class, null, "type=a,b", EventFilters.all()))
			.withMessageStartingWith("Cannot parse field selector 'type=a,b' at 'b'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> builder.watches(V1Service.class, null, null, "spec. type=x", (service) -> List.of(),
					EventFilters.all()))
			.withMessageContaining("has spaces");
		assertThat(manager.cache().informers()).isEmpty();
	}

	@Test
	void anObjectThatLeftTheFieldSelectorWithTheFinalizerIsCleanedUpAndLosesIt() throws Exception {
		FakeClient client = new FakeClient(swatch("red"));
		List<String> done = new ArrayList<>();
		FinalizingReconciler reconciler = new FinalizingReconciler(Swatch.class, FINALIZER, (request) -> {
			done.add("reconcile " + request.name());
			return Result.done();
		}, (request) -> {
			done.add("cleanup " + request.name());
			return Result.done();
		}, client.proxy(), null, "spec.color=blue");
		assertThat(reconciler.reconcile(Request.of("ns", "tile")).isRequeue()).isFalse();
		assertThat(done).containsExactly("cleanup tile");
		assertThat(client.patches).hasSize(1);
	}

	@Test
	void anObjectTheCacheHasNotSeenYetIsLeftToTheReconciler() throws Exception {
		FakeClient client = new FakeClient(swatch("blue"));
		List<String> done = new ArrayList<>();
		FinalizingReconciler reconciler = new FinalizingReconciler(Swatch.class, FINALIZER, (request) -> {
			done.add("reconcile " + request.name());
			return Result.done();
		}, (request) -> {
			done.add("cleanup " + request.name());
			return Result.done();
		}, client.proxy(), null, "spec.color=blue");
		reconciler.reconcile(Request.of("ns", "tile"));
		assertThat(done).containsExactly("reconcile tile");
		assertThat(client.patches).isEmpty();
	}

	private static Swatch swatch(String color) {
		Swatch swatch = new Swatch();
		swatch.setMetadata(new V1ObjectMeta().namespace("ns")
			.name("tile")
			.resourceVersion("7")
			.finalizers(new ArrayList<>(List.of(FINALIZER))));
		swatch.setSpec(Map.of("color", color));
		return swatch;
	}

	@KubernetesKind(group = "test.kubeboot.io", version = "v1", kind = "Swatch")
	static class Swatch extends CustomResource<Map<String, Object>, Map<String, Object>> {

	}

	/**
	 * A client whose cache holds nothing (the object left it, or it has not seen the
	 * object yet) and whose uncached reads find one object.
	 */
	private static final class FakeClient {

		private final Swatch stored;

		private final List<Object> patches = new ArrayList<>();

		FakeClient(Swatch stored) {
			this.stored = stored;
		}

		Client proxy() {
			Reader uncached = (Reader) Proxy.newProxyInstance(getClass().getClassLoader(),
					new Class<?>[] { Reader.class }, (proxy, method, args) -> switch (method.getName()) {
						case "get" -> Optional.of(this.stored);
						default -> throw new UnsupportedOperationException(method.getName());
					});
			return (Client) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] { Client.class },
					(proxy, method, args) -> switch (method.getName()) {
						case "get" -> Optional.empty();
						case "uncached" -> uncached;
						case "patch" -> {
							this.patches.add(args[1]);
							yield args[0];
						}
						default -> throw new UnsupportedOperationException(method.getName());
					});
		}

	}

}
