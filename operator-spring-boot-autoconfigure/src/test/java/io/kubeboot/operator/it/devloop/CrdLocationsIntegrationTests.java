package io.kubeboot.operator.it.devloop;

import java.time.Duration;
import java.util.Map;

import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A {@code @SpringBootTest} annotated with {@code @WithControlPlane} gets the CRDs of
 * {@code operator.local-control-plane.crd-locations} applied before its operator starts:
 * the {@link Gadget} kind, whose CRD nothing else installs, is served, and reconciled.
 */
@SpringBootTest(classes = GadgetOperatorApplication.class,
		properties = {
				"operator.local-control-plane.crd-locations=classpath:devloop/gadgets-crd.yaml,"
						+ "optional:file:no/such/crd.yaml,classpath*:no/such/*.yaml",
				"spring.main.web-application-type=none" })
@WithControlPlane
class CrdLocationsIntegrationTests {

	@Autowired
	Client client;

	@Test
	void theKindOfTheCrdLocationsIsServedAndReconciled(TestNamespace namespace) {
		Gadget gadget = new Gadget();
		gadget.metadata(new V1ObjectMeta().namespace(namespace.name()).name("red-one")).spec(Map.of("color", "red"));
		this.client.create(gadget);

		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			Gadget reconciled = this.client.uncached()
				.get(Gadget.class, Request.of(namespace.name(), "red-one"))
				.orElseThrow();
			assertThat(reconciled.getStatus()).containsEntry("observedColor", "red");
		});
	}

}
