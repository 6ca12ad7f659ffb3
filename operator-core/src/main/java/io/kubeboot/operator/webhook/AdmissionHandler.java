package io.kubeboot.operator.webhook;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import io.kubeboot.operator.client.internal.KindResolver;
import io.kubeboot.operator.tracing.OperatorTracing;
import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers the API server's {@code AdmissionReview} for one kind: decodes the object (and
 * the old object) into the model class, runs the validator or the defaulter, and answers
 * allowed, denied with the exception's message, or allowed with the JSON patch of the
 * defaults. The patch compares the decoded object before and after the defaulter, so
 * fields the model class does not know are never removed.
 *
 * @param <T> the model type
 */
final class AdmissionHandler<T extends KubernetesObject> implements WebhookServer.WebhookHandler {

	private static final Logger logger = LoggerFactory.getLogger(AdmissionHandler.class);

	private final Class<T> type;

	/** The handler's kind, as its span names it whatever a review says. */
	private final String kind;

	private final Gson gson;

	private final @Nullable AdmissionValidator<T> validator;

	private final @Nullable Defaulter<T> defaulter;

	private final java.lang.Runnable onPanic;

	private AdmissionHandler(Class<T> type, Gson gson, @Nullable AdmissionValidator<T> validator,
			@Nullable Defaulter<T> defaulter, java.lang.Runnable onPanic) {
		this.type = type;
		this.kind = KindResolver.declaredKind(type).kind();
		this.gson = gson;
		this.validator = validator;
		this.defaulter = defaulter;
		this.onPanic = onPanic;
	}

	static <T extends KubernetesObject> AdmissionHandler<T> validating(Class<T> type, Gson gson,
			AdmissionValidator<T> validator, java.lang.Runnable onPanic) {
		return new AdmissionHandler<>(type, gson, validator, null, onPanic);
	}

	static <T extends KubernetesObject> AdmissionHandler<T> mutating(Class<T> type, Gson gson, Defaulter<T> defaulter,
			java.lang.Runnable onPanic) {
		return new AdmissionHandler<>(type, gson, null, defaulter, onPanic);
	}

	@Override
	public byte[] handle(byte[] body) throws InterruptedException {
		return handle(body, OperatorTracing.WebhookSpan.NOOP);
	}

