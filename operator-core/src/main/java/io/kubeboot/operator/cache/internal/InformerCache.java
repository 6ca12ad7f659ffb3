package io.kubeboot.operator.cache.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.cache.CacheIndex;
import io.kubeboot.operator.cache.CacheAccessDeniedException;
import io.kubeboot.operator.cache.CacheSyncException;
import io.kubeboot.operator.cache.CacheTransform;
import io.kubeboot.operator.cache.FieldSelectorNotSupportedException;
import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.cache.ObjectBudgets;
import io.kubeboot.operator.cache.UnscopedInformerPolicy;
import io.kubeboot.operator.cache.WatchedNamespaces;
import io.kubeboot.operator.client.ApiClients;
import io.kubeboot.operator.client.ApiServerUnreachableException;
import io.kubeboot.operator.client.KindNotServedException;
import io.kubeboot.operator.client.MatchingIndex;
import io.kubeboot.operator.client.internal.FieldSelector;
import io.kubeboot.operator.client.internal.KindResolver;
import io.kubeboot.operator.client.internal.ResourceKind;
import io.kubeboot.operator.client.internal.StatusMessages;
import io.kubeboot.operator.client.internal.WrittenVersions;
import io.kubeboot.operator.model.PartialObjectMetadata;
import io.kubeboot.operator.reconcile.Request;
import io.kubernetes.client.apimachinery.GroupVersionKind;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The manager's caches: one {@link ScopedInformer} per kind, namespace, label selector
 * and field selector, shared by every controller that asks for the same combination
 * (client-java's own informer factory keys informers by class alone and silently never
 * starts a second namespace of the same kind).
 * <p>
 * Informers registered before {@link #start} are started by it; informers registered
 * afterwards start at once. {@link #start} resolves every kind against the API server
 * first and fails with a message naming the kind when it is not served, instead of
 * starting a list that can never succeed; {@link #waitForSync} fails as soon as the API
 * server refuses an informer's field selector.
 * <p>
 * A cache built with namespaces watches those ({@link #namespaces()}): an informer asked
 * for without a namespace is then a {@link NamespaceSetInformer}, one informer per
 * namespace of the set, which {@link NamespaceSetInformers} keeps in step with the set.
 * <p>
 * Each informer tracks what it costs ({@link CostTracker}) against its object budget
 * ({@link #objectBudgets}); one that caches every Secret, ConfigMap, Pod or Event of the
 * cluster is warned of as it starts ({@link UnscopedInformerWarning}). Thread-safe.
 */
public final class InformerCache implements Cache, WrittenVersions.Tracking, KindResolver.Source {

	private static final Logger logger = LoggerFactory.getLogger(InformerCache.class);

	private static final Duration DISCOVERY_RETRY = Duration.ofSeconds(1);

	private static final long DISCOVERY_LOG_INTERVAL_SECONDS = 10;

	/** Default longest duration of one watch request. */
	public static final Duration DEFAULT_WATCH_TIMEOUT = Duration.ofMinutes(2);

	private static final long ACCESS_RECHECK_NANOS = Duration.ofSeconds(1).toNanos();

	/**
	 * Default most objects one list request asks for: client-go's page size.
	 */
	public static final int DEFAULT_LIST_PAGE_SIZE = ListPager.DEFAULT_PAGE_SIZE;

	/** Default silence after which the watchdog replaces an informer. */
	public static final Duration DEFAULT_SILENCE_THRESHOLD = Duration.ofMinutes(3);

	private final ApiClient watchClient;

	private final KindResolver kindResolver;

	private final String server;

	private final boolean stripManagedFields;

	private final Duration silenceThreshold;

	/** What every informer lists and watches with. */
	private final ScopedInformer.Settings informerSettings;

	/**
	 * Transforms by the class objects are stored as; the default under KubernetesObject.
	 */
	private final Map<Class<?>, CacheTransform<?>> transforms;

	/** Shared by all informers: their objects repeat the same namespaces and labels. */
	private final MetadataDeduplicator deduplicator = new MetadataDeduplicator();

	/** Estimates the heap of the informers' objects, within a bounded work a second. */
	private final HeapSampler sampler = new HeapSampler(new HeapEstimator(ObjectLayout.current()));

	private final UnscopedInformerWarning unscoped = new UnscopedInformerWarning();

	private volatile ObjectBudgets budgets = ObjectBudgets.NONE;

	/** Names the runnables that read an informer, for the unscoped informer's WARN. */
	private volatile Function<InformerKey, List<String>> readers = (key) -> List.of();

	private final InformerWatchdog watchdog;

	private final ApiServerHeartbeat heartbeat;

	/** The informers, and the cache's lock. */
	private final InformerRegistry registry;

	/** The reads across the informers of a kind. */
	private final CacheReads reads;

	private final Map<Class<?>, ResourceKind<?>> kinds = new ConcurrentHashMap<>();

	private volatile boolean started;

	private volatile List<CacheAccessCheck.Scope> accessScopes = List.of();

	/** What RBAC denied the informers when last checked, {@code null} if nothing. */
	private volatile @Nullable String accessDenied;

	/** The namespaces watched, and the informers that follow them. */
	private final NamespaceSetInformers namespaceSet;

	private final WrittenVersions written = new WrittenVersions(WrittenVersions.DEFAULT_WAIT);

	/**
	 * Creates a cache.
	 * @param client the client whose server and credentials the informers use (it is not
	 * modified)
	 * @param resyncPeriod how often every cached object is delivered again to the
	 * handlers as an update, zero for never
	 * @param stripManagedFields whether to drop {@code metadata.managedFields} from
	 * cached objects to save memory
	 * @param watchTimeout the longest one watch request lasts before it is renewed (each
	 * lasts between half of it and all of it); a read waits at most twice as long
	 * @param silenceThreshold how long an informer may see nothing from the API server
	 * before the watchdog replaces it with a fresh list and watch; must exceed the watch
	 * timeout
	 * @param listPageSize the most objects one list request asks for: lists are read in
	 * pages of this size where the API server pages them (see {@code ListPager})
	 * @param streamingLists whether to stream lists where the API server can (see
	 * {@code StreamingList})
	 * @param transforms the transforms applied to objects before they are cached, by the
	 * class the objects are stored as ({@link PartialObjectMetadata} for every kind
	 * cached as metadata only); the one under {@link KubernetesObject} applies to every
	 * class without one of its own
	 */
	public InformerCache(ApiClient client, Duration resyncPeriod, boolean stripManagedFields, Duration watchTimeout,
			Duration silenceThreshold, int listPageSize, boolean streamingLists,
			Map<Class<?>, CacheTransform<?>> transforms) {
		this(client, resyncPeriod, stripManagedFields, watchTimeout, silenceThreshold, listPageSize, streamingLists,
				transforms, List.of());
	}

	/**
	 * Creates a cache that watches a set of namespaces, or all of them.
	 * @param client the client whose server and credentials the informers use (it is not
	 * modified)
	 * @param resyncPeriod how often every cached object is delivered again to the
	 * handlers as an update, zero for never
	 * @param stripManagedFields whether to drop {@code metadata.managedFields} from
	 * cached objects to save memory
	 * @param watchTimeout the longest one watch request lasts before it is renewed
	 * @param silenceThreshold how long an informer may see nothing from the API server
	 * before the watchdog replaces it; must exceed the watch timeout
	 * @param listPageSize the most objects one list request asks for
	 * @param streamingLists whether to stream lists where the API server can
	 * @param transforms the transforms applied to objects before they are cached, by the
	 * class the objects are stored as
	 * @param namespaces the namespaces an informer asked for without one watches, each an
	 * RFC 1123 label; empty for all namespaces (see {@link #namespaces()})
	 */
	public InformerCache(ApiClient client, Duration resyncPeriod, boolean stripManagedFields, Duration watchTimeout,
			Duration silenceThreshold, int listPageSize, boolean streamingLists,
			Map<Class<?>, CacheTransform<?>> transforms, Collection<String> namespaces) {
		// the manager's ManagerConfig checked the values
		this.transforms = Map.copyOf(transforms);
		this.watchClient = ApiClients.forWatches(client, watchTimeout.multipliedBy(2));
		this.kindResolver = new KindResolver(client);
		this.server = client.getBasePath();
		this.stripManagedFields = stripManagedFields;
		this.silenceThreshold = silenceThreshold;
		this.informerSettings = new ScopedInformer.Settings(this.watchClient, resyncPeriod, watchTimeout, listPageSize,
				streamingLists);
		this.watchdog = new InformerWatchdog(this.watchClient, silenceThreshold, this::scopedInformers);
		this.heartbeat = new ApiServerHeartbeat(this.watchClient, this::lastHeardNanos);
		this.registry = new InformerRegistry(this.informerSettings, this.written,
				(key) -> new CostTracker(key, this.budgets.budgetOf(key), this.sampler));
		this.namespaceSet = new NamespaceSetInformers(this, this.registry, namespaces);
		this.reads = new CacheReads(this.registry, this.namespaceSet, this.written);
	}

	/**
	 * Returns the namespaces watched: every informer asked for without a namespace
	 * follows them.
	 * @return the namespaces, which may change while the cache runs unless all are
	 * watched
	 */
	public WatchedNamespaces namespaces() {
		return this.namespaceSet;
	}

	/**
	 * Returns the informer for a kind, namespace and label selector, registering it on
	 * first use.
	 * @param <T> the model type
	 * @param type the model class
	 * @param namespace the namespace, or {@code null} for all namespaces
	 * @param labelSelector the label selector, or {@code null} for all objects
	 * @return the shared informer
	 * @throws IllegalArgumentException if the class declares no Kubernetes kind or has no
	 * list class
	 */
	@Override
	public <T extends KubernetesObject> Informer<T> informer(Class<T> type, @Nullable String namespace,
			@Nullable String labelSelector) {
		return informer(type, namespace, labelSelector, null);
	}

	/**
	 * Returns the informer for a kind, namespace, label selector and field selector,
	 * registering it on first use.
	 * @param <T> the model type
	 * @param type the model class
	 * @param namespace the namespace, or {@code null} for the cache's namespaces (all
	 * namespaces unless it watches a set)
	 * @param labelSelector the label selector, or {@code null} for all objects
	 * @param fieldSelector the field selector, or {@code null} for all objects
	 * @return the shared informer
	 * @throws IllegalArgumentException if the class declares no Kubernetes kind or has no
	 * list class, or the field selector cannot be parsed
	 */
	@Override
	public <T extends KubernetesObject> Informer<T> informer(Class<T> type, @Nullable String namespace,
			@Nullable String labelSelector, @Nullable String fieldSelector) {
		KindResolver.declaredKind(type);
		// here rather than when the cache starts, so that the mistake names the
		// controller or the code that asked for the informer
		KindResolver.listType(type);
		return informer(key(type, namespace, labelSelector, fieldSelector, false), ALL_NAMESPACES.equals(namespace));
	}

	@Override
	public Informer<PartialObjectMetadata> metadataInformer(Class<? extends KubernetesObject> type,
			@Nullable String namespace, @Nullable String labelSelector) {
		return metadataInformer(type, namespace, labelSelector, null);
	}

	@Override
	public Informer<PartialObjectMetadata> metadataInformer(Class<? extends KubernetesObject> type,
			@Nullable String namespace, @Nullable String labelSelector, @Nullable String fieldSelector) {
		KindResolver.declaredKind(type);
		return informer(key(type, namespace, labelSelector, fieldSelector, true), ALL_NAMESPACES.equals(namespace));
	}

	/**
	 * Returns the informer of a key: one of the manager's namespace set for a key without
	 * a namespace, unless asked for {@link Cache#ALL_NAMESPACES} or the cache watches
	 * all.
	 */
	private <T extends KubernetesObject> Informer<T> informer(InformerKey key, boolean allNamespaces) {
		if (key.namespace() != null || allNamespaces || this.namespaceSet.watchesAll()) {
			return register(key);
		}
		if (this.started) {
			// resolved first, so that a cluster-scoped kind gets its one informer of all
			// namespaces at once
			try {
				resolve(key.type());
			}
			catch (ApiException ex) {
				throw new IllegalStateException("Cannot start informer " + key + ": " + StatusMessages.describe(ex),
						ex);
			}
		}
		return this.namespaceSet.informer(key);
	}

	private static InformerKey key(Class<? extends KubernetesObject> type, @Nullable String namespace,
			@Nullable String labelSelector, @Nullable String fieldSelector, boolean metadataOnly) {
		InformerKey key = new InformerKey(type, ALL_NAMESPACES.equals(namespace) ? null : namespace, labelSelector,
				fieldSelector, metadataOnly);
		if (key.fieldSelector() != null) {
			// a malformed selector fails here, naming it, rather than at every list
			FieldSelector.parse(key.fieldSelector());
		}
		return key;
	}

	private <T extends KubernetesObject> ScopedInformer<T> register(InformerKey key) {
		ScopedInformer<T> informer = this.registry.register(key, true);
		startIfStarted(informer);
		return informer;
	}

	/**
	 * Stops an informer that was unregistered: its objects leave the cache with it.
	 * @param informer the informer
	 */
	void stopRemoved(ScopedInformer<?> informer) {
		try {
			informer.stop();
		}
		catch (RuntimeException ex) {
			logger.warn("Informer did not stop cleanly: informer={}", informer.key(), ex);
		}
	}

	/**
	 * Whether the cache has started: informers registered now start at once.
	 * @return {@code true} once started
	 */
	boolean isStarted() {
		return this.started;
	}

	/**
	 * Starts an informer if the cache has started; else the cache's start will.
	 * @param informer a registered informer
	 * @throws IllegalStateException if its kind cannot be resolved
	 */
	void startIfStarted(ScopedInformer<?> informer) {
		boolean startNow;
		synchronized (this.registry) {
			startNow = this.started;
		}
		if (startNow) {
			startResolved(informer);
		}
	}

	/**
	 * Sets the object budgets of the informers registered from now on: call it before any
	 * is.
	 * @param budgets the budgets
	 */
	public void objectBudgets(ObjectBudgets budgets) {
		this.budgets = Objects.requireNonNull(budgets, "budgets must not be null");
	}

	/**
	 * Sets how an informer that caches every Secret, ConfigMap, Pod or Event of the
	 * cluster is warned of, for those that start from now on.
	 * @param policy the acknowledged kinds and the advice of the WARN
	 */
	public void unscopedInformers(UnscopedInformerPolicy policy) {
		this.unscoped.policy(Objects.requireNonNull(policy, "policy must not be null"));
	}

	/**
	 * Sets what names the runnables that read an informer, for the WARN of an informer
	 * that caches every Secret, ConfigMap, Pod or Event of the cluster.
	 * @param readers the names of the runnables reading an informer, by its key
	 */
	public void namingReaders(Function<InformerKey, List<String>> readers) {
		this.readers = Objects.requireNonNull(readers, "readers must not be null");
	}

	/**
	 * Declares an index of a kind, kept by every informer of the kind's whole objects:
	 * those running build it from what they hold before this returns, those registered or
	 * started later from their first list.
	 * @param index the index
	 * @throws IllegalArgumentException if the kind has another index of that name
	 */
	@Override
	public void addIndex(CacheIndex<?> index) {
		Objects.requireNonNull(index, "index must not be null");
		List<ScopedInformer<?>> ofKind = this.registry.declare(index);
		// outside the cache's lock: building waits for the store's writer, whose index
		// function may read the cache. An informer registered meanwhile got the index
		// from the map; attaching it again waits for the build under way, then does
		// nothing
		for (ScopedInformer<?> informer : ofKind) {
			InformerRegistry.attach(informer, index);
		}
	}

	/**
	 * Gives back an informer: once given back as often as it was asked for, it stops
	 * listing and watching and drops its objects, and {@link #informer} or
	 * {@link #metadataInformer} starts it again. It stays registered, paused: the same
	 * instance, with its handlers, metrics and health, serves the next asking.
	 * @param informer an informer of this cache
	 */
	@Override
	public void release(Informer<?> informer) {
		if (informer instanceof NamespaceSetInformer<?> followingSet) {
			this.namespaceSet.release(followingSet);
			return;
		}
		if (informer instanceof ScopedInformer<?> scoped) {
			this.registry.release(scoped);
		}
	}

	@Override
	public void onInformerRegistered(Consumer<Informer<?>> listener) {
		this.registry.onRegistered(listener);
	}

	@Override
	public void onInformerUnregistered(Consumer<Informer<?>> listener) {
		this.registry.onUnregistered(listener);
	}

	/**
	 * Calls a listener with the namespaces that leave the set at each change, while their
	 * informers still hold their objects (and before those stop): controllers warn about
	 * the objects left with their finalizer.
	 * @param listener the listener; called by the thread that changes the set, it must
	 * not change the set
	 */
	public void onNamespacesLeaving(Consumer<Set<String>> listener) {
		this.namespaceSet.onLeaving(listener);
	}

	/**
	 * Calls a listener with the namespaces that join the set at each change, once their
	 * informers started: the manager checks the RBAC they need there.
	 * @param listener the listener; called by the thread that changes the set, it must
	 * not block nor change the set
	 */
	public void onNamespacesJoined(Consumer<Set<String>> listener) {
		this.namespaceSet.onJoined(listener);
	}

	/**
	 * Returns the keys of the lists and watches an informer runs: its own key, or, for an
	 * informer of the namespace set, the key of each namespace's, as the set is now (that
	 * of all namespaces for a cluster-scoped kind).
	 * @param informer an informer of this cache
	 * @return the keys
	 */
	public List<InformerKey> keysOf(Informer<?> informer) {
		return (informer instanceof NamespaceSetInformer<?> followingSet) ? followingSet.memberKeys()
				: List.of(informer.key());
	}

	/**
	 * Whether an informer follows the namespace set: one asked for without a namespace
	 * while the cache watches a set.
	 * @param informer an informer of this cache
	 * @return {@code true} if its namespaces are those of the set
	 */
	public boolean followsNamespaceSet(Informer<?> informer) {
		return informer instanceof NamespaceSetInformer<?>;
	}

	/**
	 * Returns the informers that follow the namespace set, each with its members (one
	 * informer per namespace, or the one of all namespaces of a cluster-scoped kind), for
	 * readiness to tell the namespaces apart from the other caches.
	 * @return the informers of the set, empty when the cache watches all namespaces
	 */
	public List<SetInformer> namespaceSetInformers() {
		return this.namespaceSet.informers();
	}

	/**
	 * Resolves the kind of every registered informer against the API server's discovery,
	 * retrying every second while discovery fails (the API server may still be starting),
	 * until the timeout. A failure is logged at once, then again every 10 seconds or when
	 * it changes.
	 * @param timeout how long to keep trying
	 * @throws ApiServerUnreachableException naming the server and the last error once the
	 * timeout passed without an answer from the API server, or with error answers only
	 * @throws KindNotServedException if a kind is not served by the API server
	 * @throws InterruptedException if interrupted while waiting to retry
	 */
	public void resolveAll(Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		@Nullable String logged = null;
		long loggedAt = 0;
		int attempts = 0;
		while (true) {
			try {
				attempts++;
				for (ScopedInformer<?> informer : scopedInformers()) {
					resolve(informer.key().type());
				}
				// those of an empty set too, whose namespaces may come later
				for (Class<? extends KubernetesObject> type : this.namespaceSet.types()) {
					resolve(type);
				}
				this.namespaceSet.resolved();
				return;
			}
			catch (ApiException ex) {
				String error = StatusMessages.describe(ex);
				if (System.nanoTime() - deadline >= 0) {
					throw new ApiServerUnreachableException(this.server, timeout, error, ex);
				}
				long now = System.nanoTime();
				if (!error.equals(logged) || now - loggedAt >= DISCOVERY_LOG_INTERVAL_SECONDS * 1_000_000_000L) {
					logger.warn("API discovery failed, retrying: server={} attempts={} error=\"{}\"", this.server,
							attempts, error);
					logged = error;
					loggedAt = now;
				}
				Thread.sleep(DISCOVERY_RETRY.toMillis());
			}
		}
	}

	/**
	 * Returns the resources and namespaces the registered informers list and watch, once
	 * {@link #resolveAll resolved}.
	 * @return the scopes, one per informer
	 * @throws IllegalStateException if a kind was not resolved and discovery fails
	 */
	public List<CacheAccessCheck.Scope> accessScopes() {
		List<CacheAccessCheck.Scope> scopes = new ArrayList<>();
		for (ScopedInformer<?> informer : scopedInformers()) {
			ResourceKind<?> kind = resolved(informer.key().type());
			scopes.add(new CacheAccessCheck.Scope(kind, kind.namespaced() ? informer.key().namespace() : null));
		}
		return scopes;
	}

	/**
	 * Starts every registered informer, once {@link #resolveAll resolved}, and the
	 * watchdog. What RBAC denies the informers, as the manager's start-up check found, is
	 * logged as an ERROR at once; {@link #waitForSync} checks it again until it is
	 * granted, save in namespaces of the set RBAC refuses while others sync. Does not
	 * wait for the informers to sync.
	 * @param denied what the start-up check found RBAC to deny, or {@code null} if it
	 * could not ask
	 * @throws IllegalStateException if a kind registered meanwhile cannot be resolved
	 */
	public void start(CacheAccessCheck.@Nullable Verdicts denied) {
		this.accessScopes = accessScopes();
		accessChecked(denied);
		List<ScopedInformer<?>> toStart = scopedInformers();
		for (ScopedInformer<?> informer : toStart) {
			startResolved(informer);
		}
		synchronized (this.registry) {
			this.started = true;
			toStart = this.registry.informers();
		}
		for (ScopedInformer<?> informer : toStart) {
			startResolved(informer); // registered while starting
		}
		this.watchdog.start();
		this.heartbeat.start();
	}

	/**
	 * Takes what the manager's start-up check found RBAC to deny the informers, when it
	 * ran beside their first lists: logged as an ERROR at once, and checked again by
	 * {@link #waitForSync} until it is granted.
	 * @param denied what the check found, or {@code null} if it could not ask
	 */
	public void accessChecked(CacheAccessCheck.@Nullable Verdicts denied) {
		String message = (denied != null) ? CacheAccessCheck.describe(this.accessScopes, denied) : null;
		if (message != null) {
			this.accessDenied = message;
			// loud at once; start-up fails only if it is still so at the sync timeout,
			// since RBAC is often applied moments after the operator starts, and a
			// namespace of the set refused while others sync is let be
			logger.error("{}; the caches cannot sync until it is granted", message);
		}
	}

	/**
	 * Returns for how long the API server has not answered the cache's probe (a
	 * {@code /version} every second), which shows an outage while the watches are still
	 * open, as they are while an API server stops gracefully.
	 * @return the duration, {@code null} while it answers
	 */
	public @Nullable Duration apiServerUnansweredFor() {
		return this.heartbeat.unansweredFor();
	}

	/**
	 * Returns why the API server's probe fails.
	 * @return the error, {@code null} while it answers
	 */
	public @Nullable String apiServerError() {
		return this.heartbeat.lastError();
	}

	private void startResolved(ScopedInformer<?> informer) {
		try {
			startInformer(informer);
		}
		catch (ApiException ex) {
			throw new IllegalStateException(
					"Cannot start informer " + informer.key() + ": " + StatusMessages.describe(ex), ex);
		}
	}

	/**
	 * Returns a kind resolved before, without asking the API server.
	 * @param type the model class
	 * @return the kind, or {@code null} if it was not resolved yet
	 */
	public @Nullable ResourceKind<?> resolvedKind(Class<?> type) {
		return this.kinds.get(type);
	}

	/**
	 * Resolves a model class against the API server, once per class.
	 * @param <T> the model type
	 * @param type the model class
	 * @return the resolved kind
	 * @throws ApiException if discovery fails
	 */
	@SuppressWarnings("unchecked")
	public <T extends KubernetesObject> ResourceKind<T> resolve(Class<T> type) throws ApiException {
		ResourceKind<?> kind = this.kinds.get(type);
		if (kind == null) {
			kind = this.kindResolver.resolve(type);
			this.kinds.put(type, kind);
		}
		return (ResourceKind<T>) kind;
	}

	@SuppressWarnings("unchecked")
	private <T extends KubernetesObject> void startInformer(ScopedInformer<T> informer) throws ApiException {
		InformerKey key = informer.key();
		ResourceKind<?> kind = resolve(key.type());
		Class<T> stored = (Class<T>) (key.metadataOnly() ? PartialObjectMetadata.class : kind.type());
		CacheTransform<?> transform = this.transforms.getOrDefault(stored, this.transforms.get(KubernetesObject.class));
		StoreTransform<T> storeTransform = new StoreTransform<>(key, stored,
				key.metadataOnly() ? kind.apiVersion() : null, key.metadataOnly() ? kind.kind() : null,
				this.stripManagedFields, (CacheTransform<T>) transform, this.deduplicator);
		this.unscoped.warnOnce(key, kind, this.readers.apply(key), transform != null);
		informer.start(kind, stored, storeTransform);
	}

	/**
	 * Blocks until every informer has synced, save for those of namespaces of the set
	 * that RBAC refuses ({@code 403}) while another namespace of the set is not refused:
	 * those are tolerated, as they are when a namespace is added while the cache runs, so
	 * that one tenant's missing Role does not fail every start; they are logged, retried,
	 * and named by readiness. When RBAC refuses every namespace of the set, the start
	 * fails as before.
	 * @param timeout how long to wait at most
	 * @throws CacheSyncException if an informer did not sync in time, naming each one and
	 * its last error; a {@link CacheAccessDeniedException} naming the verbs, resources
	 * and namespaces if RBAC still denies what the informers need
	 * @throws FieldSelectorNotSupportedException as soon as the API server refuses the
	 * field selector of an informer that has not synced, naming it and the kind: it would
	 * refuse it until the kind changes
	 * @throws InterruptedException if interrupted while waiting
	 */
	public void waitForSync(Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		long lastAccessCheck = System.nanoTime();
		while (true) {
			Set<String> refusedNamespaces = refusedNamespacesOfTheSet();
			List<ScopedInformer<?>> pending = new ArrayList<>();
			List<ScopedInformer<?>> refused = new ArrayList<>();
			for (ScopedInformer<?> informer : notSynced()) {
				if (refusedNamespaces.contains(informer.key().namespace())) {
					refused.add(informer);
				}
				else {
					pending.add(informer);
				}
			}
			List<CacheAccessCheck.Scope> gating = this.accessScopes.stream()
				.filter((scope) -> !refusedNamespaces.contains(scope.namespace()))
				.toList();
			for (ScopedInformer<?> informer : pending) {
				String refusal = informer.fieldSelectorRefusal();
				if (refusal != null) {
					ResourceKind<?> kind = resolvedKind(informer.key().type());
					throw new FieldSelectorNotSupportedException(informer.key(),
							(kind != null) ? kind.toString() : informer.key().type().getSimpleName(), refusal);
				}
			}
			if (pending.isEmpty()) {
				// a list allowed without its watch syncs a cache that would never change
				if (this.accessDenied == null) {
					tolerated(refused);
					return;
				}
				if (System.nanoTime() - lastAccessCheck > ACCESS_RECHECK_NANOS) {
					lastAccessCheck = System.nanoTime();
					this.accessDenied = CacheAccessCheck.check(this.watchClient, gating);
					continue;
				}
			}
			if (System.nanoTime() - deadline >= 0) {
				String denied = CacheAccessCheck.check(this.watchClient, gating);
				if (denied != null) {
					throw new CacheAccessDeniedException(denied);
				}
				if (pending.isEmpty()) {
					tolerated(refused);
					return;
				}
				throw new CacheSyncException("Caches did not sync within " + timeout + ": "
						+ pending.stream()
							.map((informer) -> informer.key() + " "
									+ ((informer.lastError() != null) ? "failed with " + informer.lastError()
											: "is still listing"))
							.collect(Collectors.joining("; ")));
			}
			Thread.sleep(20);
		}
	}

	private static void tolerated(List<ScopedInformer<?>> refused) {
		if (!refused.isEmpty()) {
			logger.warn(
					"Caches synced, except in namespaces of the set that RBAC refuses: their requests wait "
							+ "until it is granted, and readiness names them: informers={}",
					refused.stream().map(ScopedInformer::key).toList());
		}
	}

	/**
	 * Returns the namespaces of the set whose lists or watches RBAC refuses ({@code 403})
	 * to an informer of the set, which the start does not wait for, as a change of the
	 * set does not: one tenant's missing Role must not fail every start. Only while
	 * another namespace of the set is not refused: when RBAC refuses every one of them,
	 * the operator would do nothing, and the start fails as for any informer.
	 * @return the namespaces, empty when none is refused or when all are
	 */
	private Set<String> refusedNamespacesOfTheSet() {
		Set<String> refused = new HashSet<>();
		for (SetInformer informer : this.namespaceSet.informers()) {
			for (Informer<?> member : informer.members()) {
				if (member.key().namespace() != null && ((ScopedInformer<?>) member).forbidden()) {
					refused.add(member.key().namespace());
				}
			}
		}
		return this.namespaceSet.current().stream().allMatch(refused::contains) ? new HashSet<>() : refused;
	}

	/**
	 * Whether every registered informer has synced.
	 * @return {@code true} when all have synced
	 */
	public boolean hasSynced() {
		return notSynced().isEmpty();
	}

	@Override
	public List<Informer<?>> informers() {
		return List.copyOf(scopedInformers());
	}

	@Override
	public GroupVersionKind groupVersionKind(Class<? extends KubernetesObject> type) {
		ResourceKind<?> kind = resolved(type);
		return new GroupVersionKind(kind.group(), kind.version(), kind.kind());
	}

	@Override
	public boolean isNamespaced(Class<? extends KubernetesObject> type) {
		return resolved(type).namespaced();
	}

	private ResourceKind<?> resolved(Class<? extends KubernetesObject> type) {
		try {
			return resolve(type);
		}
		catch (ApiException ex) {
			throw new IllegalStateException("Cannot resolve the kind of " + type.getName() + " against the API server: "
					+ StatusMessages.describe(ex), ex);
		}
	}

	/**
	 * Returns every registered informer, for the cache's own checks.
	 * @return a new list of the informers
	 */
	private List<ScopedInformer<?>> scopedInformers() {
		return this.registry.informers();
	}

	/** When any informer last heard from the API server. */
	private OptionalLong lastHeardNanos() {
		OptionalLong latest = OptionalLong.empty();
		for (ScopedInformer<?> informer : scopedInformers()) {
			OptionalLong heard = informer.lastHeardNanos();
			if (heard.isPresent() && (latest.isEmpty() || heard.getAsLong() - latest.getAsLong() > 0)) {
				latest = heard;
			}
		}
		return latest;
	}

	private List<ScopedInformer<?>> notSynced() {
		return scopedInformers().stream().filter((informer) -> !informer.hasSynced()).toList();
	}

	/**
	 * Stops every informer. The cache cannot be started again.
	 */
	public void stop() {
		this.namespaceSet.stop();
		this.watchdog.stop();
		this.heartbeat.stop();
		for (ScopedInformer<?> informer : scopedInformers()) {
			try {
				informer.stop();
			}
			catch (RuntimeException ex) {
				logger.warn("Informer did not stop cleanly: informer={}", informer.key(), ex);
			}
		}
	}

	@Override
	public WrittenVersions writtenVersions() {
		return this.written;
	}

	@Override
	public boolean holds(KubernetesObject object) {
		for (ScopedInformer<?> informer : scopedInformers()) {
			if (informer.holds(object)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Records a write under the registry lock, under which an informer that stops forgets
	 * the writes of its objects: recorded before, it is forgotten with them; after, the
	 * cache no longer holds the object and it is not recorded.
	 */
	@Override
	public void recordIfHeld(KubernetesObject object, Runnable record) {
		synchronized (this.registry) {
			if (holds(object)) {
				record.run();
			}
		}
	}

	/**
	 * Returns the cached object, never older than this process's own last write of it
	 * through the manager's client (waiting briefly for the cache to catch up).
	 */
	@Override
	public <T extends KubernetesObject> Optional<T> get(Class<T> type, Request request) {
		return this.reads.get(type, request, false);
	}

	/**
	 * Returns the cached metadata, never older than this process's own last write of the
	 * object through the manager's client (waiting briefly for the cache to catch up).
	 */
	@Override
	public Optional<PartialObjectMetadata> getMetadata(Class<? extends KubernetesObject> type, Request request) {
		return this.reads.get(type, request, true);
	}

	@Override
	public <T extends KubernetesObject> List<T> list(Class<T> type, @Nullable String namespace) {
		return this.reads.list(type, namespace, false);
	}

	/**
	 * Returns the objects that the kind's index files under the key, read from the index
	 * of each informer of the kind's whole objects, not by visiting its objects.
	 * @throws IllegalStateException if the kind has no such index, or no informer caches
	 * it whole
	 */
	@Override
	public <T extends KubernetesObject> List<T> list(Class<T> type, @Nullable String namespace,
			MatchingIndex matching) {
		return this.reads.list(type, namespace, matching);
	}

	@Override
	public List<PartialObjectMetadata> listMetadata(Class<? extends KubernetesObject> type,
			@Nullable String namespace) {
		return this.reads.list(type, namespace, true);
	}

	/**
	 * An informer that follows the namespace set, as it is now.
	 *
	 * @param key its key, without a namespace
	 * @param askedFor whether anyone asks for it: one given back as often as it was asked
	 * for has its members paused (unless asked for by name too), and lists nothing new
	 * @param members its informer of each namespace of the set, in the order of the
	 * namespaces, registered with the cache
	 */
	public record SetInformer(InformerKey key, boolean askedFor, List<Informer<?>> members) {

	}

	@Override
	public KindResolver kindResolver() {
		return this.kindResolver;
	}

}
