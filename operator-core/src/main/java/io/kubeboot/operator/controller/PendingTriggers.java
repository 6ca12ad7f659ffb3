package io.kubeboot.operator.controller;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import io.kubeboot.operator.reconcile.ReconcileContext;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.ReconcileTrigger;
import io.kubeboot.operator.workqueue.Ticker;
import org.jspecify.annotations.Nullable;

/**
 * The triggers of the requests of one work queue, kept beside it: the queue holds a
 * request at most once however often it is added, so why it was added is kept here, per
 * request, until a worker takes the request. Each add to the queue records its trigger
 * first, so that a worker never takes a request whose trigger is not recorded yet.
 * <p>
 * A delayed add (a requeue, a retry) is due only once its delay has passed: the queue
 * keeps one delayed entry per request, at the earliest of its delays, so the triggers of
 * a request's delayed adds form one group here too, due at the earliest of theirs, and
 * join the request's ready triggers when that time comes. A reconcile started earlier for
 * another reason leaves them for the one the delay brings. As the queue merges the
 * delayed adds into one, the group keeps one trigger per kind and object: a reconciler
 * that asks for the same requeue on every reconcile adds one {@code requeue}, however
 * often it asks, and never crowds out the changes.
 * <p>
 * A {@code resync} is kept once among a request's ready triggers: it tells no change, and
 * an owner seen unchanged with its hundred owned objects at a start would otherwise fill
 * its list with it.
 * <p>
 * At most {@link ReconcileContext#MAX_TRIGGERS} ready triggers are kept per request, the
 * oldest; later ones are counted, with their kinds, and the count is handed to the next
 * reconcile whatever else it gets. A request's entry is removed when its last trigger is
 * taken, so the memory held is bounded by the requests waiting. Thread-safe: each
 * request's entry changes atomically.
 */
final class PendingTriggers {

	private final Map<Request, Entry> entries = new ConcurrentHashMap<>();

	private final Ticker ticker;

	PendingTriggers(Ticker ticker) {
		this.ticker = ticker;
	}

	/**
	 * Records the trigger of an add of a request now.
	 * @param request the request
	 * @param trigger why it is added
	 */
	void record(Request request, ReconcileTrigger trigger) {
		long now = this.ticker.nanoTime();
		this.entries.compute(request, (key, entry) -> {
			Entry kept = (entry != null) ? entry : new Entry();
			kept.settle(now);
			kept.addReady(trigger, now);
			return kept;
		});
	}

	/**
	 * Records the trigger of an add of a request after a delay.
	 * @param request the request
	 * @param trigger why it is added
	 * @param delay the delay; zero or negative is now
	 */
	void schedule(Request request, ReconcileTrigger trigger, Duration delay) {
		long now = this.ticker.nanoTime();
		long delayNanos = nanos(delay);
		if (delayNanos <= 0) {
			record(request, trigger);
			return;
		}
		this.entries.compute(request, (key, entry) -> {
			Entry kept = (entry != null) ? entry : new Entry();
			kept.settle(now);
			kept.addScheduled(trigger, saturatedAdd(now, delayNanos));
			return kept;
		});
	}

	/**
	 * Takes the triggers of a request that are due, as a worker takes the request.
	 * @param request the request
	 * @return its triggers, empty if none is due
	 */
	Taken take(Request request) {
		long now = this.ticker.nanoTime();
		Taken[] taken = { Taken.NONE };
		this.entries.computeIfPresent(request, (key, entry) -> {
			entry.settle(now);
			long nextDueIn = (entry.scheduled != null) ? Math.max(1, entry.scheduledAt - now) : -1;
			if (entry.ready == null && entry.dropped == 0) {
				taken[0] = (nextDueIn > 0) ? new Taken(List.of(), 0, 0, Long.MIN_VALUE, nextDueIn) : Taken.NONE;
				return entry;
			}
			taken[0] = new Taken((entry.ready != null) ? entry.ready : List.of(), entry.dropped, entry.droppedKinds,
					entry.readySince, nextDueIn);
			entry.ready = null;
			entry.dropped = 0;
			entry.droppedKinds = 0;
			return entry.isEmpty() ? null : entry;
		});
		return taken[0];
	}

	/**
	 * Records that the worker reconciling a request queued it again, now or after a
	 * delay; {@link #settle} says why once the reconcile's outcome is known. The request
	 * cannot be taken before: it is processing until its worker is done with it.
	 * @param request the request
	 * @param delay the delay; zero or negative is now
	 */
	void requeued(Request request, Duration delay) {
		requeuedUntil(request, saturatedAdd(this.ticker.nanoTime(), Math.max(0, nanos(delay))));
	}

	/**
	 * Records, as {@link #requeued}, a requeue due at a time on this ticker, read before
	 * the queue read its own for the add.
	 * @param request the request
	 * @param dueAt when the requeue is due, on this ticker
	 */
	void requeuedUntil(Request request, long dueAt) {
		this.entries.compute(request, (key, entry) -> {
			Entry kept = (entry != null) ? entry : new Entry();
			kept.requeuedAt = dueAt;
			kept.requeued = true;
			return kept;
		});
	}

