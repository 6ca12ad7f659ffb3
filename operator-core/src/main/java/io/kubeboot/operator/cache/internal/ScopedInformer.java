package io.kubeboot.operator.cache.internal;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import com.google.gson.stream.JsonReader;
import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.client.internal.LabelSelector;
import io.kubeboot.operator.client.internal.ResourceKind;
import io.kubeboot.operator.client.internal.StatusMessages;
import io.kubeboot.operator.client.internal.TooManyRequestsRetry;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ListerWatcher;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.cache.Caches;
import io.kubernetes.client.informer.cache.DeltaFIFO;
import io.kubernetes.client.informer.impl.DefaultSharedIndexInformer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import io.kubernetes.client.openapi.models.V1ListMeta;
import io.kubernetes.client.util.CallGeneratorParams;
import io.kubernetes.client.util.Watchable;
import okhttp3.Call;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One informer: a list-and-watch of one kind in one namespace (or all) with one label
 * selector, and the local store it keeps. Event handlers may be added before and after
 * the informer starts; one added later first receives an add for every cached object.
 * <p>
 * Errors of the list or watch (403 Forbidden, 404 for a missing CRD, a refused
 * connection) never stop the informer: it retries, every second while the API server is
 * unreachable and backing off to every ten seconds while it answers with an error that
 * does not pass by itself, logs a denial or a vanished kind once per outage and other
 * errors once per minute (see {@code ListWatchFailures}), and keeps the last one for
 * {@link #lastError()} so that a cache that does not sync and readiness can say why. The
 * informer has a watch again only once a watch opens: a list that succeeds while its
 * watch is refused does not end the outage. A request the API server throttles (429 Too
 * Many Requests) is sent again only after the answer's Retry-After, for as long as it is
 * throttled: a list keeps the pages it has read, a watch does not turn into a list.
 * <p>
 * Lists and watch events are read object by object: an object that does not decode into
 * the model class is skipped with a WARN and counted in {@link #undecodableObjects()},
 * and every other object keeps flowing. If an earlier version of it decoded, that version
 * stays cached until the object decodes again or is deleted (see {@code ObjectDecoder}).
 * <p>
 * Lists are streamed where the API server can (see {@code StreamingList}); a streamed
 * list that fails is read in pages that time, and lists are read in pages from then on
 * once the server refused to stream (see {@code ListPager} for which lists are paged and
 * why). Watches ask for bookmarks, which advance the resourceVersion a watch resumes from
 * while the watched objects are quiet, and a watch whose connection breaks resumes from
 * the last resourceVersion seen instead of listing everything again (see
 * {@code DecodingWatch}).
 * <p>
 * An informer of a kind's metadata only asks the API server for
 * {@code PartialObjectMetadata} (lists as {@code PartialObjectMetadataList}), as
 * client-go's metadata client does, and stores its objects as
 * {@link io.kubeboot.operator.model.PartialObjectMetadata}; an API server that cannot
 * send that form sends the whole objects, which decode into it all the same. Objects are
 * stored in an {@link ObjectStore} after the {@link StoreTransform}.
 *
 * @param <T> the model type stored: the kind's model class, or
 * {@code PartialObjectMetadata} for metadata only
 */
public final class ScopedInformer<T extends KubernetesObject> implements Informer<T> {

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

	private final @Nullable LabelSelector selector;

	private final List<ResourceEventHandler<T>> handlers = new CopyOnWriteArrayList<>();

	private final AtomicLong restarts = new AtomicLong();

	private final AtomicLong undecodable = new AtomicLong();

	private @Nullable ResourceKind<?> kind;

	private @Nullable Class<T> type;

	private @Nullable ApiClient watchClient;

	private Duration watchTimeout = Duration.ofMinutes(2);

	private @Nullable StoreTransform<T> storeTransform;

	/** Pages the lists of this informer and its replacements. */
	private ListPager pager = new ListPager(ListPager.DEFAULT_PAGE_SIZE);

	/** Streams the lists of this informer and its replacements, where the server can. */
	private StreamingList streaming = new StreamingList(false);

	/** Reads lists and watch events, shared by this informer and its replacements. */
	private @Nullable ObjectDecoder<T> decoder;

	/** Reports and paces failures, shared by this informer and its replacements. */
	private @Nullable ListWatchFailures failures;

	/**
	 * The failure last recorded: the reflector reports a failed watch request again after
	 * the lister-watcher recorded it.
	 */
	private volatile @Nullable Throwable lastFailure;

	private volatile boolean stopped;

	/**
	 * Whether the cache paused this informer, given back by all that asked for it: it
	 * holds nothing until it starts again.
	 */
	private volatile boolean paused;

	/** Delivers every cached object again every resync period, if there is one. */
	private @Nullable Resync<T> resync;

	/** The informer whose store serves reads. */
	private volatile @Nullable SharedIndexInformer<T> informer;

	/** The handlers registered with {@link #informer}. */
	private @Nullable HandlerRegistrations<T> registrations;

	/** The replacement being synced while the watchdog restarts this informer. */
	private volatile @Nullable SharedIndexInformer<T> replacement;

	/** The handlers of {@link #replacement}, registered once it is swapped in. */
	private @Nullable HandlerRegistrations<T> replacementRegistrations;

	/**
	 * Which informer's list and watch may report: the latest one started. A replaced
	 * informer's watch ending late must not look like the new one's.
	 */
	private volatile int generation;

	private volatile long lastActivityNanos = System.nanoTime();

	private volatile long restartStartedNanos;

	private volatile @Nullable String lastError;

	/** When the informer lost its watch, {@code 0} while it has one. */
	private volatile long disconnectedSinceNanos;

	ScopedInformer(InformerKey key) {
		this.key = key;
		this.selector = (key.labelSelector() != null) ? LabelSelector.parse(key.labelSelector()) : null;
	}

	/**
	 * Tells whether an object is of this informer's kind, namespace and label selector,
	 * so that the informer holds it once it has seen it.
	 * @param object the object
	 * @return whether this informer holds such objects
	 */
	boolean holds(KubernetesObject object) {
		// a write of the kind's model class: a metadata-only informer holds it too. A
		// paused one sees no write, which would stay recorded as one it has yet to see
		return !this.paused && object.getClass() == this.key.type() && object.getMetadata() != null
				&& (this.key.namespace() == null || this.key.namespace().equals(object.getMetadata().getNamespace()))
				&& (this.selector == null || this.selector.matches(object.getMetadata().getLabels()));
	}

	/**
	 * Returns what this informer watches.
	 * @return the key
	 */
	@Override
	public InformerKey key() {
		return this.key;
	}

	/**
	 * Adds an event handler. Handlers are called on the informer's single event thread,
	 * in order, and must not block. An
	 * {@link io.kubeboot.operator.cache.InformerEventHandler} learns which adds come from
	 * an initial list.
	 * @param handler the handler
	 */
	@Override
	public synchronized void addEventHandler(ResourceEventHandler<T> handler) {
		this.handlers.add(handler);
		SharedIndexInformer<T> started = this.informer;
		if (started != null) {
			Objects.requireNonNull(this.registrations).register(started, handler, true);
		}
	}

	/**
	 * Whether the first list has been stored and delivered to the handlers.
	 * @return {@code true} once synced
	 */
	@Override
	public boolean hasSynced() {
		SharedIndexInformer<T> started = this.informer;
		return started != null && started.hasSynced();
	}

	/**
	 * Returns the last list or watch error, for a person to read.
	 * @return the error, or {@code null} if there was none since the last successful sync
	 */
	@Override
	public @Nullable String lastError() {
		return this.lastError;
	}

	/**
	 * Returns for how long this informer has been without a working watch: since it
	 * started until its first watch opened, its list or watch failing, or its watch ended
	 * and not yet replaced.
	 * @return the duration, or {@code null} while a watch is open
	 */
	@Override
	public @Nullable Duration failingFor() {
		long since = this.disconnectedSinceNanos;
		return (since != 0) ? Duration.ofNanos(System.nanoTime() - since) : null;
	}

	private void connected(int generation) {
		if (generation == this.generation) {
			this.lastError = null;
			this.disconnectedSinceNanos = 0;
			this.lastActivityNanos = System.nanoTime();
			Objects.requireNonNull(this.failures).recovered();
		}
	}

	private void active(int generation) {
		if (generation == this.generation) {
			this.lastActivityNanos = System.nanoTime();
		}
	}

	private void disconnected(int generation) {
		if (generation == this.generation && this.disconnectedSinceNanos == 0) {
			this.disconnectedSinceNanos = System.nanoTime();
		}
	}

	/**
	 * Returns the cached objects.
	 * @return a new list, empty before the informer started
	 */
	@Override
	public List<T> list() {
		SharedIndexInformer<T> started = this.informer;
		return (started != null) ? new ArrayList<>(started.getIndexer().list()) : new ArrayList<>();
	}

	/**
	 * Returns the cached objects in one namespace.
	 * @param namespace the namespace
	 * @return a new list
	 */
	@Override
	public List<T> list(String namespace) {
		SharedIndexInformer<T> started = this.informer;
		return (started != null) ? new ArrayList<>(started.getIndexer().byIndex(Caches.NAMESPACE_INDEX, namespace))
				: new ArrayList<>();
	}

	/**
	 * Returns a cached object.
	 * @param namespace the namespace, or {@code null} for a cluster-scoped object
	 * @param name the name
	 * @return the object, if cached
	 */
	@Override
	@SuppressWarnings("unchecked")
	public Optional<T> get(@Nullable String namespace, String name) {
		SharedIndexInformer<T> started = this.informer;
		if (started == null) {
			return Optional.empty();
		}
		return Optional.ofNullable(((ObjectStore<T>) started.getIndexer()).get(namespace, name));
	}

	/**
	 * Starts listing and watching.
	 * @param kind the kind, as the API server serves it
	 * @param type the class objects are stored as: the kind's model class, or
	 * {@code PartialObjectMetadata} for an informer of metadata only
	 * @param watchClient the client of lists and watches
	 * @param resyncPeriod how often every cached object is delivered again, zero for
	 * never
	 * @param storeTransform what is done to each object before it is stored
	 * @param watchTimeout the longest one watch request lasts
	 * @param listPageSize the most objects one list request asks for
	 * @param streamingLists whether to stream lists where the API server can
	 */
	synchronized void start(ResourceKind<?> kind, Class<T> type, ApiClient watchClient, Duration resyncPeriod,
			StoreTransform<T> storeTransform, Duration watchTimeout, int listPageSize, boolean streamingLists) {
		if (this.informer != null || this.stopped) {
			return;
		}
		this.paused = false;
		this.pager = new ListPager(listPageSize);
		this.streaming = new StreamingList(streamingLists);
		this.kind = kind;
		this.type = type;
		this.watchClient = watchClient;
		this.storeTransform = storeTransform;
		this.watchTimeout = watchTimeout;
		this.decoder = new ObjectDecoder<>(type, kind.kind(), watchClient.getJSON().getGson(), this::get,
				this.undecodable::incrementAndGet);
		this.failures = new ListWatchFailures(this.key, kind, watchClient);
		HandlerRegistrations<T> registered = new HandlerRegistrations<>();
		DefaultSharedIndexInformer<T, KubernetesListObject> created = newInformer(this.generation, registered);
		this.handlers.forEach((handler) -> registered.register(created, handler, false));
		this.registrations = registered;
		this.informer = created;
		this.lastActivityNanos = System.nanoTime();
		// without a watch until the first list and watch went through: an informer
		// registered while the manager runs holds readiness down only once that takes
		// longer than the watch failure threshold
		this.disconnectedSinceNanos = System.nanoTime();
		created.run();
		if (!resyncPeriod.isZero()) {
			this.resync = new Resync<>(this.key, resyncPeriod, this::list, this.handlers);
		}
	}

	private DefaultSharedIndexInformer<T, KubernetesListObject> newInformer(int generation,
			HandlerRegistrations<T> registered) {
		ResourceKind<?> resolved = Objects.requireNonNull(this.kind);
		ObjectStore<T> store = new ObjectStore<>();
		DefaultSharedIndexInformer<T, KubernetesListObject> created = new DefaultSharedIndexInformer<>(
				Objects.requireNonNull(this.type),
				listerWatcher(resolved, Objects.requireNonNull(this.watchClient), generation, registered), 0,
				new DeltaFIFO(Caches::metaNamespaceKeyFunc, store), store,
				(type, error) -> onError(generation, error, null));
		created.setTransform(Objects.requireNonNull(this.storeTransform));
		return created;
	}

	/**
	 * Returns how long this informer has heard nothing from the API server: no event, no
	 * list, no new watch, no failed attempt. A healthy informer renews its watch at least
	 * once per watch timeout, and a failing one tries again at least every ten seconds,
	 * so a longer silence means a watch or list that stalled without failing.
	 * @return the silence, zero before the informer started
	 */
	@Override
	public Duration silentFor() {
		return (this.informer != null) ? Duration.ofNanos(System.nanoTime() - this.lastActivityNanos) : Duration.ZERO;
	}

	/**
	 * Returns how often the watchdog replaced this informer after a silence.
	 * @return the number of completed restarts
	 */
	@Override
	public long restarts() {
		return this.restarts.get();
	}

	/**
	 * Returns how many objects this informer skipped because they did not decode into the
	 * model class, each version of an object counted once.
	 * @return the number of object versions skipped
	 */
	@Override
	public long undecodableObjects() {
		return this.undecodable.get();
	}

	@Override
	public Optional<String> undecodableVersion(@Nullable String namespace, String name) {
		ObjectDecoder<T> current = this.decoder;
		return Optional.ofNullable((current != null) ? current.undecodableVersion(namespace, name) : null);
	}

	/**
	 * Returns for how long the watchdog has been restarting this informer: its
	 * replacement lists and watches, but has not synced yet.
	 * @return the duration, or {@code null} when no restart is under way
	 */
	@Override
	public @Nullable Duration restartingFor() {
		long since = this.restartStartedNanos;
		return (this.replacement != null) ? Duration.ofNanos(System.nanoTime() - since) : null;
	}

	/**
	 * Starts a replacement informer that lists everything again. Reads keep using the
	 * current store until {@link #completeRestart()} finds the replacement synced, so the
	 * cache never looks empty.
	 * @return {@code true} if a replacement was started, {@code false} if one is already
	 * under way or this informer is not running
	 */
	synchronized boolean beginRestart() {
		if (this.informer == null || this.replacement != null || this.stopped) {
			return false;
		}
		int next = this.generation + 1;
		this.generation = next; // the stalled informer's watch no longer reports
		HandlerRegistrations<T> registered = new HandlerRegistrations<>();
		DefaultSharedIndexInformer<T, KubernetesListObject> fresh = newInformer(next, registered);
		this.replacementRegistrations = registered;
		this.replacement = fresh;
		this.restartStartedNanos = System.nanoTime();
		this.lastActivityNanos = this.restartStartedNanos;
		fresh.run();
		return true;
	}

	/**
	 * Swaps in the replacement once it has synced and stops the informer it replaces. The
	 * handlers then receive an add for every object of the fresh list (adds of an initial
	 * list) and a delete for every object that disappeared while the old watch was
	 * stalled, so deletions still reach the controllers.
	 * @return {@code true} if the replacement was swapped in, {@code false} if there is
	 * none or it has not synced yet
	 */
	boolean completeRestart() {
		SharedIndexInformer<T> old;
		SharedIndexInformer<T> fresh;
		synchronized (this) {
			fresh = this.replacement;
			old = this.informer;
			HandlerRegistrations<T> registered = this.replacementRegistrations;
			if (fresh == null || old == null || registered == null || !fresh.hasSynced()) {
				return false;
			}
			this.informer = fresh;
			this.registrations = registered;
			this.replacement = null;
			this.replacementRegistrations = null;
			SharedIndexInformer<T> swapped = fresh;
			this.handlers.forEach((handler) -> registered.register(swapped, handler, true));
		}
		old.stop();
		Set<String> present = new HashSet<>(fresh.getIndexer().listKeys());
		for (T object : old.getIndexer().list()) {
			if (!present.contains(Caches.metaNamespaceKeyFunc(object))) {
				this.handlers.forEach((handler) -> handler.onDelete(object, true));
			}
		}
		this.restarts.incrementAndGet();
		return true;
	}

	/**
	 * Stops a replacement that has itself heard nothing for too long, so that the next
	 * {@link #beginRestart()} starts another.
	 */
	synchronized void abandonRestart() {
		SharedIndexInformer<T> fresh = this.replacement;
		if (fresh != null) {
			this.replacement = null;
			this.replacementRegistrations = null;
			fresh.stop();
		}
	}

	/**
	 * Stops listing and watching and drops the cached objects until {@link #start} is
	 * called again, for an informer nobody needs now (see {@link InformerCache#release}).
	 * The handlers stay: the next start's first list reaches them as adds of an initial
	 * list. Reads find nothing meanwhile, and readiness sees no failing watch.
	 */
	synchronized void pause() {
		SharedIndexInformer<T> started = this.informer;
		if (started == null || this.stopped) {
			return;
		}
		this.paused = true;
		// the stopped informer's list and watch, which may fail as they close, no longer
		// report
		this.generation = this.generation + 1;
		Resync<T> running = this.resync;
		if (running != null) {
			running.stop();
			this.resync = null;
		}
		SharedIndexInformer<T> fresh = this.replacement;
		if (fresh != null) {
			fresh.stop();
			this.replacement = null;
			this.replacementRegistrations = null;
		}
		started.stop();
		this.informer = null;
		this.registrations = null;
		this.lastError = null;
		this.disconnectedSinceNanos = 0;
	}

	synchronized void stop() {
		this.stopped = true;
		Resync<T> running = this.resync;
		if (running != null) {
			running.stop();
		}
		SharedIndexInformer<T> started = this.informer;
		if (started != null) {
			started.stop();
		}
		SharedIndexInformer<T> fresh = this.replacement;
		if (fresh != null) {
			fresh.stop();
			this.replacement = null;
		}
	}

	private ListerWatcher<T, KubernetesListObject> listerWatcher(ResourceKind<?> kind, ApiClient client, int generation,
			HandlerRegistrations<T> registered) {
		// lists and watches read object by object, so that one object that does not
		// decode into the model is skipped instead of failing the whole list or watch
		ObjectDecoder<T> decoder = Objects.requireNonNull(this.decoder);
		ListWatchFailures failures = Objects.requireNonNull(this.failures);
		ListPager pager = this.pager;
		StreamingList streaming = this.streaming;
		String namespace = kind.namespaced() ? this.key.namespace() : null;
		String labelSelector = this.key.labelSelector();
		String listAccept = this.key.metadataOnly() ? METADATA_LIST : JSON;
		String watchAccept = this.key.metadataOnly() ? METADATA : JSON;
		return new ListerWatcher<>() {

			/** The last list returned, until the reflector has stored its objects. */
			private @Nullable KubernetesListObject listed;

			@Override
			public KubernetesListObject list(CallGeneratorParams params) throws ApiException {
				pause(failures.retryPause());
				try {
					KubernetesListObject complete = readList(params);
					// before client-java hands the list's objects to the handlers
					registered.listed(complete.getItems().size());
					this.listed = complete;
					// the API server answered, but the informer has a watch again only
					// once one opens: a list allowed while its watch is denied ends
					// no outage
					active(generation);
					return complete;
				}
				catch (ApiException ex) {
					if (ex.getCode() != 410) {
						// 410 Gone: the reflector lists again from the latest version
						onError(generation, ex, "list");
					}
					throw ex;
				}
				catch (RuntimeException ex) {
					onError(generation, ex, "list");
					throw ex;
				}
			}

			/**
			 * Empties the last list once its objects are stored (client-java watches only
			 * after that): client-java's reflector keeps the list in a local variable for
			 * as long as its watch loop runs, so the list would keep every object as
			 * first listed alive, long after the cache replaced or dropped it.
			 */
			private void forgetListed() {
				KubernetesListObject done = this.listed;
				this.listed = null;
				if (done != null) {
					done.getItems().clear();
				}
			}

			/**
			 * Streams one list; {@code false} if it was not: the caller reads it in
			 * pages.
			 */
			private boolean stream(CallGeneratorParams params, ObjectDecoder<T>.PagedList list) throws ApiException {
				try {
					// no retry of its own on 429 (so answers a kind whose watch cache
					// initializes): the paged list then waits the Retry-After
					return streaming.read(params.resourceVersion, labelSelector,
							(query) -> open(call(client, kind.collectionPath(namespace), query, watchAccept, IDENTITY)),
							list, kind.kind());
				}
				catch (ApiException | RuntimeException ex) {
					if (ScopedInformer.this.stopped || isInterruption(ex)) {
						throw ex;
					}
					// as client-go: a list that makes progress beats a stream that fails
					// every time (a watch that RBAC denies while it allows the list)
					logger.debug("Streamed list failed, listing in pages this time: informer={} error=\"{}\"",
							ScopedInformer.this.key, StatusMessages.describe(ex));
					return false;
				}
			}

			private KubernetesListObject readList(CallGeneratorParams params) throws ApiException {
				ObjectDecoder<T>.PagedList list = decoder.newList();
				if (streaming.enabled()) {
					if (stream(params, list)) {
						active(generation);
						return list.finish();
					}
					list.discard();
				}
				pager.list(params.resourceVersion, new ListPager.PageReader() {

					@Override
					public V1ListMeta read(ListPager.PageRequest request) throws ApiException {
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
						if (labelSelector != null) {
							query.add(new Pair("labelSelector", labelSelector));
						}
						V1ListMeta page = THROTTLED.call(
								() -> readPage(call(client, kind.collectionPath(namespace), query, listAccept), list),
								(answer, wait, retry) -> onError(generation, answer, "list"));
						// a long list shows activity page by page
						active(generation);
						return page;
					}

					@Override
					public void discard() {
						list.discard();
					}

				});
				return list.finish();
			}

			@Override
			public Watchable<T> watch(CallGeneratorParams params) throws ApiException {
				forgetListed();
				List<Pair> query = new ArrayList<>();
				query.add(new Pair("watch", "true"));
				if (params.resourceVersion != null && !params.resourceVersion.isEmpty()) {
					query.add(new Pair("resourceVersion", params.resourceVersion));
				}
				// bookmarks carry the resourceVersion the watch has reached although no
				// watched object changed, so that a broken watch resumes from a version
				// recent enough to be still known
				query.add(new Pair("allowWatchBookmarks", "true"));
				if (labelSelector != null) {
					query.add(new Pair("labelSelector", labelSelector));
				}
				// ended by the server after between half the watch timeout and all of it,
				// so that a quiet but healthy watch shows activity well within the
				// watchdog's silence threshold (and replicas do not renew in lockstep)
				long most = Math.max(2, ScopedInformer.this.watchTimeout.toSeconds());
				query.add(new Pair("timeoutSeconds",
						String.valueOf(ThreadLocalRandom.current().nextLong(most / 2, most + 1))));
				try {
					Watchable<T> watch = THROTTLED.call(() -> DecodingWatch
						.open(call(client, kind.collectionPath(namespace), query, watchAccept), decoder),
							(answer, wait, retry) -> onError(generation, answer, "watch"));
					connected(generation);
					return new ObservedWatch<>(watch, () -> active(generation), () -> disconnected(generation));
				}
				catch (ApiException | RuntimeException ex) {
					// the reflector retries refused connections without reporting them:
					// record them here
					onError(generation, ex, "watch");
					throw ex;
				}
			}

		};
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

	private static Response open(Call call) throws ApiException {
		Response response;
		try {
			response = call.execute();
		}
		catch (IOException ex) {
			throw new ApiException(ex);
		}
		if (!response.isSuccessful()) {
			try (response) {
				ResponseBody body = response.body();
				throw new ApiException(response.message(), response.code(), response.headers().toMultimap(),
						(body != null) ? body.string() : null);
			}
			catch (IOException ex) {
				throw new ApiException(response.message(), ex, response.code(), response.headers().toMultimap());
			}
		}
		return response;
	}

	private static V1ListMeta readPage(Call call, ObjectDecoder<?>.PagedList list) throws ApiException {
		try (Response response = call.execute()) {
			ResponseBody body = response.body();
			if (!response.isSuccessful() || body == null) {
				throw new ApiException(response.message(), response.code(), response.headers().toMultimap(),
						(body != null) ? body.string() : null);
			}
			try (JsonReader reader = new JsonReader(body.charStream())) {
				return list.readPage(reader);
			}
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

	private void onError(int generation, Throwable error, @Nullable String verb) {
		if (generation != this.generation || this.stopped || error == this.lastFailure || isInterruption(error)) {
			// a replaced or stopped informer's watch failing as it is closed, or a
			// failure recorded already
			return;
		}
		this.lastFailure = error;
		ListWatchFailures failures = Objects.requireNonNull(this.failures);
		String message = failures.describe(error, StatusMessages.describe(error));
		disconnected(generation);
		this.lastError = message;
		// a failed attempt shows that the reflector still loops: not a silence for the
		// watchdog to end
		active(generation);
		failures.failed(error, message, verb);
	}

	private static boolean isInterruption(Throwable error) {
		for (Throwable cause = error; cause != null; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
			if (cause instanceof InterruptedException) {
				return true;
			}
		}
		return false;
	}

}
