package io.kubeboot.operator.client.internal;

import java.time.OffsetDateTime;

import com.google.gson.Gson;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ModelReadingTests {

	private static final String POD = """
			{"apiVersion": "v1", "kind": "Pod",
			 "metadata": {"name": "p", "namespace": "ns", "uid": "u", "resourceVersion": "7", "generation": 2,
			  "creationTimestamp": "2026-11-30T10:15:30Z", "labels": {"app": "a"},
			  "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "r", "uid": "ru",
			   "controller": true}],
			  "managedFields": [{"manager": "kubectl", "operation": "Update", "apiVersion": "v1",
			   "fieldsType": "FieldsV1", "fieldsV1": {"f:metadata": {}}}]},
			 "spec": {"containers": [{"name": "c", "image": "i",
			   "resources": {"limits": {"cpu": "500m", "memory": "64Mi"}},
			   "readinessProbe": {"httpGet": {"path": "/ready", "port": "http"}}}]},
			 "status": {"phase": "Running", "startTime": "2026-11-30T10:15:31Z"}}""";

	private final Gson client = new JSON().getGson();

	private final Gson reading = ModelReading.gson(this.client);

	@Test
	void readsAModelAsTheClientsGsonDoes() {
		V1Pod pod = this.reading.fromJson(POD, V1Pod.class);
		assertThat(pod).isEqualTo(this.client.fromJson(POD, V1Pod.class));
		assertThat(pod.getMetadata().getCreationTimestamp()).isEqualTo(OffsetDateTime.parse("2026-11-30T10:15:30Z"));
		assertThat(pod.getMetadata().getOwnerReferences()).singleElement()
			.satisfies((owner) -> assertThat(owner.getController()).isTrue());
		// left out by client-java's Gson too
		assertThat(pod.getMetadata().getManagedFields()).isEmpty();
		assertThat(pod.getSpec().getContainers().get(0).getResources().getLimits()).containsEntry("cpu",
				new Quantity("500m"));
		assertThat(pod.getSpec().getContainers().get(0).getReadinessProbe().getHttpGet().getPort())
			.isEqualTo(new IntOrString("http"));
	}

	@Test
	void writesAModelAsTheClientsGsonDoes() {
		V1Pod pod = this.client.fromJson(POD, V1Pod.class);
		assertThat(this.reading.toJsonTree(pod)).isEqualTo(this.client.toJsonTree(pod));
	}

	@Test
	void readsAModelCarryingFieldsThatClientJavaDoesNotKnow() {
		String configMap = """
				{"apiVersion": "v1", "kind": "ConfigMap",
				 "metadata": {"name": "c", "namespace": "ns", "uid": "u", "resourceVersion": "5",
				  "newMetadataField": {"a": 1}},
				 "data": {"k": "v"}, "newField": [1, 2]}""";
		assertThatIllegalArgumentException().isThrownBy(() -> this.client.fromJson(configMap, V1ConfigMap.class))
			.withMessageContaining("The field `newField` in the JSON string is not defined");
		V1ConfigMap read = this.reading.fromJson(configMap, V1ConfigMap.class);
		assertThat(read.getMetadata().getName()).isEqualTo("c");
		assertThat(read.getMetadata().getResourceVersion()).isEqualTo("5");
		assertThat(read.getData()).containsEntry("k", "v");
	}

	@Test
	void readsTheModelsInTheApplicationsOwnClassesTheSameWay() {
		Widget widget = this.reading.fromJson("""
				{"metadata": {"name": "w", "newMetadataField": true}, "spec": {"size": 3}}""", Widget.class);
		assertThat(widget.metadata.getName()).isEqualTo("w");
		assertThat(widget.spec.size).isEqualTo(3);
	}

	@Test
	void isMadeOncePerClientGson() {
		assertThat(ModelReading.gson(this.client)).isSameAs(this.reading);
		assertThat(ModelReading.gson(this.client.newBuilder().create())).isNotSameAs(this.reading);
	}

	static class Widget {

		V1ObjectMeta metadata;

		Spec spec;

		static class Spec {

			int size;

		}

	}

}
