package io.kubeboot.operator.cache.internal;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;

import com.google.gson.stream.JsonReader;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.client.internal.Answers;
import io.kubeboot.operator.client.internal.ResourceKind;
import io.kubeboot.operator.client.internal.StatusMessages;
import io.kubeboot.operator.client.internal.TooManyRequestsRetry;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ListerWatcher;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import io.kubernetes.client.openapi.models.V1ListMeta;
import io.kubernetes.client.util.CallGeneratorParams;
import io.kubernetes.client.util.Watchable;
import okhttp3.Call;
import okhttp3.Response;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lists and watches of one client-java informer of a {@link ScopedInformer}: lists
 * streamed or read in pages, and watches, all read object by object by the run's
 * {@link ObjectDecoder}, each reported to the informer through its
 * {@link ScopedInformer.Progress} (see {@link ScopedInformer} for the behaviour).
 *
 * @param <T> the model type stored
 */
final class InformerListerWatcher<T extends KubernetesObject> implements ListerWatcher<T, KubernetesListObject> {

	// the informer's logger, so that its log reads and is configured as one
	private static final Logger logger = LoggerFactory.getLogger(ScopedInformer.class);

	private static final TooManyRequestsRetry THROTTLED = TooManyRequestsRetry.untilInterrupted();

	private static final String JSON = "application/json";

	/**
	 * No compression: kube-apiserver may compress a streamed list as a series of gzip
	 * members, which OkHttp's transparent gzip cannot read past the first.
	 */
	private static final String IDENTITY = "identity";

	/** Lists of metadata only, falling back to whole objects where not supported. */
	private static final String METADATA_LIST = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,"
			+ JSON;

	/** Watch events of metadata only, falling back to whole objects. */
	private static final String METADATA = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1," + JSON;

	private final InformerKey key;

	private final ResourceKind<?> kind;

	private final ApiClient client;

	private final Duration watchTimeout;

	private final ObjectDecoder<T> decoder;

	private final ListPager pager;

	private final StreamingList streaming;

	private final HandlerRegistrations<T> registered;

	private final ScopedInformer<T>.Progress progress;

	private final @Nullable String namespace;

	private final @Nullable String labelSelector;

	private final @Nullable String fieldSelector;

	private final String listAccept;

	private final String watchAccept;

	/** The last list returned, until the reflector has stored its objects. */
	private @Nullable KubernetesListObject listed;

	/**
	 * The last streamed list's stream, open past its initial events, until the watch that
	 * follows the list takes it over. Nobody reads a stream while it is kept here:
	 * whoever takes it (the watch, the next list, {@link #release()}) owns it.
	 */
	private final AtomicReference<@Nullable Continuation> continuation = new AtomicReference<>();

	/** Whether the informer stopped: a stream kept from then on is discarded. */
	private volatile boolean released;

	/**
	 * Creates the lists and watches of one client-java informer.
	 * @param key the informer
	 * @param kind the kind, as the API server serves it
	 * @param settings the client of lists and watches and the watch timeout
	 * @param decoder reads lists and watch events, shared with the run's other informers
	 * @param pager pages the lists, shared likewise
	 * @param streaming streams the lists where the server can, shared likewise
	 * @param registered the handlers of this client-java informer, told of its first list
	 * @param progress where this client-java informer reports
	 */
	InformerListerWatcher(InformerKey key, ResourceKind<?> kind, ScopedInformer.Settings settings,
			ObjectDecoder<T> decoder, ListPager pager, StreamingList streaming, HandlerRegistrations<T> registered,
			ScopedInformer<T>.Progress progress) {
		this.key = key;
		this.kind = kind;
		this.client = settings.watchClient();
		this.watchTimeout = settings.watchTimeout();
		this.decoder = decoder;
		this.pager = pager;
		this.streaming = streaming;
		this.registered = registered;
		this.progress = progress;
		this.namespace = kind.namespaced() ? key.namespace() : null;
		this.labelSelector = key.labelSelector();
		this.fieldSelector = key.fieldSelector();
		this.listAccept = key.metadataOnly() ? METADATA_LIST : JSON;
		this.watchAccept = key.metadataOnly() ? METADATA : JSON;
	}

	@Override
	public KubernetesListObject list(CallGeneratorParams params) throws ApiException {
		discardContinuation();
		pause(this.progress.retryPause());
		try {
			KubernetesListObject complete = readList(params);
			// before client-java hands the list's objects to the handlers
			this.registered.listed(complete.getItems().size());
			this.listed = complete;
			// the API server answered, but the informer has a watch again only
			// once one opens: a list allowed while its watch is denied ends
			// no outage
			this.progress.active();
			return complete;
		}
		catch (ApiException ex) {
			if (ex.getCode() != 410) {
				// 410 Gone: the reflector lists again from the latest version
				this.progress.failed(ex, "list");
			}
			throw ex;
		}
		catch (RuntimeException ex) {
			this.progress.failed(ex, "list");
			throw ex;
		}
	}

