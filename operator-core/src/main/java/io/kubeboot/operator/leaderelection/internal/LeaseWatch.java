package io.kubeboot.operator.leaderelection.internal;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import io.kubeboot.operator.client.internal.StatusMessages;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.util.Watch;
import okhttp3.Call;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the Lease while this replica campaigns, so that a standby tries to acquire it
 * as soon as a leader released it on a graceful shutdown instead of at its next retry.
 * Polling every retry period stays the fallback: a watch that fails or is forbidden by
 * RBAC only costs that speed. {@link #ofLabel} watches the Leases of a label instead (the
 * members of a shard ring), waking on the events a predicate picks.
 */
public class LeaseWatch {

	private static final Logger logger = LoggerFactory.getLogger(LeaseWatch.class);

	/** How often a wait checks the stop signal. */
	private static final long STOP_CHECK_NANOS = Duration.ofMillis(100).toNanos();

	private static final Duration FAILURE_BACKOFF = Duration.ofSeconds(1);

	private final Semaphore changes = new Semaphore(0);

	private final @Nullable ApiClient client;

	private final String namespace;

	private final @Nullable String name;

	private final @Nullable String labelSelector;

	private final Duration watchTimeout;

	private final Predicate<Watch.Response<V1Lease>> wakesOn;

	private final Runnable onChange;

	private final String forbiddenLog;

	private volatile @Nullable Thread thread;

	/** The watch request in flight, cancelled to stop the watch. */
	private volatile @Nullable Call call;

	private volatile boolean forbidden;

	/**
	 * Creates a watch of one Lease.
	 * @param client the client to watch with, with a read timeout longer than
	 * {@code watchTimeout}; {@code null} for none (the candidate then only polls)
	 * @param namespace the Lease's namespace
	 * @param name the Lease's name
	 * @param watchTimeout how long one watch request lasts before it is renewed
	 */
	LeaseWatch(@Nullable ApiClient client, String namespace, String name, Duration watchTimeout) {
		this(client, namespace, name, null, watchTimeout, LeaseWatch::isUpForGrabs, () -> {
		}, "Cannot watch the Lease, a standby notices a release only at its next retry: "
				+ "lease={}/{} error=\"{}\" (grant 'watch' on leases to take over at once)");
	}

	private LeaseWatch(@Nullable ApiClient client, String namespace, @Nullable String name,
			@Nullable String labelSelector, Duration watchTimeout, Predicate<Watch.Response<V1Lease>> wakesOn,
			Runnable onChange, String forbiddenLog) {
		this.client = client;
		this.namespace = namespace;
		this.name = name;
		this.labelSelector = labelSelector;
		this.watchTimeout = watchTimeout;
		this.wakesOn = wakesOn;
		this.onChange = onChange;
		this.forbiddenLog = forbiddenLog;
	}

	/**
	 * A watch of every Lease with a label.
	 * @param client the client to watch with, with a read timeout longer than
	 * {@code watchTimeout}
	 * @param namespace the Leases' namespace
	 * @param labelSelector the label selector, such as
	 * {@code sharding.kubeboot.io/ring=x}
	 * @param watchTimeout how long one watch request lasts before it is renewed
	 * @param wakesOn which events count as a change
	 * @param onChange called on every change, on the watch's thread
	 * @param forbiddenLog the INFO message logged once if RBAC forbids the watch, with
	 * placeholders for the namespace, the selector and the error
	 * @return the watch, not started
	 */
	public static LeaseWatch ofLabel(ApiClient client, String namespace, String labelSelector, Duration watchTimeout,
			Predicate<Watch.Response<V1Lease>> wakesOn, Runnable onChange, String forbiddenLog) {
		return new LeaseWatch(client, namespace, null, labelSelector, watchTimeout, wakesOn, onChange, forbiddenLog);
	}

	/**
	 * A watch that never reports a change: candidates poll every retry period.
	 * @return the watch
	 */
	static LeaseWatch none() {
		return new LeaseWatch(null, "", "", Duration.ofMinutes(1));
	}

	/**
	 * Starts watching in a daemon thread, unless already watching or forbidden.
	 */
	public synchronized void start() {
		if (this.client == null || this.thread != null || this.forbidden) {
			return;
		}
		this.changes.drainPermits();
		Thread started = new Thread(this::run,
				(this.name != null) ? "leader-election-lease-watch" : "lease-watch-" + this.labelSelector);
		started.setDaemon(true);
		this.thread = started;
		started.start();
	}

