package io.kubeboot.operator.webhook;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;
import io.kubeboot.operator.tracing.OperatorTracing;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class AdmissionHandlerTests {

	private final AtomicInteger panics = new AtomicInteger();

	@Test
	void allowedCreateAnswersTheRequestUidWithWarnings() throws Exception {
		AdmissionHandler<V1ConfigMap> handler = AdmissionHandler.validating(V1ConfigMap.class, new JSON().getGson(),
				new AdmissionValidator<>() {
					@Override
					public List<String> validateCreate(V1ConfigMap object) {
						return List.of("data.x is deprecated");
					}
				}, this.panics::incrementAndGet);
		JsonObject response = answer(handler, review("CREATE", "{\"data\": {\"x\": \"1\"}}", null));
		assertThat(response.get("uid").getAsString()).isEqualTo("u-1");
		assertThat(response.get("allowed").getAsBoolean()).isTrue();
		assertThat(response.getAsJsonArray("warnings").get(0).getAsString()).isEqualTo("data.x is deprecated");
	}

	@Test
	void updateIsValidatedAgainstTheOldObjectAndDeniedWithTheMessage() throws Exception {
		AdmissionHandler<V1ConfigMap> handler = AdmissionHandler.validating(V1ConfigMap.class, new JSON().getGson(),
				new AdmissionValidator<>() {
					@Override
					public List<String> validateUpdate(V1ConfigMap old, V1ConfigMap object)
							throws AdmissionDeniedException {
						if (!old.getData().get("x").equals(object.getData().get("x"))) {
							throw new AdmissionDeniedException("data.x is immutable");
						}
						return List.of();
					}
				}, this.panics::incrementAndGet);
		JsonObject response = answer(handler,
				review("UPDATE", "{\"data\": {\"x\": \"2\"}}", "{\"data\": {\"x\": \"1\"}}"));
		assertThat(response.get("allowed").getAsBoolean()).isFalse();
		assertThat(response.getAsJsonObject("status").get("message").getAsString()).isEqualTo("data.x is immutable");
		assertThat(response.getAsJsonObject("status").get("code").getAsInt()).isEqualTo(403);
		assertThat(this.panics).hasValue(0);
	}

	@Test
	void unexpectedExceptionDeniesAndCountsAPanic() throws Exception {
		AdmissionHandler<V1ConfigMap> handler = AdmissionHandler.validating(V1ConfigMap.class, new JSON().getGson(),
				new AdmissionValidator<>() {
					@Override
					public List<String> validateCreate(V1ConfigMap object) {
						throw new IllegalStateException("bug");
					}
				}, this.panics::incrementAndGet);
		JsonObject response = answer(handler, review("CREATE", "{}", null));
		assertThat(response.get("allowed").getAsBoolean()).isFalse();
		// the exception's text is for the log, not for whoever made the request
		assertThat(response.getAsJsonObject("status").get("message").getAsString())
			.isEqualTo("the webhook failed (IllegalStateException); the operator's log says why");
		assertThat(this.panics).hasValue(1);
	}

	@Test
	void illegalArgumentFromTheValidatorDeniesWithItsMessage() throws Exception {
		// URI.create, Integer.parseInt and argument checks throw IllegalArgumentException
		AdmissionHandler<V1ConfigMap> handler = AdmissionHandler.validating(V1ConfigMap.class, new JSON().getGson(),
				new AdmissionValidator<>() {
					@Override
					public List<String> validateCreate(V1ConfigMap object) {
						throw new IllegalArgumentException("data.endpoint must be an http(s) URL");
					}
				}, this.panics::incrementAndGet);
		JsonObject response = answer(handler, review("CREATE", "{}", null));
		assertThat(response.get("allowed").getAsBoolean()).isFalse();
		assertThat(response.getAsJsonObject("status").get("code").getAsInt()).isEqualTo(403);
		assertThat(response.getAsJsonObject("status").get("message").getAsString())
			.isEqualTo("data.endpoint must be an http(s) URL");
		assertThat(this.panics).hasValue(1);
	}

	@Test
	void illegalArgumentFromTheDefaulterDeniesWithItsMessage() throws Exception {
		AdmissionHandler<V1ConfigMap> handler = AdmissionHandler.mutating(V1ConfigMap.class, new JSON().getGson(),
				(configMap) -> Integer.parseInt("ten"), this.panics::incrementAndGet);
		JsonObject response = answer(handler, review("CREATE", "{}", null));
		assertThat(response.get("allowed").getAsBoolean()).isFalse();
		assertThat(response.getAsJsonObject("status").get("message").getAsString())
			.isEqualTo("For input string: \"ten\"");
	}

	@Test
	void deleteIsValidatedWithTheOldObject() throws Exception {
		AdmissionHandler<V1ConfigMap> handler = AdmissionHandler.validating(V1ConfigMap.class, new JSON().getGson(),
				new AdmissionValidator<>() {
					@Override
					public List<String> validateDelete(V1ConfigMap object) throws AdmissionDeniedException {
						throw new AdmissionDeniedException(
								"ConfigMap " + object.getMetadata().getName() + " is protected");
					}
				}, this.panics::incrementAndGet);
		JsonObject response = answer(handler, review("DELETE", "null", "{\"metadata\": {\"name\": \"keep\"}}"));
		assertThat(response.get("allowed").getAsBoolean()).isFalse();
		assertThat(response.getAsJsonObject("status").get("message").getAsString())
			.isEqualTo("ConfigMap keep is protected");
		assertThat(this.panics).hasValue(0);
	}

	@Test
	void reviewWithoutTheObjectItsOperationNeedsIsMalformed() {
		AdmissionHandler<V1ConfigMap> handler = AdmissionHandler.validating(V1ConfigMap.class, new JSON().getGson(),
				new AdmissionValidator<>() {
				}, this.panics::incrementAndGet);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> handler.handle(review("UPDATE", "{}", null).getBytes(StandardCharsets.UTF_8)))
			.withMessage("the AdmissionReview has no oldObject");
	}

	@Test
	void defaulterAnswersTheJsonPatchOfItsChangesOnly() throws Exception {
		AdmissionHandler<Bucket> handler = AdmissionHandler.mutating(Bucket.class, new JSON().getGson(), (bucket) -> {
			Map<String, Object> spec = new HashMap<>(bucket.getSpec());
			spec.putIfAbsent("size", "small");
			bucket.setSpec(spec);
		}, this.panics::incrementAndGet);
		// "unknownField" is not in the model: the patch must not remove it
		JsonObject response = answer(handler,
				review("CREATE", "{\"spec\": {\"x\": \"1\"}, \"unknownField\": true}", null));
		assertThat(response.get("allowed").getAsBoolean()).isTrue();
		assertThat(response.get("patchType").getAsString()).isEqualTo("JSONPatch");
		JsonArray patch = JsonParser
			.parseString(
					new String(Base64.getDecoder().decode(response.get("patch").getAsString()), StandardCharsets.UTF_8))
			.getAsJsonArray();
		assertThat(patch.toString()).isEqualTo("[{\"op\":\"add\",\"path\":\"/spec/size\",\"value\":\"small\"}]");
	}

	@Test
	void defaulterAddingTheFirstLabelAddsTheLabelsTheRequestHasNot() throws Exception {
		// the model writes empty labels, annotations and lists back; the request has
		// none, so
		// a patch adding one label to the model's labels would name a path the API server
		// cannot find
		AdmissionHandler<V1ConfigMap> handler = AdmissionHandler.mutating(V1ConfigMap.class, new JSON().getGson(),
				(configMap) -> configMap.getMetadata().putLabelsItem("example.com/owner", "unassigned"),
				this.panics::incrementAndGet);
		JsonObject response = answer(handler,
				review("CREATE", "{\"metadata\": {\"name\": \"cm\"}, \"data\": {\"x\": \"1\"}}", null));
		JsonArray patch = JsonParser
			.parseString(
					new String(Base64.getDecoder().decode(response.get("patch").getAsString()), StandardCharsets.UTF_8))
			.getAsJsonArray();
		assertThat(patch.toString()).isEqualTo(
				"[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\"example.com/owner\":\"unassigned\"}}]");
	}

	@Test
	void objectThatDoesNotDecodeIsDeniedWithTheReason() throws Exception {
		AdmissionHandler<V1ConfigMap> handler = AdmissionHandler.validating(V1ConfigMap.class, new JSON().getGson(),
				new AdmissionValidator<>() {
				}, this.panics::incrementAndGet);
		JsonObject response = answer(handler, review("CREATE", "{\"data\": \"not a map\"}", null));
		assertThat(response.get("allowed").getAsBoolean()).isFalse();
		assertThat(response.getAsJsonObject("status").get("message").getAsString())
			.startsWith("the object does not decode into V1ConfigMap: ");
		assertThat(this.panics).hasValue(0);
	}

	@Test
	void defaulterThatChangesNothingAnswersNoPatch() throws Exception {
		AdmissionHandler<V1ConfigMap> handler = AdmissionHandler.mutating(V1ConfigMap.class, new JSON().getGson(),
				(configMap) -> {
				}, this.panics::incrementAndGet);
		JsonObject response = answer(handler, review("CREATE", "{\"data\": {\"x\": \"1\"}}", null));
		assertThat(response.has("patch")).isFalse();
	}

	@Test
	void reviewWithoutARequestIsMalformed() {
		AdmissionHandler<V1ConfigMap> handler = AdmissionHandler.validating(V1ConfigMap.class, new JSON().getGson(),
				new AdmissionValidator<>() {
				}, this.panics::incrementAndGet);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> handler.handle("{\"kind\": \"AdmissionReview\"}".getBytes(StandardCharsets.UTF_8)))
			.withMessage("an AdmissionReview without a request uid");
	}

	@Test
	void theSpanNamesTheHandlersKindAndAKnownOperationWhateverTheReviewSays() throws Exception {
		AdmissionHandler<V1ConfigMap> handler = AdmissionHandler.validating(V1ConfigMap.class, new JSON().getGson(),
				new AdmissionValidator<>() {
				}, this.panics::incrementAndGet);
		List<String> answered = new ArrayList<>();
		OperatorTracing.WebhookSpan span = new OperatorTracing.WebhookSpan() {

			@Override
			public OperatorTracing.Scope openScope() {
				return OperatorTracing.Scope.NOOP;
			}

			@Override
			public void answered(String kind, String operation, boolean allowed) {
				answered.add(kind + " " + operation);
			}

			@Override
			public void end(int statusCode, @Nullable Throwable error) {
			}

		};
		String review = "{\"apiVersion\": \"admission.k8s.io/v1\", \"kind\": \"AdmissionReview\", \"request\": "
				+ "{\"uid\": \"u-1\", \"kind\": {\"group\": \"\", \"version\": \"v1\", \"kind\": \"Kind-7f3a\"}, "
				+ "\"operation\": \"OPERATION-7f3a\", \"object\": {\"metadata\": {\"name\": \"a\"}}}}";

		handler.handle(review.getBytes(StandardCharsets.UTF_8), span);
		handler.handle(review("DELETE", "null", "{\"data\": {}}").getBytes(StandardCharsets.UTF_8), span);

		assertThat(answered).containsExactly("ConfigMap other", "ConfigMap DELETE");
	}

	private static JsonObject answer(AdmissionHandler<?> handler, String review) throws Exception {
		JsonObject answer = JsonParser
			.parseString(new String(handler.handle(review.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8))
			.getAsJsonObject();
		assertThat(answer.get("kind").getAsString()).isEqualTo("AdmissionReview");
		assertThat(answer.get("apiVersion").getAsString()).isEqualTo("admission.k8s.io/v1");
		return answer.getAsJsonObject("response");
	}

	private static String review(String operation, String object, String oldObject) {
		return "{\"apiVersion\": \"admission.k8s.io/v1\", \"kind\": \"AdmissionReview\", \"request\": {\"uid\": \"u-1\", "
				+ "\"operation\": \"" + operation + "\", \"name\": \"cm\", \"object\": " + object
				+ ((oldObject != null) ? ", \"oldObject\": " + oldObject : "") + "}}";
	}

	@KubernetesKind(group = "storage.example.com", version = "v1", kind = "Bucket")
	static class Bucket extends CustomResource<Map<String, Object>, Map<String, Object>> {

	}

}