	/**
	 * Empties the last list once its objects are stored (client-java watches only after
	 * that): client-java's reflector keeps the list in a local variable for as long as
	 * its watch loop runs, so the list would keep every object as first listed alive,
	 * long after the cache replaced or dropped it.
	 */
	private void forgetListed() {
		KubernetesListObject done = this.listed;
		this.listed = null;
		if (done != null) {
			done.getItems().clear();
		}
	}

	/**
	 * Streams one list; {@code false} if it was not: the caller reads it in pages. The
	 * stream, open past the list's initial events, is kept for the watch that follows.
	 */
	private boolean stream(CallGeneratorParams params, ObjectDecoder<T>.PagedList list, Handoff handoff)
			throws ApiException {
		try {
			// no retry of its own on 429 (so answers a kind whose watch cache
			// initializes): the paged list then waits the Retry-After. The stream lasts
			// as a watch asked for then would
			return this.streaming.read(params.resourceVersion, this.labelSelector, this.fieldSelector,
					watchTimeoutSeconds(), (query) -> {
						Call call = call(this.client, path(), query, this.watchAccept, IDENTITY);
						handoff.call = call;
						return Answers.open(call);
					}, list, this.kind.kind(), this.progress::active, (response) -> handoff.response = response);
		}
		catch (ApiException | RuntimeException ex) {
			if (this.progress.stopped() || ScopedInformer.isInterruption(ex)
					|| ListWatchFailures.refusesFieldSelector(ex, this.fieldSelector)) {
				// a list in pages would be refused the same field selector
				throw ex;
			}
			// as client-go: a list that makes progress beats a stream that fails
			// every time (a watch that RBAC denies while it allows the list)
			logger.debug("Streamed list failed, listing in pages this time: informer={} error=\"{}\"", this.key,
					StatusMessages.describe(ex));
			return false;
		}
	}

	private KubernetesListObject readList(CallGeneratorParams params) throws ApiException {
		ObjectDecoder<T>.PagedList list = this.decoder.newList();
		if (this.streaming.enabled()) {
			Handoff handoff = new Handoff();
			if (stream(params, list, handoff)) {
				Call call = handoff.call;
				Response response = handoff.response;
				KubernetesListObject streamed;
				try {
					this.progress.active();
					streamed = list.finish();
				}
				catch (RuntimeException ex) {
					if (response != null) {
						response.close();
					}
					throw ex;
				}
				if (call != null && response != null) {
					keep(new Continuation(call, response, streamed.getMetadata().getResourceVersion()));
				}
				return streamed;
			}
			list.discard();
		}
		this.pager.list(params.resourceVersion, new ListPager.PageReader() {

			@Override
			public V1ListMeta read(ListPager.PageRequest request) throws ApiException {
				return listPage(request, list);
			}

			@Override
			public void discard() {
				list.discard();
			}

		});
		return list.finish();
	}

	private V1ListMeta listPage(ListPager.PageRequest request, ObjectDecoder<T>.PagedList list) throws ApiException {
		List<Pair> query = new ArrayList<>();
		if (request.resourceVersion() != null) {
			query.add(new Pair("resourceVersion", request.resourceVersion()));
		}
		if (request.limit() != null) {
			query.add(new Pair("limit", String.valueOf(request.limit())));
		}
		if (request.continueToken() != null) {
			query.add(new Pair("continue", request.continueToken()));
		}
		if (this.labelSelector != null) {
			query.add(new Pair("labelSelector", this.labelSelector));
		}
		if (this.fieldSelector != null) {
			query.add(new Pair("fieldSelector", this.fieldSelector));
		}
		V1ListMeta page = THROTTLED.call(() -> readPage(call(this.client, path(), query, this.listAccept), list),
				(answer, wait, retry) -> this.progress.failed(answer, "list"));
		// a long list shows activity page by page
		this.progress.active();
		return page;
	}

