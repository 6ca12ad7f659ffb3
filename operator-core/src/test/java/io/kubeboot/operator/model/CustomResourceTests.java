package io.kubeboot.operator.model;

import java.util.List;

import com.google.gson.reflect.TypeToken;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CustomResourceTests {

	private final JSON json = new JSON();

	@Test
	void apiVersionAndKindComeFromTheAnnotation() {
		Bucket bucket = new Bucket().metadata(new V1ObjectMeta().name("b")).spec(new Spec("https://x"));
		assertThat(bucket.getApiVersion()).isEqualTo("storage.example.com/v1");
		assertThat(bucket.getKind()).isEqualTo("Bucket");
		assertThat(bucket.getMetadata().getName()).isEqualTo("b");
		assertThat(bucket.getSpec().endpoint).isEqualTo("https://x");
		assertThat(new CoreKind().getApiVersion()).isEqualTo("v1");
	}

	@Test
	void typedSpecAndStatusSurviveJson() {
		Bucket bucket = new Bucket().metadata(new V1ObjectMeta().name("b").namespace("ns"))
			.spec(new Spec("https://x"))
			.status(new Status(true));
		Bucket read = this.json.deserialize(this.json.serialize(bucket), Bucket.class);
		assertThat(read).isEqualTo(bucket);
		assertThat(read.getStatus().available).isTrue();
	}

	@Test
	void aParameterizedListReadsItsItemsAsTheCustomResource() {
		String list = """
				{"apiVersion": "storage.example.com/v1", "kind": "BucketList", "metadata": {"resourceVersion": "7"},
				 "items": [{"apiVersion": "storage.example.com/v1", "kind": "Bucket", "metadata": {"name": "a"},
				            "spec": {"endpoint": "https://a"}, "status": {"available": false}}]}
				""";
		CustomResourceList<Bucket> read = this.json.deserialize(list,
				TypeToken.getParameterized(CustomResourceList.class, Bucket.class).getType());
		List<Bucket> items = read.getItems();
		assertThat(items).hasSize(1);
		assertThat(items.get(0)).isInstanceOf(Bucket.class);
		assertThat(items.get(0).getSpec().endpoint).isEqualTo("https://a");
		assertThat(items.get(0).getStatus().available).isFalse();
		assertThat(read.getMetadata().getResourceVersion()).isEqualTo("7");
	}

	@KubernetesKind(group = "storage.example.com", version = "v1", kind = "Bucket")
	static class Bucket extends CustomResource<Spec, Status> {

	}

	@KubernetesKind(group = "", version = "v1", kind = "Thing")
	static class CoreKind extends CustomResource<Spec, Status> {

	}

	record Spec(String endpoint) {
	}

	record Status(boolean available) {
	}

}
