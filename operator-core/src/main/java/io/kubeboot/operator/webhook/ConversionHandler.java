package io.kubeboot.operator.webhook;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import io.kubeboot.operator.tracing.OperatorTracing;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers the API server's {@code ConversionReview} for every kind registered with it, as
 * controller-runtime's conversion webhook does on {@code /convert}: each object is
 * decoded into the model class of its version, converted through the hub to the desired
 * version, and answered with its {@code apiVersion} set and its metadata as it came,
 * except the labels and annotations that the conversion changed. One object that cannot
 * be converted fails the whole review with the reason.
 */
final class ConversionHandler implements WebhookServer.WebhookHandler {

	private static final Logger logger = LoggerFactory.getLogger(ConversionHandler.class);

	/** The conversions by {@code <kind>.<group>}. */
	private final Map<String, Conversion<?>> conversions = new ConcurrentHashMap<>();

	private final Runnable onPanic;

	ConversionHandler(Runnable onPanic) {
		this.onPanic = onPanic;
	}

	/**
	 * Adds the conversions of a kind.
	 * @param conversion the conversion
	 * @throws IllegalArgumentException if the kind has one already
	 */
	void add(Conversion<?> conversion) {
		Conversion<?> other = this.conversions.putIfAbsent(key(conversion.kind(), conversion.group()), conversion);
		if (other != null) {
			throw new IllegalArgumentException("A conversion for " + conversion.kind() + "." + conversion.group()
					+ " is already registered at " + ConversionWebhook.PATH + " (" + other
					+ "): a kind has one hub; name all its spokes in one Conversion");
		}
	}

	@Override
	public byte[] handle(byte[] body) {
		return handle(body, OperatorTracing.WebhookSpan.NOOP);
	}