	@Override
	public Watchable<T> watch(CallGeneratorParams params) throws ApiException {
		forgetListed();
		Continuation continued = this.continuation.getAndSet(null);
		if (continued != null) {
			if (continued.resourceVersion() != null && continued.resourceVersion().equals(params.resourceVersion)) {
				// the streamed list's events after its bookmark are this watch's
				this.progress.connected();
				return new ObservedWatch<>(DecodingWatch.of(continued.call(), continued.response(), this.decoder),
						this.progress::active, this.progress::disconnected);
			}
			continued.discard();
		}
		List<Pair> query = new ArrayList<>();
		query.add(new Pair("watch", "true"));
		if (params.resourceVersion != null && !params.resourceVersion.isEmpty()) {
			query.add(new Pair("resourceVersion", params.resourceVersion));
		}
		// bookmarks carry the resourceVersion the watch has reached although no
		// watched object changed, so that a broken watch resumes from a version
		// recent enough to be still known
		query.add(new Pair("allowWatchBookmarks", "true"));
		if (this.labelSelector != null) {
			query.add(new Pair("labelSelector", this.labelSelector));
		}
		if (this.fieldSelector != null) {
			query.add(new Pair("fieldSelector", this.fieldSelector));
		}
		// ended by the server after between half the watch timeout and all of it,
		// so that a quiet but healthy watch shows activity well within the
		// watchdog's silence threshold (and replicas do not renew in lockstep)
		query.add(new Pair("timeoutSeconds", String.valueOf(watchTimeoutSeconds())));
		try {
			Watchable<T> watch = THROTTLED.call(
					() -> DecodingWatch.open(call(this.client, path(), query, this.watchAccept), this.decoder),
					(answer, wait, retry) -> this.progress.failed(answer, "watch"));
			this.progress.connected();
			return new ObservedWatch<>(watch, this.progress::active, this.progress::disconnected);
		}
		catch (ApiException | RuntimeException ex) {
			// the reflector retries refused connections without reporting them:
			// record them here
			this.progress.failed(ex, "watch");
			throw ex;
		}
	}

	/**
	 * Discards the stream kept for the next watch, if any, when the informer stops: a
	 * stopped reflector never asks for that watch. A list still streaming then discards
	 * its stream itself once read.
	 */
	void release() {
		this.released = true;
		discardContinuation();
	}

	private void keep(Continuation continued) {
		Continuation previous = this.continuation.getAndSet(continued);
		if (previous != null) {
			previous.discard();
		}
		if (this.released) {
			discardContinuation();
		}
	}

	private void discardContinuation() {
		Continuation continued = this.continuation.getAndSet(null);
		if (continued != null) {
			continued.discard();
		}
	}

	/**
	 * How long the API server keeps one watch open: between half the watch timeout and
	 * all of it.
	 */
	private long watchTimeoutSeconds() {
		long most = Math.max(2, this.watchTimeout.toSeconds());
		return ThreadLocalRandom.current().nextLong(most / 2, most + 1);
	}

	/**
	 * Returns the path of the kind's collection, at every request: a namespace it refuses
	 * fails the request, not the informer's start.
	 */
	private String path() {
		return this.kind.collectionPath(this.namespace);
	}

	private static Call call(ApiClient client, String path, List<Pair> query, String accept) throws ApiException {
		return call(client, path, query, accept, null);
	}

	private static Call call(ApiClient client, String path, List<Pair> query, String accept,
			@Nullable String acceptEncoding) throws ApiException {
		// buildCall adds the credentials to the headers: they must be mutable
		Map<String, String> headers = new HashMap<>(Map.of("Accept", accept));
		if (acceptEncoding != null) {
			headers.put("Accept-Encoding", acceptEncoding);
		}
		return client.buildCall(null, path, "GET", query, List.of(), null, headers, Map.of(), Map.of(),
				new String[] { "BearerToken" }, null);
	}

	private static V1ListMeta readPage(Call call, ObjectDecoder<?>.PagedList list) throws ApiException {
		try (Response response = Answers.open(call);
				JsonReader reader = new JsonReader(Objects.requireNonNull(response.body(), "body").charStream())) {
			return list.readPage(reader);
		}
		catch (IOException ex) {
			throw new ApiException(ex);
		}
	}

	/**
	 * Waits before a list, stopping early when the informer is stopped.
	 */
	private static void pause(Duration pause) throws ApiException {
		if (pause.isZero()) {
			return;
		}
		try {
			Thread.sleep(pause.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new ApiException(ex);
		}
	}

	/**
	 * What a streamed list's request leaves for its informer.
	 */
	private static final class Handoff {

		private @Nullable Call call;

		private @Nullable Response response;

	}

	/**
	 * A streamed list's stream, open past its initial events.
	 *
	 * @param call the request, to cancel it
	 * @param response the response being read
	 * @param resourceVersion the list's resourceVersion, from which the stream goes on
	 */
	private record Continuation(Call call, Response response, @Nullable String resourceVersion) {

		void discard() {
			this.call.cancel();
			this.response.close();
		}

	}

}
