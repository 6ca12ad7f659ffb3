package io.kubeboot.operator.cache;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests what makes two informers the same.
 */
class InformerKeyTests {

	@Test
	void theFieldSelectorIsPartOfTheIdentity() {
		assertThat(new InformerKey(V1Pod.class, "ns", null, "spec.nodeName=node-1", false))
			.isEqualTo(new InformerKey(V1Pod.class, "ns", null, "spec.nodeName=node-1", false))
			.isNotEqualTo(new InformerKey(V1Pod.class, "ns", null, "spec.nodeName=node-2", false))
			.isNotEqualTo(new InformerKey(V1Pod.class, "ns", null, false));
	}

	@Test
	void selectorsAreNormalizedAlike() {
		InformerKey key = new InformerKey(V1Secret.class, " ns ", " app=web ", "  type=kubernetes.io/tls ", true);
		assertThat(key.namespace()).isEqualTo("ns");
		assertThat(key.labelSelector()).isEqualTo("app=web");
		assertThat(key.fieldSelector()).isEqualTo("type=kubernetes.io/tls");
		assertThat(new InformerKey(V1Secret.class, "", " ", "\t", false))
			.isEqualTo(new InformerKey(V1Secret.class, null, null));
	}

	@Test
	void theShorterConstructorsSelectByNoField() {
		assertThat(new InformerKey(V1Secret.class, "ns", "app=web").fieldSelector()).isNull();
		assertThat(new InformerKey(V1Secret.class, "ns", "app=web", true))
			.isEqualTo(new InformerKey(V1Secret.class, "ns", "app=web", null, true));
	}

	@Test
	void toStringNamesTheFieldSelectorBesideTheLabelSelector() {
		assertThat(new InformerKey(V1Pod.class, null, "app=web", "spec.nodeName=node-1", true)).hasToString(
				"V1Pod[namespace=*, labelSelector=app=web, fieldSelector=spec.nodeName=node-1, metadata only]");
		assertThat(new InformerKey(V1Pod.class, "ns", null, "status.phase!=Failed", false))
			.hasToString("V1Pod[namespace=ns, fieldSelector=status.phase!=Failed]");
		assertThat(new InformerKey(V1Pod.class, "ns", null)).hasToString("V1Pod[namespace=ns]");
	}

}
