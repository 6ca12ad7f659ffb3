package io.kubeboot.operator.sharding.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import org.jspecify.annotations.Nullable;

/**
 * Decides which keys this replica may reconcile now, and counts the reconciles in flight
 * per key so that a key is handed over only once drained. A key is permitted when every
 * view of the ring in play (the target, the pending and the published acknowledgement)
 * gives it to this replica and no other live member's acknowledged view claims it; the
 * gate is closed past the renew deadline and suspended after the Lease was lost. Why this
 * keeps two members from reconciling one key: docs/design/sharding.md.
 * <p>
 * Thread-safe. Listeners hear every change of the permitted keys, as the snapshots before
 * and after, on the thread that made the change.
 */
public final class ShardGate {

	private final String self;

	private final BooleanSupplier leaseValid;

	private final Map<String, Integer> inFlight = new HashMap<>();

	/** Keys held for as long as a runnable works on them, which are always ring keys. */
	private final Map<String, Integer> held = new HashMap<>();

	private final List<Listener> listeners = new CopyOnWriteArrayList<>();

	private final List<Runnable> exitListeners = new CopyOnWriteArrayList<>();

	private final List<Runnable> unholdListeners = new CopyOnWriteArrayList<>();

	private @Nullable HashRing target;

	private @Nullable HashRing pending;

	private @Nullable HashRing published;

	private Claims others = new Claims(Map.of(), null);

	/**
	 * What {@link #permits} reads without the lock: the permitted keys and the suspension
	 * published together, so that it never pairs a suspension's end with the keys
	 * permitted before it, or the keys permitted now with a suspension since lifted.
	 */
	private volatile Answers answers;

	/**
	 * Counts the closings and suspensions, so that a read of the ring begun before one is
	 * not applied.
	 */
	private long epoch;

	/**
	 * Whether the gate permits nothing until a read of the ring begun while this replica
	 * held its Lease again: set when the Lease was lost.
	 */
	private boolean suspended;

	/**
	 * Creates a closed gate.
	 * @param self this replica's identity
	 * @param leaseValid whether this replica's Lease is within its renew deadline
	 */
	public ShardGate(String self, BooleanSupplier leaseValid) {
		this.self = self;
		this.leaseValid = leaseValid;
		this.answers = new Answers(new Permits(self, List.of(), Map.of()), false);
	}

	/**
	 * Whether a key may be reconciled now.
	 * @param key the key ({@link HashRing#key})
	 * @return {@code true} if this replica owns it and may act on it
	 */
	public boolean permits(String key) {
		// the Lease before the snapshot: a snapshot taken first could predate a
		// suspension that a Lease taken again since would hide
		if (!this.leaseValid.getAsBoolean()) {
			return false;
		}
		Answers now = this.answers;
		return !now.suspended() && now.permits().test(key);
	}

	/**
	 * Whether the gate is open at all: this replica's Lease is valid, it read the ring
	 * since it last closed, and it is not suspended (since the Lease was lost, no read
	 * that began while it was held again was applied). What the label-based mode asks.
	 * @return {@code true} if open
	 */
	public boolean isOpen() {
		if (!this.leaseValid.getAsBoolean()) {
			return false;
		}
		synchronized (this) {
			return this.target != null && !this.suspended;
		}
	}

	/**
	 * Returns the keys permitted now, without the Lease's validity, for comparing before
	 * and after a change.
	 * @return the snapshot
	 */
	public Permits snapshot() {
		return this.answers.permits();
	}

	/**
	 * Starts a reconcile of a key if it is permitted; {@link #exit} must follow.
	 * @param key the key
	 * @return {@code true} if the reconcile may run
	 */
	public synchronized boolean enter(String key) {
		if (!permits(key)) {
			return false;
		}
		this.inFlight.merge(key, 1, Integer::sum);
		return true;
	}

	/**
	 * Starts a reconcile of a key in the label-based mode, where the labels decide what
	 * is this replica's: permitted while this replica's Lease is valid and the gate is
	 * open; {@link #exit} must follow.
	 * @param key the key
	 * @return {@code true} if the reconcile may run
	 */
	public synchronized boolean enterOpen(String key) {
		if (!this.leaseValid.getAsBoolean() || this.target == null || this.suspended) {
			return false;
		}
		this.inFlight.merge(key, 1, Integer::sum);
		return true;
	}

	/**
	 * Ends a reconcile started with {@link #enter} or {@link #enterOpen}.
	 * @param key the key
	 */
	public void exit(String key) {
		release(this.inFlight, key, this.exitListeners);
	}

