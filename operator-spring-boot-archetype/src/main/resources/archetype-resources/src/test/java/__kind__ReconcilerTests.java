package ${package};

import java.time.Duration;
import java.util.Map;

import ${package}.v1alpha1.${kind};
import ${package}.v1alpha1.${kind}Spec;
import ${package}.v1alpha1.${kind}Status;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.client.OwnerReferences;
import io.kubeboot.operator.client.Patch;
import io.kubeboot.operator.model.Condition;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The operator against a real API server: {@code @WithControlPlane} starts a local
 * control plane (etcd and kube-apiserver) for the test run, applies the CRD that the build
 * generated from the model ({@code operator.local-control-plane.crd-locations}, by default
 * the generated CRDs on the class path) and connects the application to it. Each test works in a namespace of its own.
 */
@SpringBootTest
@WithControlPlane
class ${kind}ReconcilerTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	@Autowired
	Client client;

	@Test
	void keepsTheConfigMapAndReportsReady(TestNamespace namespace) {
		${kind} resource = this.client.create(new ${kind}()
			.metadata(new V1ObjectMeta().namespace(namespace.name()).name("first"))
			.spec(new ${kind}Spec().putDataItem("greeting", "hello")));

		await().atMost(TIMEOUT).ignoreExceptions().untilAsserted(() -> {
			V1ConfigMap configMap = configMap(namespace, "first");
			assertThat(configMap.getData()).isEqualTo(Map.of("greeting", "hello"));
			assertThat(OwnerReferences.isControlledBy(resource, configMap)).isTrue();
			${kind} reconciled = get(namespace, "first");
			assertThat(reconciled.getMetadata().getFinalizers()).contains(${kind}Reconciler.FINALIZER);
			Condition ready = reconciled.getStatus().condition(${kind}Status.READY).orElseThrow();
			assertThat(ready.getStatus()).isEqualTo("True");
			assertThat(ready.getObservedGeneration()).isEqualTo(1L);
			// what kubectl describe shows under Events
			assertThat(this.client.uncached().list(CoreV1Event.class, namespace.name()))
				.anyMatch((event) -> "ConfigMapWritten".equals(event.getReason())
						&& "first".equals(event.getInvolvedObject().getName()));
		});

		// a change of the spec reaches the ConfigMap and the status (a merge patch: the operator
		// writes the status meanwhile, which an update of what was read would conflict with)
		this.client.patch(resource, Patch.merge(Map.of("spec", Map.of("data", Map.of("farewell", "goodbye")))));

		await().atMost(TIMEOUT).ignoreExceptions().untilAsserted(() -> {
			assertThat(configMap(namespace, "first").getData())
				.isEqualTo(Map.of("greeting", "hello", "farewell", "goodbye"));
			Condition ready = get(namespace, "first").getStatus().condition(${kind}Status.READY).orElseThrow();
			assertThat(ready.getObservedGeneration()).isEqualTo(2L);
			assertThat(ready.getMessage()).isEqualTo("ConfigMap first holds 2 entries");
		});
	}

	@Test
	void putsBackAConfigMapSomeoneChanged(TestNamespace namespace) {
		this.client.create(new ${kind}().metadata(new V1ObjectMeta().namespace(namespace.name()).name("kept"))
			.spec(new ${kind}Spec().putDataItem("color", "blue")));
		await().atMost(TIMEOUT).until(() -> configMapExists(namespace, "kept"));

		this.client.patch(configMap(namespace, "kept"), Patch.merge(Map.of("data", Map.of("color", "red"))));

		await().atMost(TIMEOUT)
			.untilAsserted(() -> assertThat(configMap(namespace, "kept").getData()).isEqualTo(Map.of("color", "blue")));
	}

	@Test
	void aDeletedResourceIsCleanedUpAndGoes(TestNamespace namespace) {
		this.client.create(new ${kind}().metadata(new V1ObjectMeta().namespace(namespace.name()).name("gone"))
			.spec(new ${kind}Spec().putDataItem("key", "value")));
		await().atMost(TIMEOUT)
			.untilAsserted(() -> assertThat(get(namespace, "gone").getMetadata().getFinalizers())
				.contains(${kind}Reconciler.FINALIZER));

		this.client.delete(get(namespace, "gone"));

		// the finalizer held it until cleanup() was done
		await().atMost(TIMEOUT)
			.until(() -> this.client.uncached().get(${kind}.class, Request.of(namespace.name(), "gone")).isEmpty());
	}

	private ${kind} get(TestNamespace namespace, String name) {
		return this.client.uncached().get(${kind}.class, Request.of(namespace.name(), name)).orElseThrow();
	}

	private V1ConfigMap configMap(TestNamespace namespace, String name) {
		return this.client.uncached().get(V1ConfigMap.class, Request.of(namespace.name(), name)).orElseThrow();
	}

	private boolean configMapExists(TestNamespace namespace, String name) {
		return this.client.uncached().get(V1ConfigMap.class, Request.of(namespace.name(), name)).isPresent();
	}

}
