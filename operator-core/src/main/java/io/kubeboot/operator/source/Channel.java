package io.kubeboot.operator.source;

import java.util.Collection;
import java.util.Objects;

import io.kubeboot.operator.manager.StopSignal;
import io.kubeboot.operator.reconcile.Request;
import org.jspecify.annotations.Nullable;

/**
 * A {@link Source} that other code sends requests to, the Java counterpart of
 * controller-runtime's channel source: an HTTP handler receiving a notification from an
 * object store, a message listener, an application event.
 *
 * <pre class="code">
 * Channel bucketEvents = new Channel();
 * Controller.builder(manager, StorageBucket.class).watches(bucketEvents).complete(reconciler);
 * // later, from any thread:
 * bucketEvents.send(Request.of("buckets", "photos"));
 * </pre>
 *
 * {@link #send} never blocks and never calls the API server. While the controller does
 * not run (on a standby replica, before the manager started) requests are dropped, which
 * is safe for level-based reconcilers: a controller reconciles every cached object when
 * it starts. Thread-safe; one channel feeds one controller.
 */
public final class Channel implements Source {

	private volatile @Nullable RequestQueue queue;

	/**
	 * Creates a channel that drops requests until a controller starts it.
	 */
	public Channel() {
	}

	/**
	 * Sends a request to the controller.
	 * @param request the request
	 * @return {@code true} if it was queued, {@code false} if dropped because the
	 * controller does not run
	 */
	public boolean send(Request request) {
		Objects.requireNonNull(request, "request must not be null");
		RequestQueue current = this.queue;
		if (current == null) {
			return false;
		}
		current.add(request);
		return true;
	}

	/**
	 * Sends requests to the controller.
	 * @param requests the requests
	 * @return {@code true} if they were queued, {@code false} if dropped because the
	 * controller does not run
	 */
	public boolean send(Collection<Request> requests) {
		RequestQueue current = this.queue;
		if (current == null) {
			return false;
		}
		requests.forEach(current::add);
		return true;
	}

	/**
	 * Whether a running controller receives what is sent.
	 * @return {@code true} while started
	 */
	public boolean isOpen() {
		return this.queue != null;
	}

	@Override
	public void start(RequestQueue queue, StopSignal stop) throws InterruptedException {
		this.queue = queue;
		try {
			stop.await();
		}
		finally {
			this.queue = null;
		}
	}

	@Override
	public String toString() {
		return "Channel[" + (isOpen() ? "open" : "closed") + "]";
	}

}
