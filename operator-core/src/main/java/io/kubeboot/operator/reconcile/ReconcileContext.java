package io.kubeboot.operator.reconcile;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;

/**
 * What a reconcile knows besides its {@link Request}: its controller, its
 * {@code reconcileID} (the one in the log context), why it runs, and how long its request
 * waited. The controller binds it to the worker's thread for the duration of the
 * reconcile, so a reconciler reads it with {@link #current()}:
 *
 * <pre class="code">
 * ReconcileContext context = ReconcileContext.current().orElseThrow();
 * logger.info("Reconciling: triggers={} queued={}", context.triggers(), context.queued());
 * </pre>
 *
 * The triggers are those queued since the request was last handed to a worker, oldest
 * first: the work queue reconciles a request once however often it was queued while it
 * waited, so one reconcile may have many. At most {@link #MAX_TRIGGERS} are kept per
 * request; {@link #droppedTriggers()} counts those cut beyond, and
 * {@link #triggerKinds()} has their kinds too.
 * <p>
 * The triggers are diagnostics: they say why the reconcile was queued, not what it has to
 * do, and a reconciler converges on the state it reads whatever they say, as
 * controller-runtime's and kube-rs's reconcilers must. They are not a complete record of
 * changes: a trigger that raced with the start of the previous reconcile went to that
 * reconcile (which saw its change) and leaves the next one's list empty; a retry after an
 * error lists {@code retry_after_error}, not the change the failed reconcile was for; a
 * controller that restarts (a new leader) starts from {@code resync}. Never skip work
 * because a kind is absent.
 * <p>
 * The context is bound to the worker's thread only: code the reconciler hands to another
 * thread (an executor, {@code CompletableFuture.supplyAsync}) finds {@link #current()}
 * empty, and should be given the context instead. With Spring, a {@code @Reconciles}
 * method may declare it as a second parameter, {@code Result reconcile(Request request,
 * ReconcileContext context)}. Immutable.
 */
public final class ReconcileContext {

	/** How many triggers a request keeps until its next reconcile. */
	public static final int MAX_TRIGGERS = 16;

	private static final ThreadLocal<ReconcileContext> CURRENT = new ThreadLocal<>();

	private final String controller;

	private final Request request;

	private final String reconcileId;

	private final List<ReconcileTrigger> triggers;

	private final int droppedTriggers;

	private final Set<ReconcileTrigger.Kind> droppedKinds;

	private final Duration queued;

	private ReconcileContext(String controller, Request request, List<ReconcileTrigger> triggers, int droppedTriggers,
			Set<ReconcileTrigger.Kind> droppedKinds, Duration queued) {
		this.controller = Objects.requireNonNull(controller, "controller must not be null");
		this.request = Objects.requireNonNull(request, "request must not be null");
		this.reconcileId = UUID.randomUUID().toString();
		this.triggers = List.copyOf(triggers);
		this.droppedTriggers = droppedTriggers;
		this.droppedKinds = Set.copyOf(droppedKinds);
		this.queued = Objects.requireNonNull(queued, "queued must not be null");
	}

	/**
	 * Returns a context with a fresh reconcile ID, no dropped triggers and no time in the
	 * queue, as a test of a reconciler may need one.
	 * @param controller the controller's name
	 * @param request the request
	 * @param triggers why it runs
	 * @return the context
	 */
	public static ReconcileContext of(String controller, Request request, List<ReconcileTrigger> triggers) {
		return new ReconcileContext(controller, request, triggers, 0, Set.of(), Duration.ZERO);
	}

	/**
	 * Returns a context with a fresh reconcile ID, as the controller makes one.
	 * @param controller the controller's name
	 * @param request the request
	 * @param triggers why it runs, oldest first, at most {@link #MAX_TRIGGERS}
	 * @param droppedTriggers how many more triggers were queued and not kept
	 * @param droppedKinds the kinds of those not kept
	 * @param queued how long the request waited between its first trigger and this
	 * reconcile
	 * @return the context
	 */
	public static ReconcileContext of(String controller, Request request, List<ReconcileTrigger> triggers,
			int droppedTriggers, Set<ReconcileTrigger.Kind> droppedKinds, Duration queued) {
		return new ReconcileContext(controller, request, triggers, droppedTriggers, droppedKinds, queued);
	}

	/**
	 * Returns the controller's name.
	 * @return the name
	 */
	public String controller() {
		return this.controller;
	}

	/**
	 * Returns the request being reconciled.
	 * @return the request
	 */
	public Request request() {
		return this.request;
	}

	/**
	 * Returns a random identifier of this reconcile, the {@code reconcileID} of the log
	 * context and of traces.
	 * @return the identifier
	 */
	public String reconcileId() {
		return this.reconcileId;
	}

	/**
	 * Returns why the reconcile runs.
	 * @return the triggers, oldest first, at most {@link #MAX_TRIGGERS}
	 */
	public List<ReconcileTrigger> triggers() {
		return this.triggers;
	}

	/**
	 * Returns how many more triggers were queued and not kept.
	 * @return the count
	 */
	public int droppedTriggers() {
		return this.droppedTriggers;
	}

	/**
	 * Returns how long the request waited between its first trigger due and this
	 * reconcile, the time behind the request's own running reconcile and a gate's retries
	 * included.
	 * @return the time in the queue, zero without triggers
	 */
	public Duration queued() {
		return this.queued;
	}

	/**
	 * Returns the context of the reconcile running on this thread.
	 * @return the context, empty outside a reconcile
	 */
	public static Optional<ReconcileContext> current() {
		return Optional.ofNullable(CURRENT.get());
	}

	/**
	 * Returns the kinds of this reconcile's triggers, those cut beyond
	 * {@link #MAX_TRIGGERS} included.
	 * @return the distinct kinds, empty if there is no trigger
	 */
	public Set<ReconcileTrigger.Kind> triggerKinds() {
		if (this.triggers.isEmpty() && this.droppedKinds.isEmpty()) {
			return Set.of();
		}
		EnumSet<ReconcileTrigger.Kind> kinds = EnumSet.noneOf(ReconcileTrigger.Kind.class);
		this.triggers.forEach((trigger) -> kinds.add(trigger.kind()));
		kinds.addAll(this.droppedKinds);
		return kinds;
	}

	/**
	 * Runs work with this context bound to the calling thread, as the controller runs a
	 * reconcile (and as a test may run a reconciler); the context bound before is bound
	 * again afterwards.
	 * @param <T> the work's result
	 * @param work the work
	 * @return what the work returned
	 * @throws Exception what the work threw
	 */
	public <T> T call(Callable<T> work) throws Exception {
		ReconcileContext previous = CURRENT.get();
		CURRENT.set(this);
		try {
			return work.call();
		}
		finally {
			if (previous != null) {
				CURRENT.set(previous);
			}
			else {
				CURRENT.remove();
			}
		}
	}

	/**
	 * Runs work with this context bound to the calling thread, as {@link #call} does.
	 * @param work the work
	 */
	public void run(Runnable work) {
		ReconcileContext previous = CURRENT.get();
		CURRENT.set(this);
		try {
			work.run();
		}
		finally {
			if (previous != null) {
				CURRENT.set(previous);
			}
			else {
				CURRENT.remove();
			}
		}
	}

	@Override
	public String toString() {
		return "ReconcileContext[controller=" + this.controller + ", request=" + this.request + ", reconcileId="
				+ this.reconcileId + ", triggers=" + this.triggers + ", droppedTriggers=" + this.droppedTriggers
				+ ", queued=" + this.queued + "]";
	}

}
