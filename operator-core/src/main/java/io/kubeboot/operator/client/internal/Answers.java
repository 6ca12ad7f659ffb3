package io.kubeboot.operator.client.internal;

import java.io.IOException;
import java.lang.reflect.Type;
import java.util.Locale;

import com.google.gson.Gson;
import com.google.gson.JsonParseException;
import com.google.gson.reflect.TypeToken;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.MalformedJsonException;
import io.kubeboot.operator.client.ApiServerException;
import io.kubernetes.client.openapi.ApiException;
import okhttp3.Call;
import okhttp3.MediaType;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.jspecify.annotations.Nullable;

/**
 * Executes a call to the API server and reads its answer with {@link ModelReading}'s
 * Gson, straight from the response. Failures come as client-java's
 * {@code ApiClient.execute} reports them, which the callers' handling relies on: an
 * answer other than 2xx as an {@link ApiException} with its status code, headers and
 * body; a call that got no answer, or whose answer was cut off (a timeout, a
 * cancellation), as one without a status code.
 */
public final class Answers {

	private Answers() {
	}

	/**
	 * Executes a call and reads its answer.
	 * @param <T> the answer's type
	 * @param what the call, for messages, such as {@code GET /api/v1/namespaces}
	 * @param gson reads the answer: {@link ModelReading}'s, derived once by the caller
	 * @param call the call, not yet executed
	 * @param type the type to read the answer as, {@code null} to ignore it
	 * @return the status code and the answer, {@code null} if ignored or empty
	 * @throws ApiException if the answer is not 2xx, or none came in full
	 * @throws ApiServerException if a 2xx answer is not JSON (a proxy's page) or does not
	 * decode into the type; it names the call, the status code and where the answer is
	 * wrong, never a value of it
	 */
	public static <T> Answer<T> execute(String what, Gson gson, Call call, @Nullable Type type) throws ApiException {
		try (Response response = call.execute()) {
			int code = response.code();
			ResponseBody body = response.body();
			if (!response.isSuccessful()) {
				throw failure(response);
			}
			if (type == null || code == 204 || body == null) {
				return new Answer<>(code, null);
			}
			MediaType mediaType = body.contentType();
			if (mediaType != null && !isJson(mediaType)) {
				String shown = body.string().strip();
				throw new ApiServerException(what + " answered " + code + " with Content-Type " + mediaType
						+ ", not JSON: " + ((shown.length() > 300) ? shown.substring(0, 300) + "..." : shown), code,
						null, null);
			}
			JsonReader reader = new JsonReader(body.charStream());
			try {
				@SuppressWarnings("unchecked")
				TypeToken<T> token = (TypeToken<T>) TypeToken.get(type);
				T data = gson.fromJson(reader, token);
				// read to the end (the line break after the object), so that the
				// connection
				// sees the answer whole
				if (data != null) {
					reader.peek();
				}
				return new Answer<>(code, data);
			}
			catch (JsonParseException ex) {
				IOException cut = cutOff(ex);
				if (cut != null) {
					throw cut;
				}
				throw new ApiServerException(
						what + " answered " + code + " with a body that does not decode into "
								+ TypeToken.get(type).getRawType().getSimpleName() + ": "
								+ rootCause(ex).getClass().getSimpleName() + " at path " + reader.getPath(),
						code, null, null);
			}
		}
		catch (IOException ex) {
			// unanswered, or cut off while answering: no status code, as client-java
			// reports it
			throw new ApiException(ex);
		}
	}

	/**
	 * Executes a call whose answer the caller reads itself, such as a watch or a page of
	 * a list, and returns the answer once the API server accepted the call; the caller
	 * closes it.
	 * @param call the call, not yet executed
	 * @return the 2xx answer, with a body
	 * @throws ApiException as {@link #execute}: if the answer is not 2xx (or has no
	 * body), with its status code, headers and body, or if none came
	 */
	public static Response open(Call call) throws ApiException {
		Response response;
		try {
			response = call.execute();
		}
		catch (IOException ex) {
			throw new ApiException(ex);
		}
		if (!response.isSuccessful() || response.body() == null) {
			throw failure(response);
		}
		return response;
	}

	/**
	 * Returns the failure of an answer other than 2xx as client-java reports it, reading
	 * and closing its body.
	 */
	private static ApiException failure(Response response) {
		ResponseBody body = response.body();
		if (body == null) {
			return new ApiException(response.message(), response.code(), response.headers().toMultimap(), null);
		}
		try (body) {
			return new ApiException(response.message(), response.code(), response.headers().toMultimap(),
					body.string());
		}
		catch (IOException ex) {
			return new ApiException(response.message(), ex, response.code(), response.headers().toMultimap());
		}
	}

	/**
	 * The I/O failure that ended the read, not a JSON syntax error, if Gson wrapped one.
	 */
	private static @Nullable IOException cutOff(JsonParseException error) {
		for (Throwable cause = error.getCause(); cause != null; cause = cause.getCause()) {
			if (cause instanceof MalformedJsonException) {
				return null;
			}
			if (cause instanceof IOException io) {
				return io;
			}
		}
		return null;
	}

	private static Throwable rootCause(Throwable error) {
		Throwable root = error;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		return root;
	}

	/**
	 * As client-java's {@code isJsonMime}: {@code application/json}, any {@code +json},
	 * or {@code *}{@code /*}.
	 */
	private static boolean isJson(MediaType type) {
		String subtype = type.subtype().toLowerCase(Locale.ROOT);
		String kind = type.type().toLowerCase(Locale.ROOT);
		return ("application".equals(kind) && "json".equals(subtype)) || subtype.endsWith("+json")
				|| ("*".equals(kind) && "*".equals(subtype));
	}

	/**
	 * A successful answer.
	 *
	 * @param <T> the answer's type
	 * @param code its status code
	 * @param data the answer, {@code null} if ignored or empty
	 */
	public record Answer<T>(int code, @Nullable T data) {
	}

}
