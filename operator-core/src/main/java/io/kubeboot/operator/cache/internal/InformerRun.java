package io.kubeboot.operator.cache.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.kubeboot.operator.cache.CacheIndex;
import io.kubeboot.operator.client.internal.ModelReading;
import io.kubeboot.operator.client.internal.ResourceKind;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.cache.Caches;
import io.kubernetes.client.informer.cache.DeltaFIFO;
import io.kubernetes.client.informer.impl.DefaultSharedIndexInformer;
import org.jspecify.annotations.Nullable;

/**
 * One run of a {@link ScopedInformer}, from a {@link ScopedInformer#start start} until it
 * is paused or stopped: the kind as resolved then, what reads and paces the lists and
 * watches (shared by the informer and the replacements the watchdog starts for it), the
 * client-java informer whose store serves reads, and the replacement being synced while
 * the watchdog restarts it. A paused run serves nothing; a stopped one still serves what
 * it last held.
 * <p>
 * Its methods that change it are called under the lock of its {@link ScopedInformer};
 * {@link #serving()} and {@link #restartingFor()} need no lock.
 *
 * @param <T> the model type stored
 */
final class InformerRun<T extends KubernetesObject> {

	private final ScopedInformer<T> owner;

	private final ScopedInformer.Settings settings;

	private final ResourceKind<?> kind;

	private final Class<T> type;

	private final StoreTransform<T> storeTransform;

	/** Reads lists and watch events. */
	private final ObjectDecoder<T> decoder;

	/** Reports and paces failures. */
	private final ListWatchFailures failures;

	/** Pages the lists. */
	private final ListPager pager;

	/** Streams the lists, where the server can. */
	private final StreamingList streaming;

	/** Delivers every cached object again every resync period, if there is one. */
	private final @Nullable Resync<T> resync;

	/** The informer whose store serves reads, {@code null} once paused. */
	private volatile @Nullable ClientInformer<T> serving;

	/** The replacement being synced while the watchdog restarts the informer. */
	private volatile @Nullable ClientInformer<T> replacement;

	/**
	 * Prepares a run; {@link #start()} starts it.
	 * @param owner the informer
	 * @param kind the kind, as the API server serves it
	 * @param type the class objects are stored as
	 * @param storeTransform what is done to each object before it is stored
	 * @param generation the generation whose reports count, see
	 * {@link ScopedInformer.Progress}
	 */
	InformerRun(ScopedInformer<T> owner, ResourceKind<?> kind, Class<T> type, StoreTransform<T> storeTransform,
			int generation) {
		this.owner = owner;
		this.settings = owner.settings();
		this.kind = kind;
		this.type = type;
		this.storeTransform = storeTransform;
		this.pager = new ListPager(this.settings.listPageSize());
		this.streaming = new StreamingList(this.settings.streamingLists());
		this.decoder = new ObjectDecoder<>(type, kind.kind(), ModelReading.gson(this.settings.watchClient()),
				owner::get, owner::countUndecodable);
		this.failures = new ListWatchFailures(owner.key(), kind, this.settings.watchClient());
		ClientInformer<T> created = newInformer(generation);
		owner.handlers().forEach((handler) -> created.registrations().register(created.informer(), handler, false));
		this.serving = created;
		Duration resyncPeriod = this.settings.resyncPeriod();
		this.resync = (!resyncPeriod.isZero()) ? new Resync<>(owner.key(), resyncPeriod, owner::list, owner.handlers())
				: null;
	}

	/**
	 * Starts listing and watching.
	 */
	void start() {
		ClientInformer<T> created = this.serving;
		if (created != null) {
			created.informer().run();
		}
	}

	/**
	 * Returns the informer whose store serves reads.
	 * @return the informer, {@code null} once paused
	 */
	@Nullable SharedIndexInformer<T> serving() {
		ClientInformer<T> current = this.serving;
		return (current != null) ? current.informer() : null;
	}

	/**
	 * Returns the reader of lists and watch events, which knows the objects skipped.
	 * @return the decoder
	 */
	ObjectDecoder<T> decoder() {
		return this.decoder;
	}

	/**
	 * Registers a handler added while the run serves: it first receives an add for every
	 * cached object.
	 * @param handler the handler
	 */
	void register(ResourceEventHandler<T> handler) {
		ClientInformer<T> current = this.serving;
		if (current != null) {
			current.registrations().register(current.informer(), handler, true);
		}
	}

	/**
	 * Adds an index to the stores of the informer serving reads and of its replacement,
	 * each building it from the objects it holds.
	 * @param index the index
	 */
	void addIndex(CacheIndex<T> index) {
		ClientInformer<T> current = this.serving;
		if (current != null) {
			current.store().addIndex(index);
		}
		ClientInformer<T> fresh = this.replacement;
		if (fresh != null) {
			fresh.store().addIndex(index);
		}
	}