	@Override
	public byte[] handle(byte[] body, OperatorTracing.WebhookSpan span) throws InterruptedException {
		JsonObject review;
		try {
			review = JsonParser.parseString(new String(body, StandardCharsets.UTF_8)).getAsJsonObject();
		}
		catch (JsonParseException | IllegalStateException ex) {
			throw new IllegalArgumentException("not an AdmissionReview: " + ex.getMessage(), ex);
		}
		JsonObject request = review.has("request") && review.get("request").isJsonObject()
				? review.getAsJsonObject("request") : null;
		if (request == null || !request.has("uid")) {
			throw new IllegalArgumentException("an AdmissionReview without a request uid");
		}
		JsonObject response = new JsonObject();
		response.addProperty("uid", request.get("uid").getAsString());
		String operation = request.has("operation") ? request.get("operation").getAsString() : "";
		try {
			if (this.validator != null) {
				validate(operation, request, response);
			}
			else {
				applyDefaults(operation, request, response);
			}
		}
		catch (InterruptedException ex) {
			throw ex;
		}
		catch (Exception ex) {
			deny(response, ex, request);
		}
		span.answered(this.kind, knownOperation(operation), response.get("allowed").getAsBoolean());
		JsonObject answer = new JsonObject();
		answer.addProperty("apiVersion",
				review.has("apiVersion") ? review.get("apiVersion").getAsString() : "admission.k8s.io/v1");
		answer.addProperty("kind", "AdmissionReview");
		answer.add("response", response);
		return answer.toString().getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * The operation of a review for its span, one of a fixed set: the span's keys become
	 * the tags of a meter, and a review's body is anyone's who reaches the port.
	 */
	private static String knownOperation(String operation) {
		return switch (operation) {
			case "CREATE", "UPDATE", "DELETE", "CONNECT" -> operation;
			default -> "other";
		};
	}

	private void validate(String operation, JsonObject request, JsonObject response) throws Exception {
		AdmissionValidator<T> validator = this.validator;
		List<String> warnings = switch (operation) {
			case "CREATE" -> validator.validateCreate(decode(request, "object"));
			case "UPDATE" -> validator.validateUpdate(decode(request, "oldObject"), decode(request, "object"));
			case "DELETE" -> validator.validateDelete(decode(request, "oldObject"));
			default -> List.of();
		};
		response.addProperty("allowed", true);
		addWarnings(response, warnings);
	}

	private void applyDefaults(String operation, JsonObject request, JsonObject response) throws Exception {
		response.addProperty("allowed", true);
		if (!"CREATE".equals(operation) && !"UPDATE".equals(operation)) {
			return;
		}
		T object = decode(request, "object");
		// the patch applies to the object as the API server sent it, not as the model
		// writes
		// it back: the model drops fields it does not know and writes empty maps and
		// lists the
		// request has not (V1ObjectMeta's labels, for one). What the round trip alone
		// changes
		// is left out, so unknown fields stay and a first label adds the labels map
		JsonElement sent = request.get("object");
		JsonArray roundTrip = JsonPatches.diff(sent, this.gson.toJsonTree(object));
		this.defaulter.applyDefaults(object);
		JsonArray patch = JsonPatches.diff(sent, this.gson.toJsonTree(object));
		roundTrip.forEach(patch::remove);
		if (!patch.isEmpty()) {
			response.addProperty("patchType", "JSONPatch");
			response.addProperty("patch",
					Base64.getEncoder().encodeToString(patch.toString().getBytes(StandardCharsets.UTF_8)));
		}
	}

	private T decode(JsonObject request, String field) {
		if (!request.has(field) || !request.get(field).isJsonObject()) {
			throw new MalformedReviewException("the AdmissionReview has no " + field);
		}
		try {
			return this.gson.fromJson(request.get(field), this.type);
		}
		catch (JsonParseException | IllegalArgumentException | IllegalStateException ex) {
			throw new AdmissionDecodeException(
					"the " + field + " does not decode into " + this.type.getSimpleName() + ": " + ex.getMessage(), ex);
		}
	}

	private void deny(JsonObject response, Exception ex, JsonObject request) {
		String message = (ex.getMessage() != null) ? ex.getMessage() : ex.getClass().getSimpleName();
		if (ex instanceof MalformedReviewException malformed) {
			throw malformed; // the API server's review, not the object, is at fault: 400
		}
		if (!(ex instanceof AdmissionDeniedException) && !(ex instanceof AdmissionDecodeException)) {
			this.onPanic.run();
			logger.warn("Webhook code threw, denying: kind={} operation={} name={} error=\"{}\"",
					this.type.getSimpleName(), request.has("operation") ? request.get("operation").getAsString() : "",
					request.has("name") ? request.get("name").getAsString() : "", message, ex);
			if (!(ex instanceof IllegalArgumentException)) {
				// an unexpected exception's text (a failed request's answer, a path) is
				// for the operator's log, not for whoever made the request
				message = "the webhook failed (" + ex.getClass().getSimpleName() + "); the operator's log says why";
			}
		}
		JsonObject status = new JsonObject();
		status.addProperty("code", 403);
		status.addProperty("reason", "Forbidden");
		status.addProperty("message", message);
		response.addProperty("allowed", false);
		response.add("status", status);
	}

	private static void addWarnings(JsonObject response, @Nullable List<String> warnings) {
		if (warnings != null && !warnings.isEmpty()) {
			JsonArray array = new JsonArray();
			warnings.forEach(array::add);
			response.add("warnings", array);
		}
	}

	/**
	 * A review that lacks what its operation needs: answered 400, as a review that is not
	 * JSON. Any other exception while the webhook's code runs, an
	 * {@link IllegalArgumentException} of the user's included, denies the request.
	 */
	private static final class MalformedReviewException extends IllegalArgumentException {

		private static final long serialVersionUID = 1L;

		MalformedReviewException(String message) {
			super(message);
		}

	}

	/** An object that the model class cannot hold: denied with the reason. */
	private static final class AdmissionDecodeException extends IllegalArgumentException {

		private static final long serialVersionUID = 1L;

		AdmissionDecodeException(String message, Throwable cause) {
			super(message, cause);
		}

	}

}
