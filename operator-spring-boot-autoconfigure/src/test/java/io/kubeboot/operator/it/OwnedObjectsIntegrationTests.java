package io.kubeboot.operator.it;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.client.Client.Operation;
import io.kubeboot.operator.client.OwnerReferences;
import io.kubeboot.operator.client.Patch;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.predicate.EventFilters;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Create-or-update and owner references against a real kube-apiserver, and a ConfigMap to
 * owned Secret operator built from them.
 */
@WithControlPlane
class OwnedObjectsIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	@RegisterExtension
	private final TestResources resources = new TestResources();

	private Manager manager(ApiClient admin, TestNamespace namespace) {
		return this.resources.manager(Manager.builder(admin).namespace(namespace.name()).build());
	}

	@Test
	void createOrUpdateReportsCreatedUpdatedAndUnchanged(ApiClient admin, TestNamespace namespace) {
		Client client = manager(admin, namespace).client();
		V1ConfigMap desired = configMap(namespace.name(), "settings");
		assertThat(client.createOrUpdate(desired, (cm) -> cm.data(Map.of("a", "1"))).operation())
			.isEqualTo(Operation.CREATED);
		assertThat(client.createOrUpdate(configMap(namespace.name(), "settings"), (cm) -> cm.data(Map.of("a", "1")))
			.operation()).isEqualTo(Operation.UNCHANGED);
		Client.Written<V1ConfigMap> updated = client.createOrUpdate(configMap(namespace.name(), "settings"),
				(cm) -> cm.data(Map.of("a", "2")));
		assertThat(updated.operation()).isEqualTo(Operation.UPDATED);
		assertThat(updated.object().getData()).containsEntry("a", "2");
		assertThatIllegalStateException()
			.isThrownBy(() -> client.createOrUpdate(configMap(namespace.name(), "settings"),
					(cm) -> cm.getMetadata().name("renamed")))
			.withMessageContaining("must not change the namespace or name");
	}

	@Test
	void createOrPatchKeepsWhatOthersWrote(ApiClient admin, TestNamespace namespace) {
		Client client = manager(admin, namespace).client();
		V1ConfigMap created = client
			.createOrPatch(configMap(namespace.name(), "shared"), (cm) -> cm.data(Map.of("mine", "1")))
			.object();
		client.patch(created, Patch.merge(Map.of("data", Map.of("theirs", "x"))));
		Client.Written<V1ConfigMap> patched = client.createOrPatch(configMap(namespace.name(), "shared"),
				(cm) -> cm.getData().put("mine", "2"));
		assertThat(patched.operation()).isEqualTo(Operation.UPDATED);
		assertThat(patched.object().getData()).containsEntry("mine", "2").containsEntry("theirs", "x");
	}

	@Test
	void controllerReferenceRefusesASecondControllerAndCrossNamespaceOwners(ApiClient admin, TestNamespace namespace)
			throws Exception {
		Client client = manager(admin, namespace).client();
		String ns = namespace.name();
		V1ConfigMap first = client.create(configMap(ns, "first"));
		V1ConfigMap second = client.create(configMap(ns, "second"));
		V1Secret secret = OwnerReferences.setController(client, first, secret(ns, "owned"));
		assertThat(secret.getMetadata().getOwnerReferences()).singleElement().satisfies((reference) -> {
			assertThat(reference.getApiVersion()).isEqualTo("v1");
			assertThat(reference.getKind()).isEqualTo("ConfigMap");
			assertThat(reference.getController()).isTrue();
		});
		assertThat(OwnerReferences.setController(client, first, secret).getMetadata().getOwnerReferences()).hasSize(1);
		assertThatIllegalArgumentException().isThrownBy(() -> OwnerReferences.setController(client, second, secret))
			.withMessageContaining("is already controlled by ConfigMap first");
		assertThat(OwnerReferences.setOwner(client, second, secret).getMetadata().getOwnerReferences()).hasSize(2);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> OwnerReferences.setController(client, first, secret("elsewhere", "secret")))
			.withMessageContaining("cross-namespace owner references are not allowed");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> OwnerReferences.setController(client, configMap(ns, "unsaved"), secret(ns, "x")))
			.withMessageContaining("has no uid");
		assertThat(OwnerReferences.isControlledBy(first, secret)).isTrue();
		assertThat(OwnerReferences.isControlledBy(second, secret)).isFalse();
	}

	@Test
	void configMapToOwnedSecretOperatorKeepsItsSecretAndReactsToItsChanges(ApiClient admin, TestNamespace namespace)
			throws Exception {
		Manager manager = manager(admin, namespace);
		Client client = manager.client();
		AtomicInteger reconciles = new AtomicInteger();
		Controller.builder(manager, V1ConfigMap.class).owns(V1Secret.class).complete((request) -> {
			reconciles.incrementAndGet();
			V1ConfigMap source = client.get(V1ConfigMap.class, request).orElse(null);
			if (source == null) {
				return Result.done(); // the garbage collector deletes the Secret
			}
			V1Secret secret = new V1Secret()
				.metadata(new V1ObjectMeta().namespace(request.namespace()).name(request.name() + "-secret"));
			client.createOrUpdate(secret, (desired) -> {
				desired.stringData(null).data(null);
				desired.putDataItem("copy", String.valueOf(source.getData()).getBytes());
				OwnerReferences.setController(client, source, desired);
			});
			return Result.done();
		});
		manager.start();
		client.create(configMap(namespace.name(), "app").data(Map.of("k", "v")));
		await().atMost(WAIT)
			.until(() -> client.uncached()
				.get(V1Secret.class, Request.of(namespace.name(), "app-secret"))
				.map((s) -> new String(s.getData().get("copy")).equals("{k=v}"))
				.orElse(false));
		// someone changes the owned Secret: its owner is reconciled and puts it back
		V1Secret tampered = client.uncached()
			.get(V1Secret.class, Request.of(namespace.name(), "app-secret"))
			.orElseThrow();
		client.patch(tampered, Patch.merge(Map.of("data", Map.of("copy", "dGFtcGVyZWQ="))));
		await().atMost(WAIT)
			.until(() -> client.uncached()
				.get(V1Secret.class, Request.of(namespace.name(), "app-secret"))
				.map((s) -> new String(s.getData().get("copy")).equals("{k=v}"))
				.orElse(false));
	}

	@Test
	void ownedKindWithALabelSelectorCachesOnlyTheObjectsItSelects(ApiClient admin, TestNamespace namespace)
			throws Exception {
		Manager manager = startedWithOwnedSecretsSelected(admin, namespace);
		Client client = manager.client();
		client.create(secret(namespace.name(), "someone-elses"));
		V1Secret ours = secret(namespace.name(), "ours");
		ours.getMetadata().putLabelsItem("app.kubernetes.io/managed-by", "test-operator");
		client.create(ours);
		// one informer sees the events of its kind in order: once "ours" is cached, the
		// earlier Secret would be too if the selector let it through
		await().atMost(WAIT)
			.until(() -> manager.cache().get(V1Secret.class, Request.of(namespace.name(), "ours")).isPresent());
		assertThat(manager.cache().list(V1Secret.class, namespace.name()))
			.extracting((secret) -> secret.getMetadata().getName())
			.containsExactly("ours");
	}

	/**
	 * An owned Secret whose label someone removed leaves the filtered cache, but is still
	 * there: create-or-update brings it back in line (label included) instead of failing
	 * its create with 409 on every retry.
	 */
	@Test
	void createOrUpdateBringsBackAnObjectOutsideTheCachesSelector(ApiClient admin, TestNamespace namespace)
			throws Exception {
		Manager manager = startedWithOwnedSecretsSelected(admin, namespace);
		Client client = manager.client();
		// there already, without the label: the cache never holds it
		V1Secret unlabelled = secret(namespace.name(), "app-secret");
		unlabelled.putStringDataItem("key", "old");
		client.create(unlabelled);
		Client.Written<V1Secret> written = client.createOrUpdate(secret(namespace.name(), "app-secret"), (desired) -> {
			desired.getMetadata().putLabelsItem("app.kubernetes.io/managed-by", "test-operator");
			desired.data(Map.of("key", "new".getBytes(StandardCharsets.UTF_8)));
		});
		assertThat(written.operation()).isEqualTo(Operation.UPDATED);
		V1Secret stored = client.uncached()
			.get(V1Secret.class, Request.of(namespace.name(), "app-secret"))
			.orElseThrow();
		assertThat(stored.getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by", "test-operator");
		assertThat(new String(stored.getData().get("key"), StandardCharsets.UTF_8)).isEqualTo("new");
	}

	/**
	 * A started manager whose ConfigMap controller owns Secrets, caching only those
	 * labelled {@code app.kubernetes.io/managed-by=test-operator}.
	 */
	private Manager startedWithOwnedSecretsSelected(ApiClient admin, TestNamespace namespace) throws Exception {
		Manager manager = manager(admin, namespace);
		Controller.builder(manager, V1ConfigMap.class)
			.owns(V1Secret.class, "app.kubernetes.io/managed-by=test-operator", EventFilters.all())
			.complete((request) -> Result.done());
		manager.start();
		return manager;
	}

	private static V1ConfigMap configMap(String namespace, String name) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().namespace(namespace).name(name));
	}

	private static V1Secret secret(String namespace, String name) {
		return new V1Secret().metadata(new V1ObjectMeta().namespace(namespace).name(name));
	}

}
