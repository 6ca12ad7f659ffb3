package io.kubeboot.operator.cache.internal;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import io.kubeboot.operator.client.internal.StatusMessages;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import io.kubernetes.client.openapi.models.V1Status;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.BufferedSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one informer's lists as a stream (Kubernetes' WatchList, beta and on by default
 * from 1.34): a watch with {@code sendInitialEvents=true} and
 * {@code resourceVersionMatch=NotOlderThan} sends every current object as an
 * {@code ADDED} event, then a bookmark annotated {@code k8s.io/initial-events-end} whose
 * resourceVersion is the list's. The API server serves it from its watch cache object by
 * object, never building the whole list in memory, and the objects are decoded one at a
 * time as they arrive. At the bookmark the stream is handed to the informer's next watch,
 * which goes on reading it from the list's resourceVersion, as a watch asked for then
 * would: no second request (or closed, if nothing takes it).
 * <p>
 * A server that does not stream lists (older than 1.27, or with the {@code WatchList}
 * feature off) refuses the request with 400 or 422: this informer then reads its lists in
 * pages ({@link ListPager}) from then on. A 400 refusing the informer's field selector is
 * no such refusal: it is thrown, as is every other failure, and the caller reads that one
 * list in pages, as client-go's reflector does.
 */
final class StreamingList {

	private static final Logger logger = LoggerFactory.getLogger(StreamingList.class);

	/** Whether lists are still to be streamed: until the server refuses once. */
	private volatile boolean enabled;

	/**
	 * Creates the streaming list of one informer.
	 * @param enabled whether to stream lists at all
	 */
	StreamingList(boolean enabled) {
		this.enabled = enabled;
	}

	/**
	 * Whether lists are streamed: asked for, and not refused by the server.
	 * @return whether {@link #read} is worth a try
	 */
	boolean enabled() {
		return this.enabled;
	}

	/**
	 * Reads one list as a stream.
	 * @param resourceVersion the resourceVersion the reflector lists at: {@code null},
	 * {@code ""} or {@code "0"} (client-java's first list) for the latest, a consistent
	 * read, else that one or later
	 * @param labelSelector the informer's label selector, or {@code null}
	 * @param fieldSelector the informer's field selector, or {@code null}
	 * @param sender sends the watch request and answers its successful response
	 * @param list receives the objects and the list's resourceVersion
	 * @param kind the kind, for the log
	 * @return {@code true} once read, {@code false} if the server does not stream lists:
	 * the caller pages instead, as it will from now on
	 * @throws ApiException if the request fails otherwise, or the stream ends before its
	 * initial events did
	 */
	boolean read(@Nullable String resourceVersion, @Nullable String labelSelector, @Nullable String fieldSelector,
			Sender sender, ObjectDecoder<?>.PagedList list, String kind) throws ApiException {
		return read(resourceVersion, labelSelector, fieldSelector, null, sender, list, kind, () -> {
		}, null);
	}

	/**
	 * Reads one list as a stream, as
	 * {@link #read(String, String, String, Sender, ObjectDecoder.PagedList, String)}
	 * does, and hands the stream on once its initial events are read.
	 * @param resourceVersion the resourceVersion the reflector lists at
	 * @param labelSelector the informer's label selector, or {@code null}
	 * @param fieldSelector the informer's field selector, or {@code null}
	 * @param timeoutSeconds how long the API server keeps the stream open, as a watch's
	 * {@code timeoutSeconds}; {@code null} for its default
	 * @param sender sends the watch request and answers its successful response
	 * @param list receives the objects and the list's resourceVersion
	 * @param kind the kind, for the log
	 * @param heard told when the API server answers the request and at every line of the
	 * stream: a list that streams for seconds is the API server heard from all along
	 * @param rest takes the response, open past the initial events, to watch on; if
	 * {@code null}, or if the list fails, the response is closed
	 * @return {@code true} once read, {@code false} if the server does not stream lists
	 * @throws ApiException if the request fails otherwise, or the stream ends before its
	 * initial events did
	 */
	boolean read(@Nullable String resourceVersion, @Nullable String labelSelector, @Nullable String fieldSelector,
			@Nullable Long timeoutSeconds, Sender sender, ObjectDecoder<?>.PagedList list, String kind, Runnable heard,
			@Nullable Consumer<Response> rest) throws ApiException {
		List<Pair> query = new ArrayList<>();
		query.add(new Pair("watch", "true"));
		query.add(new Pair("sendInitialEvents", "true"));
		query.add(new Pair("resourceVersionMatch", "NotOlderThan"));
		query.add(new Pair("allowWatchBookmarks", "true"));
		// "0" would take whatever the watch cache holds, which may miss the latest
		// writes: as client-go's reflector, the first streamed list is consistent instead
		if (resourceVersion != null && !resourceVersion.isEmpty() && !resourceVersion.equals("0")) {
			query.add(new Pair("resourceVersion", resourceVersion));
		}
		if (labelSelector != null) {
			query.add(new Pair("labelSelector", labelSelector));
		}
		if (fieldSelector != null) {
			query.add(new Pair("fieldSelector", fieldSelector));
		}
		if (timeoutSeconds != null) {
			query.add(new Pair("timeoutSeconds", String.valueOf(timeoutSeconds)));
		}
		Response response;
		try {
			response = sender.send(query);
		}
		catch (ApiException ex) {
			// a field selector the server does not support is refused with 400 too,
			// whether it streams lists or not
			if (refusesStreaming(ex.getCode()) && !ListWatchFailures.refusesFieldSelector(ex, fieldSelector)) {
				refused(kind, StatusMessages.describe(ex));
				return false;
			}
			throw ex;
		}
		boolean handedOn = false;
		try {
			heard.run();
			ResponseBody body = response.body();
			if (body == null) {
				throw new ApiException("A streamed list answered without a body", response.code(), null, null);
			}
			BufferedSource source = body.source();
			String line;
			while ((line = source.readUtf8Line()) != null) {
				heard.run();
				if (line.isBlank()) {
					continue;
				}
				try {
					if (list.readStreamedEvent(line)) {
						if (rest != null) {
							rest.accept(response);
							handedOn = true;
						}
						return true;
					}
				}
				catch (StreamedListException ex) {
					V1Status status = ex.status();
					if (status != null && status.getCode() != null && refusesStreaming(status.getCode())) {
						refused(kind, status.getCode() + " " + StatusMessages.reason(status.getCode()) + ": "
								+ status.getMessage());
						return false;
					}
					int code = (status != null && status.getCode() != null) ? status.getCode() : 0;
					throw new ApiException(ex.getMessage(), ex, code, null,
							(status != null) ? status.getMessage() : null);
				}
			}
			throw new ApiException("The streamed list ended before its initial events did");
		}
		catch (IOException ex) {
			throw new ApiException(ex);
		}
		finally {
			if (!handedOn) {
				response.close();
			}
		}
	}

	private static boolean refusesStreaming(int code) {
		return code == HttpURLConnection.HTTP_BAD_REQUEST || code == 422;
	}

	private void refused(String kind, String answer) {
		this.enabled = false;
		logger.info("The API server does not stream lists, listing in pages instead: kind={} answer=\"{}\"", kind,
				answer.replace('"', '\''));
	}

	/**
	 * Sends the watch request of a streamed list.
	 */
	@FunctionalInterface
	interface Sender {

		/**
		 * Sends the request.
		 * @param query its query parameters
		 * @return the successful response, whose body is the stream
		 * @throws ApiException if the request fails or is answered with an error
		 */
		Response send(List<Pair> query) throws ApiException;

	}

}
