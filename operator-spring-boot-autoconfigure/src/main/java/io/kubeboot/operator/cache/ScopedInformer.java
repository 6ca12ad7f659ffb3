package io.kubeboot.operator.cache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ListerWatcher;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.cache.Cache;
import io.kubernetes.client.informer.cache.Caches;
import io.kubernetes.client.informer.impl.DefaultSharedIndexInformer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.util.CallGeneratorParams;
import io.kubernetes.client.util.Watchable;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.options.ListOptions;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One informer: a list-and-watch of one kind in one namespace (or all) with one label
 * selector, and the local store it keeps. Event handlers may be added before and after
 * the informer starts; one added later first receives an add for every cached object.
 * <p>
 * Errors of the list or watch (403 Forbidden, 404 for a missing CRD, a refused
 * connection) never stop the informer: it retries every second, logs each distinct error
 * once per minute, and keeps the last one for {@link #lastError()} so that a cache that
 * does not sync can say why.
 *
 * @param <T> the model type
 */
public final class ScopedInformer<T extends KubernetesObject> {

	private static final Logger logger = LoggerFactory.getLogger(ScopedInformer.class);

	private static final long ERROR_LOG_INTERVAL_NANOS = Duration.ofMinutes(1).toNanos();

	private final InformerKey key;

	private final List<ResourceEventHandler<T>> pendingHandlers = new CopyOnWriteArrayList<>();

	private volatile @Nullable SharedIndexInformer<T> informer;

	private volatile @Nullable String lastError;

	/** When the informer lost its watch, {@code 0} while it has one. */
	private volatile long disconnectedSinceNanos;

	private long lastErrorLoggedAt;

	private @Nullable String lastLoggedError;

	ScopedInformer(InformerKey key) {
		this.key = key;
	}

	/**
	 * Returns what this informer watches.
	 * @return the key
	 */
	public InformerKey key() {
		return this.key;
	}

	/**
	 * Adds an event handler. Handlers are called on the informer's single event thread,
	 * in order, and must not block.
	 * @param handler the handler
	 */
	public synchronized void addEventHandler(ResourceEventHandler<T> handler) {
		SharedIndexInformer<T> started = this.informer;
		if (started != null) {
			started.addEventHandler(handler);
		}
		else {
			this.pendingHandlers.add(handler);
		}
	}

	/**
	 * Whether the first list has been stored and delivered to the handlers.
	 * @return {@code true} once synced
	 */
	public boolean hasSynced() {
		SharedIndexInformer<T> started = this.informer;
		return started != null && started.hasSynced();
	}

	/**
	 * Returns the last list or watch error, for a person to read.
	 * @return the error, or {@code null} if there was none since the last successful sync
	 */
	public @Nullable String lastError() {
		return this.lastError;
	}

	/**
	 * Returns for how long this informer has been without a working watch: its list or
	 * watch failing, or its watch ended and not yet replaced.
	 * @return the duration, or {@code null} while a watch is open
	 */
	public @Nullable Duration failingFor() {
		long since = this.disconnectedSinceNanos;
		return (since != 0) ? Duration.ofNanos(System.nanoTime() - since) : null;
	}

	private void connected() {
		this.lastError = null;
		this.disconnectedSinceNanos = 0;
	}

	private void disconnected() {
		if (this.disconnectedSinceNanos == 0) {
			this.disconnectedSinceNanos = System.nanoTime();
		}
	}

	/**
	 * Returns the cached objects.
	 * @return a new list, empty before the informer started
	 */
	public List<T> list() {
		SharedIndexInformer<T> started = this.informer;
		return (started != null) ? new ArrayList<>(started.getIndexer().list()) : new ArrayList<>();
	}

	/**
	 * Returns the cached objects in one namespace.
	 * @param namespace the namespace
	 * @return a new list
	 */
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
	public Optional<T> get(@Nullable String namespace, String name) {
		SharedIndexInformer<T> started = this.informer;
		if (started == null) {
			return Optional.empty();
		}
		return Optional.ofNullable(started.getIndexer().getByKey((namespace != null) ? namespace + "/" + name : name));
	}

	synchronized void start(ResourceKind<T> kind, ApiClient watchClient, Duration resyncPeriod,
			boolean stripManagedFields) {
		if (this.informer != null) {
			return;
		}
		DefaultSharedIndexInformer<T, KubernetesListObject> created = new DefaultSharedIndexInformer<>(kind.type(),
				listerWatcher(kind, watchClient), resyncPeriod.toMillis(), new Cache<>(), this::onError);
		if (stripManagedFields) {
			created.setTransform((object) -> {
				if (object.getMetadata() != null) {
					object.getMetadata().setManagedFields(null);
				}
				return object;
			});
		}
		this.pendingHandlers.forEach(created::addEventHandler);
		this.pendingHandlers.clear();
		this.informer = created;
		created.run();
	}

	synchronized void stop() {
		SharedIndexInformer<T> started = this.informer;
		if (started != null) {
			started.stop();
		}
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private ListerWatcher<T, KubernetesListObject> listerWatcher(ResourceKind<T> kind, ApiClient client) {
		GenericKubernetesApi<T, KubernetesListObject> api = new GenericKubernetesApi(kind.type(), kind.listType(),
				kind.group(), kind.version(), kind.plural(), client);
		String namespace = kind.namespaced() ? this.key.namespace() : null;
		String labelSelector = this.key.labelSelector();
		return new ListerWatcher<>() {

			@Override
			public KubernetesListObject list(CallGeneratorParams params) throws ApiException {
				ListOptions options = options(params, labelSelector);
				KubernetesListObject list = ((namespace != null) ? api.list(namespace, options) : api.list(options))
					.onFailure((code, status) -> {
						throw new ApiException(status.getMessage(), code, Map.of(), client.getJSON().serialize(status));
					})
					.getObject();
				connected();
				return list;
			}

			@Override
			public Watchable<T> watch(CallGeneratorParams params) throws ApiException {
				ListOptions options = options(params, labelSelector);
				try {
					Watchable<T> watch = (namespace != null) ? api.watch(namespace, options) : api.watch(options);
					connected();
					return new ObservedWatch<>(watch, ScopedInformer.this::disconnected);
				}
				catch (ApiException | RuntimeException ex) {
					// the reflector retries refused connections without reporting them:
					// record them here
					onError(kind.type(), ex);
					throw ex;
				}
			}

		};
	}

	private static ListOptions options(CallGeneratorParams params, @Nullable String labelSelector) {
		ListOptions options = new ListOptions();
		options.setResourceVersion(params.resourceVersion);
		options.setTimeoutSeconds(params.timeoutSeconds);
		options.setLabelSelector(labelSelector);
		return options;
	}

	private void onError(Class<T> type, Throwable error) {
		String message = StatusMessages.describe(error);
		disconnected();
		this.lastError = message;
		synchronized (this) {
			long now = System.nanoTime();
			if (!message.equals(this.lastLoggedError) || now - this.lastErrorLoggedAt > ERROR_LOG_INTERVAL_NANOS) {
				this.lastLoggedError = message;
				this.lastErrorLoggedAt = now;
				logger.warn("List or watch failed, retrying: informer={} error=\"{}\"", this.key, message);
			}
		}
	}

}
