package io.kubeboot.operator.webhook;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubeboot.operator.tracing.OperatorTracing;
import io.kubeboot.operator.webhook.ConversionModels.Bucket;
import io.kubeboot.operator.webhook.ConversionModels.BucketV1alpha1;
import io.kubeboot.operator.webhook.ConversionModels.BucketV1beta1;
import io.kubeboot.operator.webhook.ConversionModels.Lamp;
import io.kubeboot.operator.webhook.ConversionModels.LampV1;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ConversionHandlerTests {

	private static final String METADATA = """
			{"name": "photos", "namespace": "storage", "uid": "0b0e2b6a-8a4e-4a55-9d1a-3f3f1f2c9b10",
			 "resourceVersion": "42", "generation": 3, "creationTimestamp": "2024-05-01T12:00:00Z",
			 "labels": {"app": "photos"}, "finalizers": ["storage.example.com/cleanup"],
			 "managedFields": [{"manager": "kubectl", "operation": "Update", "apiVersion": "storage.example.com/v1alpha1",
			   "time": "2024-05-01T12:00:00Z", "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {}}}]}
			""";

	private final AtomicInteger panics = new AtomicInteger();

	private final ConversionHandler handler = new ConversionHandler(this.panics::incrementAndGet);

	ConversionHandlerTests() {
		this.handler.add(Conversion.hub(Bucket.class).spokes(BucketV1alpha1.class, BucketV1beta1.class));
		this.handler.add(Conversion.hub(Lamp.class).spokes(LampV1.class));
	}

	@Test
	void spokeConvertsThroughTheHubToAnotherSpokeKeepingTheMetadata() throws Exception {
		JsonObject response = answer(review("storage.example.com/v1beta1",
				bucket("v1alpha1", "{\"sizeInGi\": 2, \"color\": \"red\"}", "{\"phase\": \"Ready\"}")));
		assertThat(response.get("uid").getAsString()).isEqualTo("u-1");
		assertThat(response.getAsJsonObject("result").get("status").getAsString()).isEqualTo("Success");
		JsonObject converted = response.getAsJsonArray("convertedObjects").get(0).getAsJsonObject();
		assertThat(converted.get("apiVersion").getAsString()).isEqualTo("storage.example.com/v1beta1");
		assertThat(converted.get("kind").getAsString()).isEqualTo("Bucket");
		assertThat(converted.get("spec")).isEqualTo(json("{\"sizeInMi\": 2048}"));
		assertThat(converted.get("status")).isEqualTo(json("{\"phase\": \"Ready\"}"));
		// the metadata as it came, plus the annotation the spoke keeps the hub's color in
		JsonObject metadata = json(METADATA).getAsJsonObject();
		metadata.add("annotations", json("{\"" + ConversionModels.COLOR + "\": \"red\"}"));
		assertThat(converted.get("metadata")).isEqualTo(metadata);
	}

	@Test
	void objectsConvertInOrderToAndFromTheHubAndThoseInTheDesiredVersionStayAsTheyAre() throws Exception {
		String alreadyDesired = bucket("v1alpha1", "{\"sizeInGi\": 7, \"color\": \"green\", \"unknown\": 1}", null);
		JsonObject response = answer(review("storage.example.com/v1alpha1",
				bucket("v1", "{\"size\": \"5Gi\", \"color\": \"blue\"}", null), alreadyDesired));
		JsonArray converted = response.getAsJsonArray("convertedObjects");
		assertThat(converted).hasSize(2);
		assertThat(converted.get(0).getAsJsonObject().get("apiVersion").getAsString())
			.isEqualTo("storage.example.com/v1alpha1");
		assertThat(converted.get(0).getAsJsonObject().get("spec"))
			.isEqualTo(json("{\"sizeInGi\": 5, \"color\": \"blue\"}"));
		assertThat(converted.get(0).getAsJsonObject().get("metadata")).isEqualTo(json(METADATA));
		assertThat(converted.get(1)).isEqualTo(json(alreadyDesired));

		response = answer(review("storage.example.com/v1", bucket("v1beta1", "{\"sizeInMi\": 3072}", null)));
		JsonObject hub = response.getAsJsonArray("convertedObjects").get(0).getAsJsonObject();
		assertThat(hub.get("apiVersion").getAsString()).isEqualTo("storage.example.com/v1");
		assertThat(hub.get("spec")).isEqualTo(json("{\"size\": \"3Gi\"}"));
	}

	@Test
	void kindsShareTheHandlerAndAreToldApartByGroupAndKind() throws Exception {
		String lamp = "{\"apiVersion\": \"home.example.com/v1\", \"kind\": \"Lamp\", \"metadata\": " + METADATA
				+ ", \"spec\": {\"state\": \"on\"}}";
		JsonObject response = answer(review("home.example.com/v2", lamp));
		JsonObject converted = response.getAsJsonArray("convertedObjects").get(0).getAsJsonObject();
		assertThat(converted.get("apiVersion").getAsString()).isEqualTo("home.example.com/v2");
		assertThat(converted.get("kind").getAsString()).isEqualTo("Lamp");
		assertThat(converted.get("spec")).isEqualTo(json("{\"on\": true}"));
	}

	@Test
	void refusedConversionFailsTheReviewWithTheMessage() throws Exception {
		JsonObject response = answer(
				review("storage.example.com/v1alpha1", bucket("v1", "{\"size\": \"5Gi\", \"color\": \"blue\"}", null),
						bucket("v1", "{\"size\": \"1.5Gi\", \"color\": \"blue\"}", null)));
		assertThat(response.getAsJsonArray("convertedObjects")).isEmpty();
		assertFailure(response, "converting Bucket storage/photos from storage.example.com/v1 to "
				+ "storage.example.com/v1alpha1 failed: spec.size 1.5Gi is not a whole number of Gi");
		assertThat(this.panics).hasValue(0);
	}

	@Test
	void unexpectedExceptionFailsTheReviewAndCountsAPanic() throws Exception {
		JsonObject response = answer(review("storage.example.com/v1alpha1",
				bucket("v1", "{\"size\": \"5Gi\", \"color\": \"panic\"}", null)));
		assertFailure(response,
				"converting Bucket storage/photos from storage.example.com/v1 to "
						+ "storage.example.com/v1alpha1 failed: the conversion code threw IllegalStateException; the "
						+ "operator's log says why");
		assertThat(this.panics).hasValue(1);
	}

	@Test
	void unknownKindFailsNamingItAndTheKnownOnes() throws Exception {
		String pail = "{\"apiVersion\": \"storage.example.com/v1\", \"kind\": \"Pail\", \"metadata\": " + METADATA
				+ "}";
		assertFailure(answer(review("storage.example.com/v1alpha1", pail)),
				"no conversion for Pail.storage.example.com (storage/photos) is registered at /convert; it converts "
						+ "[Bucket.storage.example.com, Lamp.home.example.com]");
	}

	@Test
	void unknownVersionFailsNamingTheVersions() throws Exception {
		assertFailure(answer(review("storage.example.com/v2", bucket("v1", "{\"size\": \"5Gi\"}", null))),
				"version v2 of Bucket.storage.example.com (storage/photos) has no model class: v1 is the hub, "
						+ "v1alpha1, v1beta1 the spokes");
		assertFailure(answer(review("storage.example.com/v1", bucket("v0", "{}", null))),
				"version v0 of Bucket.storage.example.com (storage/photos) has no model class: v1 is the hub, "
						+ "v1alpha1, v1beta1 the spokes");
	}

	@Test
	void conversionToAnotherGroupFails() throws Exception {
		assertFailure(answer(review("elsewhere.example.com/v1", bucket("v1alpha1", "{\"sizeInGi\": 1}", null))),
				"cannot convert Bucket storage/photos from storage.example.com/v1alpha1 to elsewhere.example.com/v1: "
						+ "conversions stay within the group storage.example.com");
	}

	@Test
	void objectThatDoesNotDecodeFailsWithTheReasonAndNoPanic() throws Exception {
		JsonObject response = answer(
				review("storage.example.com/v1", bucket("v1alpha1", "{\"sizeInGi\": \"lots\"}", null)));
		assertThat(response.getAsJsonObject("result").get("message").getAsString())
			.startsWith("Bucket storage/photos does not decode into BucketV1alpha1: ");
		assertThat(this.panics).hasValue(0);
	}

	@Test
	void malformedReviewsAreRefused() {
		assertMalformed("not json", "not a ConversionReview: ");
		assertMalformed("{\"kind\": \"ConversionReview\"}", "a ConversionReview without a request uid");
		assertMalformed("{\"request\": {\"uid\": \"u-1\", \"objects\": []}}",
				"a ConversionReview without a desiredAPIVersion");
		assertMalformed("{\"request\": {\"uid\": \"u-1\", \"desiredAPIVersion\": \"storage.example.com/v1\"}}",
				"a ConversionReview without objects");
		assertMalformed(review("storage.example.com/v1", "{\"metadata\": {}}"),
				"a ConversionReview object without apiVersion and kind");
	}

	@Test
	void conversionsOfSeveralKindsShareOnePathOnTheServer() {
		WebhookServer server = server();
		assertThat(ConversionWebhook.register(server, Conversion.hub(Bucket.class).spokes(BucketV1alpha1.class)))
			.isEqualTo("/convert");
		assertThat(ConversionWebhook.register(server, Conversion.hub(Lamp.class).spokes(LampV1.class)))
			.isEqualTo("/convert");
		assertThat(server.paths()).containsExactly("/convert");
	}

	@Test
	void secondConversionOfAKindIsRefused() {
		WebhookServer server = server();
		ConversionWebhook.register(server, Conversion.hub(Bucket.class).spokes(BucketV1alpha1.class));
		assertThatIllegalArgumentException()
			.isThrownBy(
					() -> ConversionWebhook.register(server, Conversion.hub(Bucket.class).spokes(BucketV1beta1.class)))
			.withMessage("A conversion for Bucket.storage.example.com is already registered at /convert "
					+ "(Conversion[Bucket.storage.example.com, hub v1=Bucket, spokes v1alpha1=BucketV1alpha1]): "
					+ "a kind has one hub; name all its spokes in one Conversion");
	}

	@Test
	void conversionOnAPathTakenByAnotherWebhookIsRefused() {
		WebhookServer server = server();
		server.register("/convert", (body) -> body);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ConversionWebhook.register(server, Conversion.hub(Lamp.class).spokes(LampV1.class)))
			.withMessage("Another webhook is already registered at /convert");
	}

	private static WebhookServer server() {
		return WebhookServer.builder(ServingCertificate.selfSigned(List.of("127.0.0.1"))).port(0).build();
	}

	private void assertMalformed(String review, String message) {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.handler.handle(review.getBytes(StandardCharsets.UTF_8)))
			.withMessageStartingWith(message);
	}

	private static void assertFailure(JsonObject response, String message) {
		assertThat(response.getAsJsonArray("convertedObjects")).isEmpty();
		assertThat(response.getAsJsonObject("result").get("status").getAsString()).isEqualTo("Failure");
		assertThat(response.getAsJsonObject("result").get("message").getAsString()).isEqualTo(message);
	}

	@Test
	void theSpanNamesOnlyAKindWithAConversion() throws Exception {
		List<String> answered = new ArrayList<>();
		OperatorTracing.WebhookSpan span = new OperatorTracing.WebhookSpan() {

			@Override
			public OperatorTracing.Scope openScope() {
				return OperatorTracing.Scope.NOOP;
			}

			@Override
			public void answered(String kind, String operation, boolean allowed) {
				answered.add(kind + " " + operation + " " + allowed);
			}

			@Override
			public void end(int statusCode, @Nullable Throwable error) {
			}

		};
		String unknown = "{\"apiVersion\": \"x.example.com/v1\", \"kind\": \"Kind-7f3a\", \"metadata\": " + METADATA
				+ "}";

		this.handler.handle(review("x.example.com/v2", unknown).getBytes(StandardCharsets.UTF_8), span);
		this.handler.handle(review("storage.example.com/v1beta1", bucket("v1alpha1", "{\"sizeInGi\": 2}", null))
			.getBytes(StandardCharsets.UTF_8), span);

		assertThat(answered).containsExactly("other CONVERT false", "Bucket CONVERT true");
	}

	private JsonObject answer(String review) throws Exception {
		JsonObject answer = json(
				new String(this.handler.handle(review.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8))
			.getAsJsonObject();
		assertThat(answer.get("apiVersion").getAsString()).isEqualTo("apiextensions.k8s.io/v1");
		assertThat(answer.get("kind").getAsString()).isEqualTo("ConversionReview");
		return answer.getAsJsonObject("response");
	}

	private static String review(String desiredApiVersion, String... objects) {
		return "{\"apiVersion\": \"apiextensions.k8s.io/v1\", \"kind\": \"ConversionReview\", \"request\": "
				+ "{\"uid\": \"u-1\", \"desiredAPIVersion\": \"" + desiredApiVersion + "\", \"objects\": ["
				+ String.join(", ", objects) + "]}}";
	}

	private static String bucket(String version, String spec, String status) {
		return "{\"apiVersion\": \"storage.example.com/" + version + "\", \"kind\": \"Bucket\", \"metadata\": "
				+ METADATA + ", \"spec\": " + spec + ((status != null) ? ", \"status\": " + status : "") + "}";
	}

	private static JsonElement json(String text) {
		return JsonParser.parseString(text);
	}

}
