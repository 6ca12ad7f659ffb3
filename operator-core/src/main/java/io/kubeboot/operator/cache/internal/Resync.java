package io.kubeboot.operator.cache.internal;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.kubeboot.operator.cache.InformerKey;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers every cached object of an informer to its handlers again, as an update whose
 * old and new object are the same, once per resync period.
 * <p>
 * client-java's own resync cannot be used: with a resync period, its informer sends the
 * objects of a relist (after a watch failed or its resourceVersion expired) only to the
 * handlers whose resync was due at the last resync check, and whether a handler is due
 * depends on a few milliseconds of scheduling jitter. About every other period a handler
 * is not, and for that whole period (ten hours by default) the changes a relist brings
 * never reach it. Its informers therefore run without a resync period, so every relist
 * reaches every handler, and this class resyncs instead.
 *
 * @param <T> the model type
 */
final class Resync<T extends KubernetesObject> {

	private static final Logger logger = LoggerFactory.getLogger(Resync.class);

	private final InformerKey key;

	private final Supplier<List<T>> objects;

	private final List<ResourceEventHandler<T>> handlers;

	private final ScheduledExecutorService timer;

	/**
	 * Starts resyncing.
	 * @param key the informer, for the thread name and logs
	 * @param period the resync period, positive
	 * @param objects the cached objects at the moment it is called
	 * @param handlers the informer's handlers, read at every resync
	 */
	Resync(InformerKey key, Duration period, Supplier<List<T>> objects, List<ResourceEventHandler<T>> handlers) {
		this.key = key;
		this.objects = objects;
		this.handlers = handlers;
		this.timer = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "informer-resync-" + key.type().getSimpleName());
			thread.setDaemon(true);
			return thread;
		});
		long millis = Math.max(1, period.toMillis());
		this.timer.scheduleAtFixedRate(this::resyncAll, millis, millis, TimeUnit.MILLISECONDS);
	}

	/**
	 * Delivers every cached object to every handler once.
	 */
	void resyncAll() {
		for (T object : this.objects.get()) {
			for (ResourceEventHandler<T> handler : this.handlers) {
				try {
					handler.onUpdate(object, object);
				}
				catch (RuntimeException ex) {
					logger.error("Event handler failed on a resync: informer={}", this.key, ex);
				}
			}
		}
	}

	void stop() {
		this.timer.shutdownNow();
	}

}
