package io.kubeboot.operator.client;

import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubeboot.operator.client.ApiServerException.FieldCause;
import io.kubeboot.operator.client.internal.Answers;
import io.kubeboot.operator.client.internal.CallDeadline;
import io.kubeboot.operator.client.internal.ModelReading;
import io.kubeboot.operator.client.internal.RetryAfter;
import io.kubeboot.operator.client.internal.StatusMessages;
import io.kubeboot.operator.client.internal.TooManyRequestsRetry;
import io.kubeboot.operator.client.internal.WriteFence;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import okhttp3.Call;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends one REST call for a resource and turns the answer into the model type (read by
 * {@link Answers}) or a typed {@link ApiServerException}. Bodies are sent as bytes with
 * the content type of the operation (JSON, a merge, JSON or strategic merge patch, an
 * apply).
 * <p>
 * A call answered 429 Too Many Requests is sent again after the answer's Retry-After (see
 * {@link TooManyRequestsRetry#withinTimeout}). A write is checked against the
 * {@link WriteFence} before every attempt, so a retry after a wait cannot outlive this
 * replica's leadership, and may take no longer than the fence has left: one still
 * unanswered when the fence closes is cancelled then. Every call, read or write, is
 * checked the same way against the {@link CallDeadline} of the work that makes it (a
 * reconcile's timeout).
 */
final class RestCalls {

	private static final Logger logger = LoggerFactory.getLogger(RestCalls.class);

	private static final String[] AUTH = { "BearerToken" };

	private final ApiClient client;

	private final TooManyRequestsRetry retry;

	private final Gson answers;

	/**
	 * Creates calls through a client.
	 * @param client the client, with the timeouts the calls should have
	 * @param timeout the client's timeout of one call, which also bounds the waits of its
	 * retries
	 */
	RestCalls(ApiClient client, Duration timeout) {
		this.client = client;
		this.retry = TooManyRequestsRetry.withinTimeout(timeout);
		this.answers = ModelReading.gson(client);
	}

	/**
	 * Sends a call and reads the answer.
	 * @param <T> the answer's type
	 * @param method the HTTP method
	 * @param path the path below the server's base path
	 * @param query query parameters as name, value pairs
	 * @param body the body, or {@code null}
	 * @param contentType the body's content type
	 * @param answer the type to read the answer as, or {@code null} to ignore it
	 * @return the answer, {@code null} if ignored
	 * @throws ApiServerException typed by the status code
	 * @throws WriteFence.LeadershipLostException if the call is a write of leader-only
	 * work and this replica no longer leads, or stopped leading before it was answered
	 * @throws CallDeadline.DeadlineExceededException if the deadline of the work making
	 * the call passed before it was sent or answered
	 */
	<T> @Nullable T send(String method, String path, List<String> query, byte @Nullable [] body, String contentType,
			@Nullable Type answer) {
		return send(method, path, query, body, contentType, answer, null);
	}

	/**
	 * Sends a call and reads the answer, as
	 * {@link #send(String, String, List, byte[], String, Type)} does, telling the status
	 * code of a successful answer.
	 * @param <T> the answer's type
	 * @param method the HTTP method
	 * @param path the path below the server's base path
	 * @param query query parameters as name, value pairs
	 * @param body the body, or {@code null}
	 * @param contentType the body's content type
	 * @param answer the type to read the answer as, or {@code null} to ignore it
	 * @param answered told the status code of the successful answer, or {@code null}
	 * @return the answer, {@code null} if ignored
	 */
	<T> @Nullable T send(String method, String path, List<String> query, byte @Nullable [] body, String contentType,
			@Nullable Type answer, @Nullable IntConsumer answered) {
		List<Pair> params = new ArrayList<>();
		for (int i = 0; i + 1 < query.size(); i += 2) {
			params.add(new Pair(query.get(i), query.get(i + 1)));
		}
		Map<String, String> headers = new HashMap<>();
		headers.put("Accept", "application/json");
		headers.put("Content-Type", contentType);
		String what = method + " " + path;
		try {
			return this.retry.call(() -> {
				Duration left = shorter("GET".equals(method) ? null : WriteFence.check(), CallDeadline.check());
				// buildCall adds the credentials to the headers: a fresh copy each time
				Call call = this.client.buildCall(null, path, method, new ArrayList<>(params), List.of(), body,
						new HashMap<>(headers), Map.of(), Map.of(), AUTH, null);
				limit(call, left);
				try {
					Answers.Answer<T> read = Answers.execute(what, this.answers, call, answer);
					if (answered != null) {
						answered.accept(read.code());
					}
					return read.data();
				}
				catch (ApiException ex) {
					if (left != null && ex.getCode() == 0) {
						// unanswered: cut off by the fence closing or the deadline, if
						// either has
						WriteFence.failed(ex);
						CallDeadline.failed(ex);
					}
					throw ex;
				}
			}, (throttled, wait, attempt) -> logger.debug(
					"Throttled by the API server, retrying after its Retry-After: call=\"{}\" retry={} wait={}s", what,
					attempt, wait.toSeconds()));
		}
		catch (ApiException ex) {
			throw typed(what, ex);
		}
	}

	private static @Nullable Duration shorter(@Nullable Duration one, @Nullable Duration other) {
		if (one == null || other == null) {
			return (one != null) ? one : other;
		}
		return (one.compareTo(other) <= 0) ? one : other;
	}

	/**
	 * Shortens a call's timeout to a limit, if that is shorter.
	 * @param call the call, not yet executed
	 * @param limit how long the whole call may take, {@code null} for no limit
	 */
	private static void limit(Call call, @Nullable Duration limit) {
		if (limit != null) {
			long timeoutNanos = call.timeout().timeoutNanos();
			if (timeoutNanos == 0 || limit.toNanos() < timeoutNanos) {
				call.timeout().timeout(Math.max(1, limit.toNanos()), TimeUnit.NANOSECONDS);
			}
		}
	}

	/**
	 * Serialises a body.
	 * @param json the JSON text
	 * @return its UTF-8 bytes
	 */
	static byte[] bytes(String json) {
		return json.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Turns client-java's exception into the typed one of its status code.
	 * @param what the call, for the message
	 * @param ex the exception
	 * @return the typed exception
	 */
	static ApiServerException typed(String what, ApiException ex) {
		JsonObject status = status(ex.getResponseBody());
		String reason = string(status, "reason");
		String message = what + " failed: " + ex.getCode() + " " + ((reason != null) ? reason + ": " : "")
				+ ((string(status, "message") != null) ? string(status, "message") : StatusMessages.describe(ex));
		return switch (ex.getCode()) {
			case 404 -> new ApiServerException.NotFoundException(message, ex);
			case 409 -> "AlreadyExists".equals(reason) ? new ApiServerException.AlreadyExistsException(message, ex)
					: new ApiServerException.ConflictException(message, ex);
			case 403 -> new ApiServerException.ForbiddenException(message, ex);
			case 422 -> new ApiServerException.InvalidException(message, causes(status), ex);
			case 429 ->
				new ApiServerException.TooManyRequestsException(message, RetryAfter.parse(ex.getResponseHeaders()), ex);
			default -> new ApiServerException(message, ex.getCode(), reason, ex);
		};
	}

	private static @Nullable JsonObject status(@Nullable String body) {
		if (body == null || body.isBlank()) {
			return null;
		}
		try {
			return JsonParser.parseString(body).getAsJsonObject();
		}
		catch (RuntimeException ex) {
			return null; // not a Status: the message says what we know
		}
	}

	private static List<FieldCause> causes(@Nullable JsonObject status) {
		List<FieldCause> causes = new ArrayList<>();
		if (status != null && status.has("details") && status.getAsJsonObject("details").has("causes")) {
			status.getAsJsonObject("details").getAsJsonArray("causes").forEach((element) -> {
				JsonObject cause = element.getAsJsonObject();
				causes.add(new FieldCause(string(cause, "field"), string(cause, "reason"), string(cause, "message")));
			});
		}
		return causes;
	}

	private static @Nullable String string(@Nullable JsonObject object, String field) {
		return (object != null && object.has(field) && object.get(field).isJsonPrimitive())
				? object.get(field).getAsString() : null;
	}

}