	@Override
	public byte[] handle(byte[] body, OperatorTracing.WebhookSpan span) {
		JsonObject review;
		try {
			review = JsonParser.parseString(new String(body, StandardCharsets.UTF_8)).getAsJsonObject();
		}
		catch (JsonParseException | IllegalStateException ex) {
			throw new IllegalArgumentException("not a ConversionReview: " + ex.getMessage(), ex);
		}
		JsonObject request = (review.get("request") instanceof JsonObject object) ? object : null;
		if (request == null || !isString(request.get("uid"))) {
			throw new IllegalArgumentException("a ConversionReview without a request uid");
		}
		if (!isString(request.get("desiredAPIVersion"))) {
			throw new IllegalArgumentException("a ConversionReview without a desiredAPIVersion");
		}
		if (!(request.get("objects") instanceof JsonArray objects)) {
			throw new IllegalArgumentException("a ConversionReview without objects");
		}
		String desired = request.get("desiredAPIVersion").getAsString();
		JsonObject response = new JsonObject();
		response.addProperty("uid", request.get("uid").getAsString());
		JsonArray converted = new JsonArray();
		JsonObject result = new JsonObject();
		try {
			for (JsonElement object : objects) {
				converted.add(convert(object, desired));
			}
			result.addProperty("status", "Success");
		}
		catch (ConversionFailure ex) {
			converted = new JsonArray();
			result.addProperty("status", "Failure");
			result.addProperty("message", ex.getMessage());
		}
		response.add("convertedObjects", converted);
		response.add("result", result);
		span.answered(knownKind(objects), "CONVERT", "Success".equals(result.get("status").getAsString()));
		JsonObject answer = new JsonObject();
		answer.addProperty("apiVersion", isString(review.get("apiVersion")) ? review.get("apiVersion").getAsString()
				: "apiextensions.k8s.io/v1");
		answer.addProperty("kind", "ConversionReview");
		answer.add("response", response);
		return answer.toString().getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * The kind of a review's objects for its span, if it has a conversion here, else
	 * {@code other}: the span's keys become the tags of a meter, and a review's body is
	 * anyone's who reaches the port.
	 */
	private String knownKind(JsonArray objects) {
		for (JsonElement object : objects) {
			if (object instanceof JsonObject fields && isString(fields.get("kind"))
					&& isString(fields.get("apiVersion"))) {
				String kind = fields.get("kind").getAsString();
				return this.conversions.containsKey(key(kind, group(fields.get("apiVersion").getAsString()))) ? kind
						: "other";
			}
		}
		return "other";
	}

	private JsonObject convert(JsonElement element, String desired) throws ConversionFailure {
		if (!(element instanceof JsonObject object) || !isString(object.get("apiVersion"))
				|| !isString(object.get("kind"))) {
			throw new IllegalArgumentException("a ConversionReview object without apiVersion and kind");
		}
		String apiVersion = object.get("apiVersion").getAsString();
		String kind = object.get("kind").getAsString();
		String group = group(apiVersion);
		String name = name(object);
		Conversion<?> conversion = this.conversions.get(key(kind, group));
		if (conversion == null) {
			throw new ConversionFailure("no conversion for " + kind + "." + group + " (" + name + ") is registered at "
					+ ConversionWebhook.PATH + "; it converts " + new TreeMap<>(this.conversions).keySet());
		}
		if (!group.equals(group(desired))) {
			throw new ConversionFailure("cannot convert " + kind + " " + name + " from " + apiVersion + " to " + desired
					+ ": conversions stay within the group " + group);
		}
		Class<? extends KubernetesObject> source = type(conversion, version(apiVersion), name);
		Class<? extends KubernetesObject> target = type(conversion, version(desired), name);
		if (source == target) {
			return object.deepCopy(); // the API server sends none: nothing to convert
		}
		KubernetesObject decoded;
		try {
			decoded = conversion.gson().fromJson(object, source);
		}
		catch (JsonParseException | IllegalArgumentException | IllegalStateException ex) {
			throw new ConversionFailure(
					kind + " " + name + " does not decode into " + source.getSimpleName() + ": " + ex.getMessage());
		}
		JsonElement before = conversion.gson().toJsonTree(decoded.getMetadata(), V1ObjectMeta.class);
		KubernetesObject result;
		try {
			result = conversion.convert(decoded, target);
		}
		catch (Exception ex) {
			String message = (ex.getMessage() != null) ? ex.getMessage() : ex.getClass().getName();
			if (ex instanceof InterruptedException) {
				// past the deadline: the server answered the API server already
				Thread.currentThread().interrupt();
			}
			else if (!(ex instanceof ConversionException)) {
				this.onPanic.run();
				logger.warn("Conversion code threw, failing the conversion: kind={} name={} from={} to={} error=\"{}\"",
						kind, name, apiVersion, desired, message, ex);
				// its text is for the operator's log, not for whoever made the request
				message = "the conversion code threw " + ex.getClass().getSimpleName()
						+ "; the operator's log says why";
			}
			throw new ConversionFailure("converting " + kind + " " + name + " from " + apiVersion + " to " + desired
					+ " failed: " + message);
		}
		JsonObject answer = conversion.gson().toJsonTree(result, target).getAsJsonObject();
		answer.addProperty("apiVersion", desired);
		answer.addProperty("kind", kind);
		answer.add("metadata", metadata(object.get("metadata"), before, answer.get("metadata")));
		return answer;
	}

	/**
	 * Returns the metadata as it came, with the labels and annotations of the converted
	 * object if the conversion changed them: the API server ignores any other change.
	 */
	private static JsonObject metadata(@Nullable JsonElement original, JsonElement decoded,
			@Nullable JsonElement converted) {
		JsonObject metadata = (original instanceof JsonObject object) ? object.deepCopy() : new JsonObject();
		JsonObject before = (decoded instanceof JsonObject object) ? object : new JsonObject();
		JsonObject after = (converted instanceof JsonObject object) ? object : new JsonObject();
		for (String field : new String[] { "labels", "annotations" }) {
			if (!Objects.equals(before.get(field), after.get(field))) {
				if (after.get(field) == null || after.get(field).isJsonNull()) {
					metadata.remove(field);
				}
				else {
					metadata.add(field, after.get(field).deepCopy());
				}
			}
		}
		return metadata;
	}

	private static Class<? extends KubernetesObject> type(Conversion<?> conversion, String version, String name)
			throws ConversionFailure {
		Class<? extends KubernetesObject> type = conversion.type(version);
		if (type == null) {
			throw new ConversionFailure("version " + version + " of " + conversion.kind() + "." + conversion.group()
					+ " (" + name + ") has no model class: " + conversion.hubVersion() + " is the hub, "
					+ String.join(", ", conversion.versions().subList(1, conversion.versions().size()))
					+ " the spokes");
		}
		return type;
	}

	private static String name(JsonObject object) {
		if (object.get("metadata") instanceof JsonObject metadata) {
			String name = isString(metadata.get("name")) ? metadata.get("name").getAsString() : "";
			return isString(metadata.get("namespace")) ? metadata.get("namespace").getAsString() + "/" + name : name;
		}
		return "";
	}

	private static String key(String kind, String group) {
		return kind + "." + group;
	}

	private static String group(String apiVersion) {
		int slash = apiVersion.indexOf('/');
		return (slash < 0) ? "" : apiVersion.substring(0, slash);
	}

	private static String version(String apiVersion) {
		return apiVersion.substring(apiVersion.indexOf('/') + 1);
	}

	private static boolean isString(@Nullable JsonElement element) {
		return element != null && element.isJsonPrimitive() && element.getAsJsonPrimitive().isString();
	}

	/** An object that cannot be converted: the review fails with the reason. */
	private static final class ConversionFailure extends Exception {

		private static final long serialVersionUID = 1L;

		ConversionFailure(String message) {
			super(message, null, false, false);
		}

	}

}
