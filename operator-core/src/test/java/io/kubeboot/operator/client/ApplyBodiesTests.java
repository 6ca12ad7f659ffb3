package io.kubeboot.operator.client;

import java.util.Map;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ApplyBodies}. {@code ClientIntegrationTests} shows against
 * kube-apiserver 1.37 why it matters: the empty maps of client-java's models conflict.
 */
class ApplyBodiesTests {

	@Test
	void aModelsEmptyMapsAndListsAreLeftOut() {
		V1ConfigMap configMap = new V1ConfigMap().metadata(new V1ObjectMeta().name("applied"))
			.data(Map.of("owned", "1"));
		JsonObject body = new JSON().getGson().toJsonTree(configMap).getAsJsonObject();
		assertThat(ApplyBodies.withoutEmptyCollections(body))
			.isEqualTo(JsonParser.parseString("{\"metadata\": {\"name\": \"applied\"}, \"data\": {\"owned\": \"1\"}}"));
	}

	@Test
	void anObjectLeftEmptyGoesButAnEmptyItemOfAListStays() {
		JsonObject body = JsonParser
			.parseString("{\"spec\": {\"template\": {\"labels\": {}}, \"ports\": [{}, {\"name\": \"a\", \"tags\": []}],"
					+ " \"empty\": \"\", \"zero\": 0, \"off\": false}}")
			.getAsJsonObject();
		assertThat(ApplyBodies.withoutEmptyCollections(body)).isEqualTo(JsonParser.parseString(
				"{\"spec\": {\"ports\": [{}, {\"name\": \"a\"}], \"empty\": \"\", \"zero\": 0, \"off\": false}}"));
	}

}