	/**
	 * Turns the requeue recorded while a request was reconciled into a trigger of the
	 * given kind; does nothing if the reconcile did not queue it again.
	 * @param request the request
	 * @param kind why it was queued again: a requeue the reconciler asked for, or a retry
	 * after an error
	 */
	void settle(Request request, ReconcileTrigger.Kind kind) {
		long now = this.ticker.nanoTime();
		this.entries.computeIfPresent(request, (key, entry) -> {
			if (entry.requeued) {
				entry.requeued = false;
				entry.settle(now);
				ReconcileTrigger trigger = ReconcileTrigger.of(kind);
				if (entry.requeuedAt - now <= 0) {
					entry.addReady(trigger, now);
				}
				else {
					entry.addScheduled(trigger, entry.requeuedAt);
				}
			}
			return entry.isEmpty() ? null : entry;
		});
	}

	/**
	 * Forgets the triggers of a request that will not be reconciled (its namespace left
	 * the manager's set).
	 * @param request the request
	 */
	void forget(Request request) {
		this.entries.remove(request);
	}

	/**
	 * Forgets every request's triggers, when the queue they were kept beside is gone.
	 */
	void clear() {
		this.entries.clear();
	}

	/**
	 * Returns how many requests have triggers waiting.
	 * @return the number of requests
	 */
	int size() {
		return this.entries.size();
	}

	private static long nanos(Duration delay) {
		try {
			return delay.toNanos();
		}
		catch (ArithmeticException ex) {
			return delay.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
		}
	}

	private static long saturatedAdd(long a, long b) {
		long sum = a + b;
		return (((a ^ sum) & (b ^ sum)) < 0) ? Long.MAX_VALUE : sum;
	}

	/**
	 * The triggers handed to a reconcile.
	 *
	 * @param triggers the triggers, oldest first
	 * @param dropped how many more were cut
	 * @param droppedKinds the kinds of those cut, a bit per
	 * {@link ReconcileTrigger.Kind#ordinal()}
	 * @param since when the first of them became due, on the queue's ticker
	 * @param nextDueIn in how many nanoseconds the request's delayed group left waiting
	 * is due, {@code -1} if it has none
	 */
	record Taken(List<ReconcileTrigger> triggers, int dropped, int droppedKinds, long since, long nextDueIn) {

		static final Taken NONE = new Taken(List.of(), 0, 0, Long.MIN_VALUE, -1);

		/**
		 * Returns the kinds of every trigger, those cut included.
		 * @return a bit per {@link ReconcileTrigger.Kind#ordinal()}
		 */
		int kinds() {
			int kinds = this.droppedKinds;
			for (ReconcileTrigger trigger : this.triggers) {
				kinds |= 1 << trigger.kind().ordinal();
			}
			return kinds;
		}

		/**
		 * Returns how long the request waited since its first trigger became due.
		 * @param now the time on the queue's ticker
		 * @return the duration, zero without triggers
		 */
		Duration queued(long now) {
			return (this.triggers.isEmpty() || now <= this.since) ? Duration.ZERO : Duration.ofNanos(now - this.since);
		}

	}

	/**
	 * The triggers of one request: those due, and one group of delayed ones. Changed only
	 * inside the map's atomic compute of its request.
	 */
	private static final class Entry {

		@Nullable List<ReconcileTrigger> ready;

		long readySince;

		@Nullable List<ReconcileTrigger> scheduled;

		long scheduledAt;

		int dropped;

		/** The kinds of the triggers dropped, a bit per kind. */
		int droppedKinds;

		/** Whether the worker reconciling the request queued it again. */
		boolean requeued;

		/** When that requeue is due, on the queue's ticker. */
		long requeuedAt;

		/** Moves the delayed group to the due triggers once its time has come. */
		void settle(long now) {
			List<ReconcileTrigger> due = this.scheduled;
			if (due != null && now - this.scheduledAt >= 0) {
				this.scheduled = null;
				for (ReconcileTrigger trigger : due) {
					addReady(trigger, this.scheduledAt);
				}
			}
		}

		void addReady(ReconcileTrigger trigger, long dueAt) {
			if (this.ready == null) {
				this.ready = new ArrayList<>(4);
				this.readySince = dueAt;
			}
			else if (trigger.kind() == ReconcileTrigger.Kind.RESYNC && trigger.object() == null
					&& this.ready.stream().anyMatch((kept) -> kept.kind() == ReconcileTrigger.Kind.RESYNC)) {
				// seen unchanged again (another owned object at a start or a resync):
				// nothing to add
				return;
			}
			if (this.ready.size() >= ReconcileContext.MAX_TRIGGERS) {
				this.dropped++;
				this.droppedKinds |= 1 << trigger.kind().ordinal();
				return;
			}
			this.ready.add(trigger);
		}

		void addScheduled(ReconcileTrigger trigger, long dueAt) {
			if (this.scheduled == null) {
				this.scheduled = new ArrayList<>(2);
				this.scheduledAt = dueAt;
			}
			else if (dueAt - this.scheduledAt < 0) {
				// the queue keeps one delayed entry per request, at the earliest time
				this.scheduledAt = dueAt;
			}
			for (ReconcileTrigger scheduled : this.scheduled) {
				if (scheduled.kind() == trigger.kind() && Objects.equals(scheduled.object(), trigger.object())
						&& Objects.equals(scheduled.objectKind(), trigger.objectKind())) {
					// merged with it, as the queue merges the adds: bounded by the kinds
					return;
				}
			}
			this.scheduled.add(trigger);
		}

		boolean isEmpty() {
			return this.ready == null && this.scheduled == null && !this.requeued && this.dropped == 0;
		}

	}

}
