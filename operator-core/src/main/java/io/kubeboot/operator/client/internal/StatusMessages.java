package io.kubeboot.operator.client.internal;

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiException;
import org.jspecify.annotations.Nullable;

/**
 * Extracts what a person needs from a failed API call: the HTTP reason and the message of
 * the {@code Status} object the API server returned.
 */
public final class StatusMessages {

	private StatusMessages() {
	}

	/**
	 * Describes a failed call for a log line or an error message: {@code 403 Forbidden:
	 * <the API server's message>} for an HTTP error, the root cause otherwise (a refused
	 * connection, a timeout).
	 * @param error the failure
	 * @return the description
	 */
	public static String describe(Throwable error) {
		if (error instanceof ApiException api && api.getCode() != 0) {
			String status = message(api);
			return api.getCode() + " " + reason(api.getCode()) + ((status != null) ? ": " + status : "");
		}
		Throwable root = error;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		return root.getClass().getSimpleName() + ((root.getMessage() != null) ? ": " + root.getMessage() : "");
	}

	/**
	 * Returns the {@code message} of the {@code Status} in the response body.
	 * @param exception the failed call
	 * @return the message, or {@code null} if the body holds none
	 */
	public static @Nullable String message(ApiException exception) {
		String body = exception.getResponseBody();
		if (body == null || body.isBlank()) {
			return null;
		}
		try {
			JsonElement json = JsonParser.parseString(body);
			if (json.isJsonObject() && json.getAsJsonObject().has("message")) {
				return json.getAsJsonObject().get("message").getAsString();
			}
		}
		catch (RuntimeException ex) {
			// not JSON: fall through to the raw body
		}
		// a plain-text body such as kube-apiserver's "404 page not found" ends in a
		// newline
		String text = body.strip();
		return text.length() > 300 ? text.substring(0, 300) + "..." : text;
	}

	/**
	 * Returns the reason phrase of an HTTP status code the API server uses.
	 * @param code the status code
	 * @return the reason phrase, empty for unusual codes
	 */
	public static String reason(int code) {
		return switch (code) {
			case 400 -> "Bad Request";
			case 401 -> "Unauthorized";
			case 403 -> "Forbidden";
			case 404 -> "Not Found";
			case 409 -> "Conflict";
			case 410 -> "Gone";
			case 422 -> "Unprocessable Entity";
			case 429 -> "Too Many Requests";
			case 500 -> "Internal Server Error";
			case 503 -> "Service Unavailable";
			case 504 -> "Gateway Timeout";
			default -> "";
		};
	}

}
