package io.kubeboot.operator.controller;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.kubeboot.operator.reconcile.Request;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The requests of a controller whose namespace is in the manager's set but not cached
 * whole yet ({@link NamespaceFilter.Verdict#WAIT}: just added, or refused by RBAC), held
 * outside the work queue by namespace until it is. Every {@link #CHECK_INTERVAL} while
 * any request is held, the controller's namespace filter is asked about each namespace
 * held: the requests of one that synced are handed back to the controller, which queues
 * them with the priority they had; those of one that left the set are dropped with it.
 * <p>
 * A request held costs no work-queue add, no work duration and no log line, however long
 * its namespace takes: the queue's metrics measure work, not waiting. A request is held
 * once (the same request held again keeps its highest priority) and its failure count in
 * the rate limiter is kept, so a request that was failing goes on backing off once its
 * namespace is back. Held between the controller's start and stop; a stop drops them, as
 * the next start queues every cached object again.
 */
final class WaitingRequests {

	/** How often the namespaces held are looked at. */
	static final Duration CHECK_INTERVAL = Duration.ofMillis(250);

	private static final Logger logger = LoggerFactory.getLogger(Controller.class);

	/** The key under which the requests of cluster-scoped objects are held. */
	private static final String CLUSTER = "";

	private final String controller;

	private final NamespaceFilter filter;

	/** Where requests go once their namespace synced (or left). */
	private final Requeue requeue;

	/** The requests held by namespace, each with its priority; guarded by this. */
	private final Map<String, Map<Request, Integer>> held = new LinkedHashMap<>();

	private int size;

	private @Nullable ScheduledExecutorService checker;

	/**
	 * Creates the waiting requests of a controller.
	 * @param controller the controller's name
	 * @param filter its namespace filter
	 * @param requeue where a request goes once its namespace is no longer waited for
	 */
	WaitingRequests(String controller, NamespaceFilter filter, Requeue requeue) {
		this.controller = controller;
		this.filter = filter;
		this.requeue = requeue;
	}

	/**
	 * Starts looking at the namespaces held, for a controller that follows a set.
	 */
	synchronized void start() {
		if (!this.filter.followsSet() || this.checker != null) {
			return;
		}
		ScheduledExecutorService started = Executors.newSingleThreadScheduledExecutor((runnable) -> {
			Thread thread = new Thread(runnable, "controller-" + this.controller + "-namespace-wait");
			thread.setDaemon(true);
			return thread;
		});
		long interval = CHECK_INTERVAL.toMillis();
		started.scheduleWithFixedDelay(this::release, interval, interval, TimeUnit.MILLISECONDS);
		this.checker = started;
	}

	/**
	 * Stops looking and drops every request held.
	 */
	synchronized void stop() {
		if (this.checker != null) {
			this.checker.shutdownNow();
			this.checker = null;
		}
		this.held.clear();
		this.size = 0;
	}

	/**
	 * Holds a request until its namespace synced; dropped if the controller is not
	 * running.
	 * @param request the request
	 * @param priority its priority in the work queue
	 */
	void hold(Request request, int priority) {
		String namespace = (request.namespace() != null) ? request.namespace() : CLUSTER;
		boolean first;
		synchronized (this) {
			if (this.checker == null) {
				return;
			}
			Map<Request, Integer> ofNamespace = this.held.get(namespace);
			first = ofNamespace == null;
			if (first) {
				ofNamespace = new HashMap<>();
				this.held.put(namespace, ofNamespace);
			}
			Integer previous = ofNamespace.get(request);
			if (previous == null || previous < priority) {
				ofNamespace.put(request, priority);
			}
			if (previous == null) {
				this.size++;
			}
		}
		if (first) {
			logger.info("Requests wait for their namespace's caches to sync: controller={} namespace={}",
					this.controller, namespace.isEmpty() ? "(cluster-scoped)" : namespace);
		}
	}

	/**
	 * Returns how many requests are held.
	 * @return the number of requests
	 */
	synchronized int size() {
		return this.size;
	}

	/**
	 * Hands back the requests of every namespace no longer waited for: synced, or out of
	 * the set (the controller drops those).
	 */
	void release() {
		List<Released> released = new ArrayList<>();
		synchronized (this) {
			for (Iterator<Map.Entry<String, Map<Request, Integer>>> namespaces = this.held.entrySet()
				.iterator(); namespaces.hasNext();) {
				Map.Entry<String, Map<Request, Integer>> entry = namespaces.next();
				String namespace = entry.getKey().isEmpty() ? null : entry.getKey();
				NamespaceFilter.Verdict verdict = this.filter.verdict(namespace);
				if (verdict != NamespaceFilter.Verdict.WAIT) {
					namespaces.remove();
					this.size -= entry.getValue().size();
					released.add(new Released(entry.getKey(), verdict, entry.getValue()));
				}
			}
		}
		for (Released namespace : released) {
			logger.info("{}: controller={} namespace={} requests={}",
					(namespace.verdict() == NamespaceFilter.Verdict.DROP)
							? "Requests dropped, their namespace left the watched set"
							: "Requests queued, their namespace's caches synced",
					this.controller, namespace.namespace().isEmpty() ? "(cluster-scoped)" : namespace.namespace(),
					namespace.requests().size());
			namespace.requests().forEach(this.requeue::offer);
		}
	}

	/**
	 * Where requests go once their namespace is no longer waited for.
	 */
	@FunctionalInterface
	interface Requeue {

		/**
		 * Offers a request to the controller again.
		 * @param request the request
		 * @param priority the priority it was held with
		 */
		void offer(Request request, int priority);

	}

	private record Released(String namespace, NamespaceFilter.Verdict verdict, Map<Request, Integer> requests) {
	}

}