	/**
	 * Returns the objects an index of the store serving reads files under a key.
	 * @param index the name of the index
	 * @param namespace the namespace, {@code null} for all namespaces
	 * @param key the key
	 * @return a new list, empty once paused
	 */
	List<T> byIndex(String index, @Nullable String namespace, String key) {
		ClientInformer<T> current = this.serving;
		return (current != null) ? current.store().byIndex(index, namespace, key) : new ArrayList<>();
	}

	/**
	 * Returns for how long the replacement has been syncing.
	 * @return the duration, or {@code null} when no restart is under way
	 */
	@Nullable Duration restartingFor() {
		ClientInformer<T> fresh = this.replacement;
		return (fresh != null) ? Duration.ofNanos(System.nanoTime() - fresh.startedNanos()) : null;
	}

	/**
	 * Whether a replacement is syncing.
	 * @return {@code true} while a restart is under way
	 */
	boolean restarting() {
		return this.replacement != null;
	}

	/**
	 * Starts a replacement that lists everything again.
	 * @param generation the replacement's generation
	 */
	void beginRestart(int generation) {
		ClientInformer<T> fresh = newInformer(generation);
		this.replacement = fresh;
		fresh.informer().run();
	}

	/**
	 * Swaps in the replacement once it has synced, registering every handler with it.
	 * @return the informer replaced and its replacement, or {@code null} if there is no
	 * replacement or it has not synced yet
	 */
	@Nullable Swap<T> completeRestart() {
		ClientInformer<T> fresh = this.replacement;
		ClientInformer<T> old = this.serving;
		if (fresh == null || old == null || !fresh.informer().hasSynced()) {
			return null;
		}
		this.serving = fresh;
		this.replacement = null;
		this.owner.handlers().forEach((handler) -> fresh.registrations().register(fresh.informer(), handler, true));
		return new Swap<>(old.informer(), fresh.informer(), old::stop);
	}

	/**
	 * Stops the replacement, if there is one.
	 */
	void abandonRestart() {
		ClientInformer<T> fresh = this.replacement;
		if (fresh != null) {
			this.replacement = null;
			fresh.stop();
		}
	}

	/**
	 * Stops listing and watching and drops the cached objects.
	 */
	void pause() {
		if (this.resync != null) {
			this.resync.stop();
		}
		ClientInformer<T> fresh = this.replacement;
		if (fresh != null) {
			fresh.stop();
			this.replacement = null;
		}
		ClientInformer<T> current = this.serving;
		if (current != null) {
			current.stop();
			this.serving = null;
		}
	}

	/**
	 * Stops listing and watching; the cached objects still serve reads.
	 */
	void stop() {
		if (this.resync != null) {
			this.resync.stop();
		}
		ClientInformer<T> current = this.serving;
		if (current != null) {
			current.stop();
		}
		ClientInformer<T> fresh = this.replacement;
		if (fresh != null) {
			fresh.stop();
			this.replacement = null;
		}
	}

	private ClientInformer<T> newInformer(int generation) {
		ScopedInformer<T>.Progress progress = this.owner.progress(generation, this.failures);
		HandlerRegistrations<T> registered = new HandlerRegistrations<>();
		// the store keeps the indexes: a replacement builds them from its own list; the
		// owner checks its object budget as the store's count changes
		ObjectStore<T> store = new ObjectStore<>(this.owner.indexes(), this.owner::storeResized);
		// lists and watches read object by object, so that one object that does not
		// decode into the model is skipped instead of failing the whole list or watch
		InformerListerWatcher<T> listerWatcher = new InformerListerWatcher<>(this.owner.key(), this.kind, this.settings,
				this.decoder, this.pager, this.streaming, registered, progress);
		DefaultSharedIndexInformer<T, KubernetesListObject> created = new DefaultSharedIndexInformer<>(this.type,
				listerWatcher, 0, new DeltaFIFO(Caches::metaNamespaceKeyFunc, store), store,
				(type, error) -> progress.failed(error, null));
		created.setTransform(this.storeTransform);
		return new ClientInformer<>(created, listerWatcher, store, registered, System.nanoTime());
	}

	/**
	 * A client-java informer with the handlers registered with it.
	 *
	 * @param <T> the model type stored
	 * @param informer the informer
	 * @param listerWatcher its lists and watches
	 * @param store its store
	 * @param registrations its handlers
	 * @param startedNanos when it was created
	 */
	private record ClientInformer<T extends KubernetesObject>(SharedIndexInformer<T> informer,
			InformerListerWatcher<T> listerWatcher, ObjectStore<T> store, HandlerRegistrations<T> registrations,
			long startedNanos) {

		/** Stops the informer, and discards the stream a list kept for its next watch. */
		void stop() {
			this.informer.stop();
			this.listerWatcher.release();
		}

	}

	/**
	 * A replacement swapped in for the informer it replaced.
	 *
	 * @param <T> the model type stored
	 * @param replaced the informer replaced, still running
	 * @param fresh its replacement, now serving reads
	 * @param stopReplaced stops the informer replaced
	 */
	record Swap<T extends KubernetesObject>(SharedIndexInformer<T> replaced, SharedIndexInformer<T> fresh,
			Runnable stopReplaced) {

	}

}
