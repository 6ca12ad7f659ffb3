package io.kubeboot.operator.rbac.internal;

import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinition;
import io.kubernetes.client.openapi.models.V1Endpoints;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V2HorizontalPodAutoscaler;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Names of kinds without the API server.
 */
class DeclaredNamesTests {

	@Test
	void pluralsAreMadeAsKubernetesToolsMakeThem() {
		assertThat(DeclaredNames.plural("StorageBucket")).isEqualTo("storagebuckets");
		assertThat(DeclaredNames.plural("Ingress")).isEqualTo("ingresses");
		assertThat(DeclaredNames.plural("NetworkPolicy")).isEqualTo("networkpolicies");
		assertThat(DeclaredNames.plural("Gateway")).isEqualTo("gateways");
		assertThat(DeclaredNames.plural("Box")).isEqualTo("boxes");
		assertThat(DeclaredNames.plural("Match")).isEqualTo("matches");
		assertThat(DeclaredNames.plural("Endpoints")).isEqualTo("endpoints");
	}

	@Test
	void clientJavaModelsAreNamedByTheGroupAndScopeOfTheirKind() {
		assertThat(DeclaredNames.INSTANCE.resolve(V1ConfigMap.class))
			.isEqualTo(new KindNames.Name("", "configmaps", true));
		assertThat(DeclaredNames.INSTANCE.resolve(V1Lease.class))
			.isEqualTo(new KindNames.Name("coordination.k8s.io", "leases", true));
		assertThat(DeclaredNames.INSTANCE.resolve(V1Endpoints.class))
			.isEqualTo(new KindNames.Name("", "endpoints", true));
		assertThat(DeclaredNames.INSTANCE.resolve(V2HorizontalPodAutoscaler.class))
			.isEqualTo(new KindNames.Name("autoscaling", "horizontalpodautoscalers", true));
		assertThat(DeclaredNames.INSTANCE.resolve(V1CustomResourceDefinition.class))
			.isEqualTo(new KindNames.Name("apiextensions.k8s.io", "customresourcedefinitions", false));
		assertThat(DeclaredNames.INSTANCE.resolve(CoreV1Event.class)).isEqualTo(new KindNames.Name("", "events", true));
	}

	@Test
	void kubernetesKindClassesAreNamedByTheirDeclaredPluralAndScope() {
		assertThat(DeclaredNames.INSTANCE.resolve(Gadget.class))
			.isEqualTo(new KindNames.Name("test.kubeboot.io", "gadgets", true));
		assertThat(DeclaredNames.INSTANCE.resolve(Quota.class))
			.isEqualTo(new KindNames.Name("test.kubeboot.io", "quotae", false));
	}

	@KubernetesKind(group = "test.kubeboot.io", version = "v1", kind = "Gadget")
	static class Gadget extends CustomResource<Object, Object> {

	}

	@KubernetesKind(group = "test.kubeboot.io", version = "v1", kind = "Quota", plural = "quotae",
			scope = KubernetesKind.Scope.CLUSTER)
	static class Quota extends CustomResource<Object, Object> {

	}

}
