package io.kubeboot.operator.cache.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import io.kubeboot.operator.cache.CacheIndex;
import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.cache.InformerCost;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.client.internal.FieldSelector;
import io.kubeboot.operator.client.internal.LabelSelector;
import io.kubeboot.operator.client.internal.ResourceKind;
import io.kubeboot.operator.client.internal.StatusMessages;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.cache.Caches;
import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;

/**
 * One informer: a list-and-watch of one kind in one namespace (or all) with one label
 * selector and one field selector, and the local store it keeps. Event handlers may be
 * added before and after the informer starts; one added later first receives an add for
 * every cached object.
 * <p>
 * Both selectors go to the API server with every list and watch, which sends a deletion
 * for an object that stops matching them and an addition for one that starts to: the
 * store holds only matching objects. The API server refuses a field selector by a field
 * it does not support for the kind ({@code 400 Bad Request: field label not supported});
 * the informer then keeps retrying like after any lasting failure, logs the refusal once
 * as an ERROR, and tells it through {@link #fieldSelectorRefusal()}, on which the cache
 * fails start-up.
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
 * stored in an {@link ObjectStore} after the {@link StoreTransform}. What they cost, and
 * whether they exceed the informer's object budget, is its {@link CostTracker}'s.
 * <p>
 * What only exists from a start until a pause, from the kind as resolved then to the
 * client-java informers, is an {@link InformerRun}.
 *
 * @param <T> the model type stored: the kind's model class, or
 * {@code PartialObjectMetadata} for metadata only
 */
public final class ScopedInformer<T extends KubernetesObject> implements Informer<T> {

	private final InformerKey key;

	private final @Nullable LabelSelector selector;

	private final @Nullable FieldSelector fields;

	private final Settings settings;

	private final List<ResourceEventHandler<T>> handlers = new CopyOnWriteArrayList<>();

	/** The cache's indexes, which every store of every run keeps. */
	private final List<CacheIndex<T>> indexes = new CopyOnWriteArrayList<>();

	private final AtomicLong restarts = new AtomicLong();

	private final AtomicLong undecodable = new AtomicLong();

	private final CostTracker cost;

	/**
	 * The run last started, {@code null} before the first start: kept once paused (it
	 * then serves nothing), so that its decoder still knows the objects it skipped.
	 */
	private volatile @Nullable InformerRun<T> run;

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

	/**
	 * Which informer's list and watch may report: the latest one started. A replaced
	 * informer's watch ending late must not look like the new one's.
	 */
	private volatile int generation;

	private volatile long lastActivityNanos = System.nanoTime();

	/** When the API server was last heard from: a list, a watch opened or an event. */
	private volatile long lastHeardNanos;

	private volatile boolean heard;

	private volatile @Nullable String lastError;

	/**
	 * The API server's answer refusing the field selector, {@code null} unless the last
	 * list or watch was refused so.
	 */
	private volatile @Nullable String fieldSelectorRefusal;

	/** When the informer lost its watch, {@code 0} while it has one. */
	private volatile long disconnectedSinceNanos;

	/** Whether RBAC refused the last list or watch ({@code 403}). */
	private volatile boolean forbidden;

	/**
	 * Creates an informer that tracks what it costs; {@link #start} starts it once its
	 * kind is resolved.
	 * @param key what it watches
	 * @param settings what it lists and watches with
	 * @param cost what tracks its cost and checks its object budget
	 */
	ScopedInformer(InformerKey key, Settings settings, CostTracker cost) {
		this.key = key;
		this.selector = (key.labelSelector() != null) ? LabelSelector.parse(key.labelSelector()) : null;
		this.fields = (key.fieldSelector() != null) ? FieldSelector.parse(key.fieldSelector()) : null;
		this.settings = settings;
		this.cost = cost;
	}