	/**
	 * Stops watching.
	 */
	public synchronized void stop() {
		Thread started = this.thread;
		this.thread = null;
		if (started != null) {
			// the watch's own thread closes it: closing it here would race that thread's
			// read of the response body
			started.interrupt();
			Call current = this.call;
			if (current != null) {
				current.cancel();
			}
		}
	}

	/**
	 * Waits until the Lease changes, the timeout elapses or the stop signal fires.
	 * @param stop the stop signal
	 * @param timeout the longest wait
	 * @return {@code true} if the stop signal fired
	 * @throws InterruptedException if interrupted while waiting
	 */
	boolean awaitChange(CountDownLatch stop, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			if (stop.getCount() == 0) {
				return true;
			}
			long remaining = deadline - System.nanoTime();
			if (remaining <= 0) {
				return false;
			}
			if (this.changes.tryAcquire(Math.min(remaining, STOP_CHECK_NANOS), TimeUnit.NANOSECONDS)) {
				this.changes.drainPermits();
				return stop.getCount() == 0;
			}
		}
	}

	private void run() {
		CoordinationV1Api api = new CoordinationV1Api(this.client);
		String resourceVersion = null;
		while (Thread.currentThread() == this.thread) {
			try {
				Call call = api.listNamespacedLease(this.namespace)
					.fieldSelector((this.name != null) ? "metadata.name=" + this.name : null)
					.labelSelector(this.labelSelector)
					.resourceVersion(resourceVersion)
					.timeoutSeconds((int) Math.max(1, this.watchTimeout.toSeconds()))
					.watch(true)
					.buildCall(null);
				synchronized (this) {
					if (Thread.currentThread() != this.thread) {
						return; // stopped before the call was stored
					}
					this.call = call;
				}
				resourceVersion = follow(call, resourceVersion);
			}
			catch (ApiException ex) {
				if (ex.getCode() == HttpURLConnection.HTTP_FORBIDDEN) {
					this.forbidden = true;
					logger.info(this.forbiddenLog, this.namespace, (this.name != null) ? this.name : this.labelSelector,
							StatusMessages.describe(ex));
					return;
				}
				backOff(ex);
			}
			catch (Exception ex) {
				backOff(ex);
			}
		}
	}

	/**
	 * Follows one watch until it ends.
	 * @return the resourceVersion to watch from next, {@code null} to start from now
	 */
	private @Nullable String follow(Call call, @Nullable String from) throws ApiException, IOException {
		String resourceVersion = from;
		try (Watch<V1Lease> opened = LeaseEvents.open(this.client, call)) {
			for (Watch.Response<V1Lease> event : opened) {
				if ("ERROR".equals(event.type)) {
					if (event.status != null && event.status.getCode() != null
							&& event.status.getCode() == HttpURLConnection.HTTP_GONE) {
						return null; // too old: start again from now
					}
					break;
				}
				if (event.object != null && event.object.getMetadata() != null) {
					resourceVersion = event.object.getMetadata().getResourceVersion();
				}
				if (this.wakesOn.test(event)) {
					this.changes.release();
					this.onChange.run();
				}
			}
		}
		return resourceVersion;
	}

	/**
	 * Whether an event shows the Lease free: released (no holder) or deleted. Renewals by
	 * the leader do not wake the candidate; it notices an expired Lease by polling.
	 */
	private static boolean isUpForGrabs(Watch.Response<V1Lease> event) {
		if ("DELETED".equals(event.type)) {
			return true;
		}
		V1Lease lease = event.object;
		String holder = (lease != null && lease.getSpec() != null) ? lease.getSpec().getHolderIdentity() : null;
		return holder == null || holder.isEmpty();
	}

	private void backOff(Exception ex) {
		if (Thread.currentThread() != this.thread) {
			return; // stopped: the watch was closed under us
		}
		logger.debug("Lease watch failed, retrying: lease={}/{} error=\"{}\"", this.namespace,
				(this.name != null) ? this.name : this.labelSelector, StatusMessages.describe(ex));
		try {
			Thread.sleep(FAILURE_BACKOFF.toMillis());
		}
		catch (InterruptedException interrupted) {
			Thread.currentThread().interrupt();
		}
	}

}
