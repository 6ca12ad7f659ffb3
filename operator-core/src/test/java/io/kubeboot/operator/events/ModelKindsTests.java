package io.kubeboot.operator.events;

import io.kubeboot.operator.model.KubernetesKind;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1alpha1VolumeAttributesClass;
import io.kubernetes.client.openapi.models.V2HorizontalPodAutoscaler;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ModelKinds}.
 */
class ModelKindsTests {

	@Test
	void kindOfClientJavaModelComesFromItsName() {
		assertThat(ModelKinds.kindOf(V1ConfigMap.class)).isEqualTo("ConfigMap");
		assertThat(ModelKinds.kindOf(V1Deployment.class)).isEqualTo("Deployment");
		assertThat(ModelKinds.kindOf(V2HorizontalPodAutoscaler.class)).isEqualTo("HorizontalPodAutoscaler");
		assertThat(ModelKinds.kindOf(V1alpha1VolumeAttributesClass.class)).isEqualTo("VolumeAttributesClass");
		assertThat(ModelKinds.kindOf(CoreV1Event.class)).isEqualTo("Event");
		assertThat(ModelKinds.kindOf(EventsV1Event.class)).isEqualTo("Event");
	}

	@Test
	void kindOfAnnotatedClassComesFromTheAnnotation() {
		assertThat(ModelKinds.kindOf(Bucket.class)).isEqualTo("StorageBucket");
	}

	@Test
	void kindOfOtherClassIsUnknown() {
		assertThat(ModelKinds.kindOf(DynamicKubernetesObject.class)).isEmpty();
		assertThat(ModelKinds.kindOf(String.class)).isEmpty();
	}

	@KubernetesKind(group = "storage.example.com", version = "v1", kind = "StorageBucket")
	static class Bucket {

	}

}