	/**
	 * Tells whether an object is of this informer's kind and namespace and matches its
	 * label and field selectors, so that the informer holds it once it has seen it. The
	 * field selector is read at the JSON paths its field names spell, which is how the
	 * API server reads a custom resource's selectable fields and the fields it supports
	 * for most built-in kinds.
	 * @param object the object
	 * @return whether this informer holds such objects
	 */
	boolean holds(KubernetesObject object) {
		// a write of the kind's model class: a metadata-only informer holds it too. A
		// paused one sees no write, which would stay recorded as one it has yet to see
		return !this.paused && object.getClass() == this.key.type() && object.getMetadata() != null
				&& (this.key.namespace() == null || this.key.namespace().equals(object.getMetadata().getNamespace()))
				&& (this.selector == null || this.selector.matches(object.getMetadata().getLabels()))
				&& (this.fields == null
						|| this.fields.matches(object, this.settings.watchClient().getJSON().getGson()));
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
	 * Returns what this informer lists and watches with.
	 * @return the settings
	 */
	Settings settings() {
		return this.settings;
	}

	/**
	 * Returns the handlers, as they are now and will be: the list is shared.
	 * @return the handlers
	 */
	List<ResourceEventHandler<T>> handlers() {
		return this.handlers;
	}

	/**
	 * Returns the indexes every store keeps, as they are now.
	 * @return the indexes
	 */
	List<CacheIndex<T>> indexes() {
		return List.copyOf(this.indexes);
	}

	/**
	 * Adds an index: the stores of a running informer build it from the objects they
	 * hold, those of later starts and of the watchdog's replacements from their lists.
	 * Under this informer's lock, as every start and restart: no store is created without
	 * it once this returns.
	 * @param index an index of the kind's whole objects
	 */
	synchronized void addIndex(CacheIndex<T> index) {
		if (this.indexes.contains(index)) {
			return;
		}
		this.indexes.add(index);
		InformerRun<T> current = this.run;
		if (current != null) {
			current.addIndex(index);
		}
	}

	/**
	 * Returns the cached objects an index files under a key.
	 * @param index the name of the index
	 * @param namespace the namespace, or {@code null} for all namespaces
	 * @param key the key
	 * @return a new list, empty before the informer started and while paused
	 * @throws IllegalStateException if this informer keeps no such index yet
	 */
	List<T> byIndex(String index, @Nullable String namespace, String key) {
		InformerRun<T> current = this.run;
		return (current != null) ? current.byIndex(index, namespace, key) : new ArrayList<>();
	}

	/**
	 * Returns what this informer's objects cost: their count, an estimate of their heap
	 * (sampled again if the last sample is stale) and its object budget.
	 * @return the cost, of no object before the informer started and while paused
	 */
	@Override
	public InformerCost cost() {
		return this.cost.cost(servingStore());
	}

	/**
	 * Checks the object budget after a store of this informer changed its count: the
	 * store serving reads, or the watchdog's replacement of it.
	 */
	void storeResized() {
		ObjectStore<T> store = servingStore();
		this.cost.sized((store != null) ? store.size() : 0);
	}

	/**
	 * Counts an object version skipped because it did not decode.
	 */
	void countUndecodable() {
		this.undecodable.incrementAndGet();
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
		InformerRun<T> current = this.run;
		if (current != null) {
			current.register(handler);
		}
	}

	/**
	 * Whether the first list has been stored and delivered to the handlers.
	 * @return {@code true} once synced
	 */
	@Override
	public boolean hasSynced() {
		SharedIndexInformer<T> started = serving();
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
	 * Returns the API server's answer refusing this informer's field selector, if its
	 * last list or watch was refused so.
	 * @return the answer, such as
	 * {@code 400 Bad Request: field label not supported: spec.foo}, or {@code null}
	 */
	@Nullable String fieldSelectorRefusal() {
		return this.fieldSelectorRefusal;
	}

	/**
	 * Whether RBAC refused this informer's last list or watch ({@code 403 Forbidden}),
	 * until a watch opens again.
	 * @return {@code true} while refused
	 */
	boolean forbidden() {
		return this.forbidden;
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

	/**
	 * Returns the cached objects.
	 * @return a new list, empty before the informer started
	 */
	@Override
	public List<T> list() {
		SharedIndexInformer<T> started = serving();
		return (started != null) ? new ArrayList<>(started.getIndexer().list()) : new ArrayList<>();
	}

	/**
	 * Returns the cached objects in one namespace.
	 * @param namespace the namespace
	 * @return a new list
	 */
	@Override
	public List<T> list(String namespace) {
		SharedIndexInformer<T> started = serving();
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
		SharedIndexInformer<T> started = serving();
		if (started == null) {
			return Optional.empty();
		}
		return Optional.ofNullable(((ObjectStore<T>) started.getIndexer()).get(namespace, name));
	}

	@SuppressWarnings("unchecked")
	private @Nullable ObjectStore<T> servingStore() {
		SharedIndexInformer<T> started = serving();
		return (started != null) ? (ObjectStore<T>) started.getIndexer() : null;
	}

	/**
	 * Returns the client-java informer whose store serves reads.
	 * @return the informer, {@code null} before the informer started and while paused
	 */
	private @Nullable SharedIndexInformer<T> serving() {
		InformerRun<T> current = this.run;
		return (current != null) ? current.serving() : null;
	}

	/**
	 * Starts listing and watching, unless running or stopped.
	 * @param kind the kind, as the API server serves it
	 * @param type the class objects are stored as: the kind's model class, or
	 * {@code PartialObjectMetadata} for an informer of metadata only
	 * @param storeTransform what is done to each object before it is stored
	 */
	synchronized void start(ResourceKind<?> kind, Class<T> type, StoreTransform<T> storeTransform) {
		if (serving() != null || this.stopped) {
			return;
		}
		this.paused = false;
		InformerRun<T> started = new InformerRun<>(this, kind, type, storeTransform, this.generation);
		this.run = started;
		this.lastActivityNanos = System.nanoTime();
		// without a watch until the first list and watch went through: an informer
		// registered while the manager runs holds readiness down only once that takes
		// longer than the watch failure threshold
		this.disconnectedSinceNanos = System.nanoTime();
		started.start();
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
		return (serving() != null) ? Duration.ofNanos(System.nanoTime() - this.lastActivityNanos) : Duration.ZERO;
	}

	/**
	 * Returns when this informer last heard from the API server: a list answered, a watch
	 * opened, an event (a bookmark included).
	 * @return the {@link System#nanoTime()} of the last one, empty if none yet
	 */
	OptionalLong lastHeardNanos() {
		return this.heard ? OptionalLong.of(this.lastHeardNanos) : OptionalLong.empty();
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
		InformerRun<T> current = this.run;
		return Optional.ofNullable((current != null) ? current.decoder().undecodableVersion(namespace, name) : null);
	}

	/**
	 * Returns for how long the watchdog has been restarting this informer: its
	 * replacement lists and watches, but has not synced yet.
	 * @return the duration, or {@code null} when no restart is under way
	 */
	@Override
	public @Nullable Duration restartingFor() {
		InformerRun<T> current = this.run;
		return (current != null) ? current.restartingFor() : null;
	}

	/**
	 * Starts a replacement informer that lists everything again. Reads keep using the
	 * current store until {@link #completeRestart()} finds the replacement synced, so the
	 * cache never looks empty.
	 * @return {@code true} if a replacement was started, {@code false} if one is already
	 * under way or this informer is not running
	 */
	synchronized boolean beginRestart() {
		InformerRun<T> current = this.run;
		if (current == null || current.serving() == null || current.restarting() || this.stopped) {
			return false;
		}
		int next = this.generation + 1;
		this.generation = next; // the stalled informer's watch no longer reports
		this.lastActivityNanos = System.nanoTime();
		current.beginRestart(next);
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
		InformerRun.Swap<T> swap;
		synchronized (this) {
			InformerRun<T> current = this.run;
			swap = (current != null) ? current.completeRestart() : null;
			if (swap == null) {
				return false;
			}
		}
		// the replacement's list was checked against the count of the store then serving:
		// check its own now that it serves
		storeResized();
		SharedIndexInformer<T> old = swap.replaced();
		swap.stopReplaced().run();
		Set<String> present = new HashSet<>(swap.fresh().getIndexer().listKeys());
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
		InformerRun<T> current = this.run;
		if (current != null) {
			current.abandonRestart();
		}
	}

	/**
	 * Stops listing and watching and drops the cached objects until {@link #start} is
	 * called again, for an informer nobody needs now (see {@link InformerCache#release}).
	 * The handlers stay: the next start's first list reaches them as adds of an initial
	 * list. Reads find nothing meanwhile, and readiness sees no failing watch.
	 */
	synchronized void pause() {
		InformerRun<T> current = this.run;
		if (current == null || current.serving() == null || this.stopped) {
			return;
		}
		this.paused = true;
		// the stopped informer's list and watch, which may fail as they close, no longer
		// report
		this.generation = this.generation + 1;
		current.pause();
		this.cost.emptied();
		this.lastError = null;
		this.fieldSelectorRefusal = null;
		this.forbidden = false;
		this.disconnectedSinceNanos = 0;
	}

	synchronized void stop() {
		this.stopped = true;
		InformerRun<T> current = this.run;
		if (current != null) {
			current.stop();
		}
	}

	/**
	 * Returns where a client-java informer of a run reports.
	 * @param generation the client-java informer's generation
	 * @param failures the run's failures
	 * @return its progress
	 */
	Progress progress(int generation, ListWatchFailures failures) {
		return new Progress(generation, failures);
	}

	static boolean isInterruption(Throwable error) {
		for (Throwable cause = error; cause != null; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
			if (cause instanceof InterruptedException) {
				return true;
			}
		}
		return false;
	}

	/**
	 * What the informers of a cache list and watch with, the same for all of them.
	 *
	 * @param watchClient the client of lists and watches
	 * @param resyncPeriod how often every cached object is delivered again, zero for
	 * never
	 * @param watchTimeout the longest one watch request lasts
	 * @param listPageSize the most objects one list request asks for
	 * @param streamingLists whether to stream lists where the API server can
	 */
	record Settings(ApiClient watchClient, Duration resyncPeriod, Duration watchTimeout, int listPageSize,
			boolean streamingLists) {

	}

	/**
	 * What one client-java informer of a run reports of its list and watch, to the
	 * informer's health and the run's failures. It counts only while that client-java
	 * informer is the latest started, its generation the informer's.
	 */
	final class Progress {

		private final int generation;

		private final ListWatchFailures failures;

		private Progress(int generation, ListWatchFailures failures) {
			this.generation = generation;
			this.failures = failures;
		}

		/**
		 * Records that a watch opened: an outage ends.
		 */
		void connected() {
			if (this.generation == ScopedInformer.this.generation) {
				ScopedInformer.this.lastError = null;
				ScopedInformer.this.fieldSelectorRefusal = null;
				ScopedInformer.this.forbidden = false;
				ScopedInformer.this.disconnectedSinceNanos = 0;
				heardNow();
				this.failures.recovered();
			}
		}

		/**
		 * Records that the API server was heard from.
		 */
		void active() {
			if (this.generation == ScopedInformer.this.generation) {
				heardNow();
			}
		}

		private void heardNow() {
			long now = System.nanoTime();
			ScopedInformer.this.lastActivityNanos = now;
			ScopedInformer.this.lastHeardNanos = now;
			ScopedInformer.this.heard = true;
		}

		/**
		 * Records that the watch ended.
		 */
		void disconnected() {
			if (this.generation == ScopedInformer.this.generation && ScopedInformer.this.disconnectedSinceNanos == 0) {
				ScopedInformer.this.disconnectedSinceNanos = System.nanoTime();
			}
		}

		/**
		 * Records a failed list or watch, and reports it unless recorded already.
		 * @param error the failure
		 * @param verb {@code list} or {@code watch}, {@code null} if the reflector failed
		 * otherwise
		 */
		void failed(Throwable error, @Nullable String verb) {
			if (this.generation != ScopedInformer.this.generation || ScopedInformer.this.stopped
					|| error == ScopedInformer.this.lastFailure || isInterruption(error)) {
				// a replaced or stopped informer's watch failing as it is closed, or a
				// failure recorded already
				return;
			}
			ScopedInformer.this.lastFailure = error;
			String message = this.failures.describe(error, StatusMessages.describe(error));
			disconnected();
			ScopedInformer.this.lastError = message;
			ScopedInformer.this.fieldSelectorRefusal = ListWatchFailures.refusesFieldSelector(error,
					ScopedInformer.this.key.fieldSelector()) ? message : null;
			ScopedInformer.this.forbidden = ListWatchFailures.forbidden(error);
			// a failed attempt shows that the reflector still loops: not a silence for
			// the watchdog to end, though nothing was heard from the API server
			ScopedInformer.this.lastActivityNanos = System.nanoTime();
			this.failures.failed(error, message, verb);
		}

		/**
		 * Returns how long to wait before the next list.
		 * @return the pause, zero for none
		 */
		Duration retryPause() {
			return this.failures.retryPause();
		}

		/**
		 * Whether the informer was stopped: its requests then fail as they are closed.
		 * @return {@code true} once stopped
		 */
		boolean stopped() {
			return ScopedInformer.this.stopped;
		}

	}

}