	/**
	 * Holds a ring key for as long as a runnable works on it (a fleet's cluster, say), in
	 * either mode, if it is permitted; {@link #unhold} must follow. Like a reconcile in
	 * flight, a held key keeps every view that moves it away unacknowledged, and this
	 * replica in the ring when it leaves, until it is given back.
	 * @param key the key ({@link HashRing#key})
	 * @return {@code true} if held
	 */
	public synchronized boolean hold(String key) {
		if (!permits(key)) {
			return false;
		}
		this.held.merge(key, 1, Integer::sum);
		return true;
	}

	/**
	 * Gives back a key held with {@link #hold}.
	 * @param key the key
	 */
	public void unhold(String key) {
		release(this.held, key, this.unholdListeners);
	}

	private void release(Map<String, Integer> counts, String key, List<Runnable> listeners) {
		synchronized (this) {
			counts.computeIfPresent(key, (k, count) -> (count > 1) ? count - 1 : null);
			notifyAll();
		}
		listeners.forEach(Runnable::run);
	}

	/**
	 * Whether every reconcile in flight and every held key is of a key the view gives
	 * this replica, so that the view may be acknowledged: in the filter-based mode.
	 * @param view the view
	 * @return {@code true} if nothing in flight or held would move away under the view
	 */
	public synchronized boolean drainedFor(HashRing view) {
		return heldDrainedFor(view) && ownsAll(this.inFlight.keySet(), view);
	}

	/**
	 * Whether every held key is of a key the view gives this replica: in the label-based
	 * mode, where the reconciles in flight move by labels, not by acknowledged views.
	 * @param view the view
	 * @return {@code true} if nothing held would move away under the view
	 */
	public synchronized boolean heldDrainedFor(HashRing view) {
		return ownsAll(this.held.keySet(), view);
	}

