package io.kubeboot.operator.it.example;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import io.kubeboot.operator.autoconfigure.OperatorAutoConfiguration;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.client.OwnerReferences;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The ConfigMap to owned Secret operator with a finalizer of
 * {@code docs/guides/writing-to-the-cluster.md}, run as an application against a real
 * kube-apiserver.
 */
@WithControlPlane
class ConfigMapSecretExampleIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	@Test
	void secretFollowsItsConfigMapAndTheCleanupRunsBeforeDeletion(ControlPlane controlPlane, TestNamespace namespace) {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class))
			.withBean(ApiClient.class, controlPlane::adminClient)
			.withBean(ConfigMapSecretReconciler.class)
			.withPropertyValues("operator.namespace=" + namespace, "spring.application.name=example")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Client client = context.getBean(Client.class);
				String ns = namespace.name();
				V1ConfigMap source = client.create(new V1ConfigMap()
					.metadata(new V1ObjectMeta().namespace(ns).name("app").putLabelsItem("secret", "wanted"))
					.data(Map.of("password", "s3cret")));
				await().atMost(WAIT).until(() -> secret(client, ns).isPresent());
				V1Secret secret = secret(client, ns).orElseThrow();
				assertThat(new String(secret.getData().get("password"), StandardCharsets.UTF_8)).isEqualTo("s3cret");
				V1ConfigMap current = client.uncached().get(V1ConfigMap.class, Request.of(ns, "app")).orElseThrow();
				assertThat(OwnerReferences.isControlledBy(current, secret)).isTrue();
				assertThat(current.getMetadata().getFinalizers()).containsExactly("example.kubeboot.io/audit");

				client.patch(current,
						io.kubeboot.operator.client.Patch.merge(Map.of("data", Map.of("password", "n3w"))));
				await().atMost(WAIT)
					.until(() -> secret(client, ns)
						.map((s) -> new String(s.getData().get("password"), StandardCharsets.UTF_8).equals("n3w"))
						.orElse(false));

				client.delete(source);
				await().atMost(WAIT)
					.until(() -> client.uncached().get(V1ConfigMap.class, Request.of(ns, "app")).isEmpty());
				assertThat(ConfigMapSecretReconciler.AUDIT_LOG).contains("deleted " + ns + "/app");
			});
	}

	private static java.util.Optional<V1Secret> secret(Client client, String namespace) {
		return client.uncached().get(V1Secret.class, Request.of(namespace, "app-secret"));
	}

}
