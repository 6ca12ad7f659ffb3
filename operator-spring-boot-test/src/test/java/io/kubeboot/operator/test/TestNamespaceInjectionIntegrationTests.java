package io.kubeboot.operator.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link TestNamespace} injection.
 */
@WithControlPlane
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TestNamespaceInjectionIntegrationTests {

	private static final List<String> seen = new ArrayList<>();

	private final ApiClient client;

	private TestNamespace fromBeforeEach;

	TestNamespaceInjectionIntegrationTests(ApiClient client) {
		this.client = client;
	}

	@BeforeEach
	void recordNamespace(TestNamespace namespace) {
		this.fromBeforeEach = namespace;
	}

	@Test
	@Order(1)
	void firstTestGetsAnExistingNamespace(TestNamespace namespace, TestNamespace again) throws Exception {
		assertThat(namespace).isSameAs(again).isSameAs(this.fromBeforeEach);
		assertThat(namespace.name()).matches("t-firsttestgetsanexistingnamespace-[a-z0-9]{5}");
		assertExists(namespace);
		seen.add(namespace.name());
	}

	@Test
	@Order(2)
	void secondTestGetsAnotherExistingNamespace(TestNamespace namespace) throws Exception {
		assertThat(namespace).isSameAs(this.fromBeforeEach);
		assertThat(namespace.name()).startsWith("t-secondtestgetsanotherexistingnamespace-")
			.hasSizeLessThanOrEqualTo(63);
		assertExists(namespace);
		assertThat(seen).hasSize(1).doesNotContain(namespace.name());
		seen.add(namespace.name());
	}

	@Test
	@Order(3)
	void namespacesOfEarlierTestsAreBeingDeleted() {
		assertThat(seen).hasSize(2);
		CoreV1Api api = new CoreV1Api(this.client);
		for (String name : seen) {
			// no controller-manager finalizes namespaces: they stay Terminating
			await().atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> api.readNamespace(name).execute().getMetadata().getDeletionTimestamp() != null);
		}
	}

	private void assertExists(TestNamespace namespace) throws Exception {
		V1Namespace read = new CoreV1Api(this.client).readNamespace(namespace.name()).execute();
		assertThat(read.getMetadata().getDeletionTimestamp()).isNull();
		assertThat(read.getMetadata().getLabels()).containsEntry("kubeboot.io/test-namespace", "true");
	}

}