	private boolean ownsAll(Iterable<String> keys, HashRing view) {
		for (String key : keys) {
			if (!this.self.equals(view.owner(key))) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Waits until no reconcile is in flight and no key is held.
	 * @param timeout the longest wait; negative waits forever
	 * @return {@code true} if none is in flight or held
	 * @throws InterruptedException if interrupted while waiting
	 */
	public synchronized boolean awaitIdle(Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + (timeout.isNegative() ? Long.MAX_VALUE / 2 : timeout.toNanos());
		while (!this.inFlight.isEmpty() || !this.held.isEmpty()) {
			long left = deadline - System.nanoTime();
			if (left <= 0) {
				return false;
			}
			wait(Math.max(1, left / 1_000_000));
		}
		return true;
	}

	/**
	 * Returns how many times the gate was closed or suspended: taken before a read of the
	 * ring, and handed to {@link #observe} with what it read.
	 * @return the epoch
	 */
	public synchronized long epoch() {
		return this.epoch;
	}

	/**
	 * Sets the ring of the members seen live and the claims of the others, unless the
	 * gate was closed or suspended since the read began: what such a read saw may be
	 * older than the loss of the Lease or the stop. Ends a suspension if this replica
	 * held its Lease when the read began: such a read began after the write that took the
	 * Lease again, so it sees every claim written before.
	 * @param view the target view
	 * @param claims the other members' acknowledged views, with the acknowledgement of
	 * this replica that was published when they were read
	 * @param readEpoch the {@link #epoch} when the read began
	 * @param leaseHeld whether this replica held its Lease when the read began
	 * @return {@code true} if applied, {@code false} if the read is older than the last
	 * closing or suspension
	 */
	public boolean observe(HashRing view, Claims claims, long readEpoch, boolean leaseHeld) {
		boolean[] applied = { false };
		update(() -> {
			if (readEpoch == this.epoch) {
				this.target = view;
				this.others = claims;
				if (leaseHeld) {
					this.suspended = false;
				}
				applied[0] = true;
			}
		});
		return applied[0];
	}

	/**
	 * Permits nothing from now on, keeping what was permitted (so that the requests of
	 * this replica's keys wait rather than being dropped), until a read of the ring that
	 * began while this replica held its Lease again: when the Lease was lost. A read that
	 * began before may predate keys the others took once the Lease expired.
	 */
	public synchronized void suspend() {
		this.suspended = true;
		this.epoch++;
		this.answers = new Answers(this.answers.permits(), true);
	}

	/**
	 * Whether the view of the last read counts this replica.
	 * @return {@code true} if the gate has a view with this replica in it
	 */
	public synchronized boolean countsSelf() {
		return this.target != null && this.target.members().contains(this.self);
	}

	/**
	 * Records the view handed to the Lease writer as this replica's acknowledgement.
	 * @param view the view, drained ({@link #drainedFor})
	 */
	public void pending(HashRing view) {
		update(() -> this.pending = view);
	}

	/**
	 * Records the acknowledgement the Lease was written with.
	 * @param view the view
	 */
	public void published(HashRing view) {
		update(() -> this.published = view);
	}

	/**
	 * Permits nothing from now on, until the next {@link #observe} of a read begun after
	 * this: on stop.
	 */
	public void close() {
		update(() -> {
			this.target = null;
			this.epoch++;
		});
	}

	/**
	 * Returns the acknowledgement the Lease was last written with.
	 * @return the view, {@code null} before the first write
	 */
	public synchronized @Nullable HashRing published() {
		return this.published;
	}

	/**
	 * Returns the acknowledgement last handed to the Lease writer.
	 * @return the view, {@code null} before the first
	 */
	public synchronized @Nullable HashRing pending() {
		return this.pending;
	}

	/**
	 * Returns the ring of the members seen live.
	 * @return the view, {@code null} while closed
	 */
	public synchronized @Nullable HashRing target() {
		return this.target;
	}

	/**
	 * Adds a listener of changes of the permitted keys.
	 * @param listener the listener
	 */
	public void addListener(Listener listener) {
		this.listeners.add(listener);
	}

	/**
	 * Adds a listener called after every {@link #exit}, to notice a finished drain.
	 * @param listener the listener
	 */
	public void addExitListener(Runnable listener) {
		this.exitListeners.add(listener);
	}

	/**
	 * Adds a listener called after every {@link #unhold}, to notice a finished drain.
	 * @param listener the listener
	 */
	public void addUnholdListener(Runnable listener) {
		this.unholdListeners.add(listener);
	}

	private void update(Runnable change) {
		Permits before;
		Permits after;
		synchronized (this) {
			before = this.answers.permits();
			change.run();
			List<HashRing> views = new ArrayList<>();
			if (this.target != null && this.published != null && this.others.readAfter() != null) {
				views.add(this.target);
				views.add(this.published);
				views.add(this.others.readAfter());
				if (this.pending != null) {
					views.add(this.pending);
				}
			}
			after = new Permits(this.self, views, this.others.views());
			this.answers = new Answers(after, this.suspended);
		}
		if (!after.equals(before)) {
			this.listeners.forEach((listener) -> listener.changed(before, after));
		}
	}

	/**
	 * The other members' acknowledged views, and this replica's published acknowledgement
	 * when they were read.
	 *
	 * @param views each live member's acknowledged view, by identity
	 * @param readAfter this replica's published acknowledgement when the read began,
	 * {@code null} if none was
	 */
	public record Claims(Map<String, HashRing> views, @Nullable HashRing readAfter) {

		public Claims {
			views = Map.copyOf(views);
		}

	}

	/**
	 * The keys this replica may reconcile: those every view gives it and no other
	 * member's acknowledgement claims.
	 *
	 * @param self this replica's identity
	 * @param views the views that must all give a key to this replica; none permits
	 * nothing
	 * @param others the other members' acknowledged views, by identity
	 */
	public record Permits(String self, List<HashRing> views, Map<String, HashRing> others) {

		public Permits {
			views = List.copyOf(views);
			others = Map.copyOf(others);
		}

		/**
		 * Whether a key is permitted.
		 * @param key the key
		 * @return {@code true} if permitted
		 */
		public boolean test(String key) {
			if (this.views.isEmpty()) {
				return false;
			}
			for (HashRing view : this.views) {
				if (!this.self.equals(view.owner(key))) {
					return false;
				}
			}
			for (Map.Entry<String, HashRing> other : this.others.entrySet()) {
				if (other.getKey().equals(other.getValue().owner(key))) {
					return false;
				}
			}
			return true;
		}

	}

	/**
	 * The permitted keys and whether the gate is suspended, as one snapshot.
	 *
	 * @param permits the keys permitted
	 * @param suspended whether nothing is permitted until a read of the ring after the
	 * Lease was taken again
	 */
	private record Answers(Permits permits, boolean suspended) {

	}

	/**
	 * Hears changes of the permitted keys.
	 */
	@FunctionalInterface
	public interface Listener {

		/**
		 * Called after the permitted keys changed.
		 * @param before what was permitted
		 * @param after what is permitted now
		 */
		void changed(Permits before, Permits after);

	}

}
