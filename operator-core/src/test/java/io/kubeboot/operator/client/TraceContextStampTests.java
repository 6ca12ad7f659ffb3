package io.kubeboot.operator.client;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubeboot.operator.tracing.TraceContextAnnotation;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link TraceContextStamp}.
 */
class TraceContextStampTests {

	private static final String TRACE = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

	private static final JsonObject STORED = json("""
			{"apiVersion": "v1", "kind": "ConfigMap",
			 "metadata": {"name": "a", "namespace": "default", "resourceVersion": "7", "labels": {"app": "web"},
			  "annotations": {"tracing.kubeboot.io/traceparent": "00-1-2-01"}},
			 "data": {"key": "value", "other": "x"}}
			""");

	@Test
	void aPatchOrApplyOfValuesTheObjectHasChangesNothing() {
		assertThat(TraceContextStamp.isContainedIn(json("{\"data\": {\"key\": \"value\"}}"), STORED)).isTrue();
		assertThat(TraceContextStamp
			.isContainedIn(json("{\"metadata\": {\"resourceVersion\": \"7\", \"labels\": {\"app\": \"web\"}}}"), STORED))
			.isTrue();
		assertThat(TraceContextStamp.isContainedIn(json("{\"data\": {\"missing\": null}}"), STORED)).isTrue();
	}

	@Test
	void aPatchOrApplyOfOtherValuesOrARemovalChangesTheObject() {
		assertThat(TraceContextStamp.isContainedIn(json("{\"data\": {\"key\": \"new\"}}"), STORED)).isFalse();
		assertThat(TraceContextStamp.isContainedIn(json("{\"data\": {\"other\": null}}"), STORED)).isFalse();
		assertThat(TraceContextStamp.isContainedIn(json("{\"spec\": {\"size\": 1}}"), STORED)).isFalse();
	}

	@Test
	void aReplaceIsANoOpWhenOnlyTheVersionAndTheAnnotationDiffer() {
		JsonObject same = STORED.deepCopy();
		same.getAsJsonObject("metadata").addProperty("resourceVersion", "6");
		same.getAsJsonObject("metadata").remove("annotations");
		assertThat(TraceContextStamp.sameAs(same, STORED)).isTrue();
		same.getAsJsonObject("data").addProperty("key", "changed");
		assertThat(TraceContextStamp.sameAs(same, STORED)).isFalse();
	}

	@Test
	void stampingSetsTheAnnotationAndKeepingCopiesTheStoredOne() {
		JsonObject patch = json("{\"data\": {\"key\": \"new\"}}");
		TraceContextStamp.stamp(patch, TRACE);
		assertThat(patch.getAsJsonObject("metadata").getAsJsonObject("annotations").get(TraceContextAnnotation.NAME)
			.getAsString()).isEqualTo(TRACE);

		JsonObject apply = json("{\"metadata\": {\"name\": \"a\"}, \"data\": {\"key\": \"value\"}}");
		TraceContextStamp.keep(apply, STORED);
		assertThat(apply.getAsJsonObject("metadata").getAsJsonObject("annotations").get(TraceContextAnnotation.NAME)
			.getAsString()).isEqualTo("00-1-2-01");
	}

	@Test
	void aMergePatchThatRemovesEveryAnnotationIsLeftAsItIs() {
		JsonObject patch = json("{\"metadata\": {\"annotations\": null}}");
		TraceContextStamp.stamp(patch, TRACE);
		assertThat(patch.getAsJsonObject("metadata").get("annotations").isJsonNull()).isTrue();
	}

	private static JsonObject json(String text) {
		return JsonParser.parseString(text).getAsJsonObject();
	}

}
