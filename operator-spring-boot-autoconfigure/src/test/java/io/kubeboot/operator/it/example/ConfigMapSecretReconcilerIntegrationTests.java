package io.kubeboot.operator.it.example;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@SpringBootTest(properties = "operator.leader-election.enabled=true")
@WithControlPlane
class ConfigMapSecretReconcilerIntegrationTests {

	@Autowired
	Client client;

	@Test
	void copiesTheConfigMapIntoAnOwnedSecret(TestNamespace namespace) {
		this.client.create(new V1ConfigMap()
			.metadata(new V1ObjectMeta().namespace(namespace.name()).name("app").putLabelsItem("secret", "wanted"))
			.data(Map.of("password", "s3cret")));

		await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> {
			V1Secret secret = this.client.uncached()
				.get(V1Secret.class, Request.of(namespace.name(), "app-secret"))
				.orElseThrow();
			assertThat(new String(secret.getData().get("password"), StandardCharsets.UTF_8)).isEqualTo("s3cret");
		});
	}

}
