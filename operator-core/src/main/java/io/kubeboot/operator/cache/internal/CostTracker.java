package io.kubeboot.operator.cache.internal;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import io.kubeboot.operator.cache.InformerCost;
import io.kubeboot.operator.cache.InformerKey;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one informer's cache costs ({@link InformerCost}), and its object budget.
 * <p>
 * The count is the store's own ({@link ObjectStore#size()}), always current. The heap is
 * estimated by the cache's {@link HeapSampler}, never on the informer's event thread:
 * when the figures are read (by a scrape of the metrics or the actuator endpoint) and the
 * last estimate is {@value #REFRESH_SECONDS} seconds old, or a second old while the count
 * moved by more than a tenth since, if the cache's sampler allows a pass then; in
 * between, the average heap per object is kept and the count followed. An estimate never
 * fails a read: objects that cannot be read are left out of it, and reported once.
 * <p>
 * The budget is checked on every write to the store that changes its count, a comparison:
 * going over it logs one WARN and counts one crossing; it is armed again, with an INFO,
 * once the count is back to nine tenths of the budget or below (the budget less one for
 * budgets below 20), so that a count that hovers around the budget is not reported at
 * every event. Thread-safe.
 */
final class CostTracker {

	private static final Logger logger = LoggerFactory.getLogger(CostTracker.class);

	static final long REFRESH_SECONDS = 30;

	private static final long REFRESH_NANOS = Duration.ofSeconds(REFRESH_SECONDS).toNanos();

	private static final long MIN_REFRESH_NANOS = Duration.ofSeconds(1).toNanos();

	private final InformerKey key;

	private final int budget;

	/** At or below this count, a budget gone over is armed again. */
	private final int rearmAt;

	private final HeapSampler sampler;

	private final LongSupplier nanoTime;

	private final AtomicBoolean overBudget = new AtomicBoolean();

	private final AtomicLong budgetCrossings = new AtomicLong();

	/** The average heap per object of the last estimate, its store entry included. */
	private double averageBytes;

	/** Whether an estimate was tried. */
	private boolean tried;

	/** Whether there is an estimate. */
	private boolean estimated;

	/** How many objects the store held at the last estimate tried. */
	private int estimatedCount;

	private long estimatedAtNanos;

	/** Whether objects that could not be read, or a pass cut short, were reported. */
	private boolean failureReported;

	private boolean cutReported;

	/**
	 * Creates the tracker of one informer.
	 * @param key the informer, for the log
	 * @param budget the most objects it should hold, {@code 0} for no budget
	 * @param sampler estimates the heap of its objects
	 */
	CostTracker(InformerKey key, int budget, HeapSampler sampler) {
		this(key, budget, sampler, System::nanoTime);
	}

	/**
	 * Creates the tracker of one informer, reading the time from a clock of its own.
	 * @param key the informer, for the log
	 * @param budget the most objects it should hold, {@code 0} for no budget
	 * @param sampler estimates the heap of its objects
	 * @param nanoTime the clock, as {@link System#nanoTime()}
	 */
	CostTracker(InformerKey key, int budget, HeapSampler sampler, LongSupplier nanoTime) {
		this.key = key;
		this.budget = budget;
		this.rearmAt = (budget >= 20) ? budget - budget / 10 : budget - 1;
		this.sampler = sampler;
		this.nanoTime = nanoTime;
	}

	/**
	 * Checks the informer's count against its budget, after its store changed.
	 * @param objects the objects the informer holds now
	 */
	void sized(int objects) {
		if (this.budget == 0) {
			return;
		}
		if (objects > this.budget) {
			if (this.overBudget.compareAndSet(false, true)) {
				this.budgetCrossings.incrementAndGet();
				logger.warn("Informer holds more objects than its budget, and keeps them all: informer={} objects={} "
						+ "budget={}", this.key, objects, this.budget);
			}
		}
		else if (objects <= this.rearmAt && this.overBudget.compareAndSet(true, false)) {
			logger.info("Informer is back within its object budget: informer={} objects={} budget={}", this.key,
					objects, this.budget);
		}
	}

	/**
	 * Arms the budget again without a word, for an informer that dropped its objects
	 * because nothing needs it now.
	 */
	void emptied() {
		this.overBudget.set(false);
	}

	/**
	 * Returns what the informer's objects cost, estimating their heap again if the last
	 * estimate is stale. Never throws.
	 * @param store the store serving reads, {@code null} before the informer started and
	 * while paused
	 * @return the cost
	 */
	InformerCost cost(@Nullable ObjectStore<?> store) {
		int objects = (store != null) ? store.size() : 0;
		long bytes = 0;
		if (store != null && objects > 0) {
			synchronized (this) {
				long now = this.nanoTime.getAsLong();
				if (stale(objects, now) && this.sampler.mayStart(now, !this.tried)) {
					estimate(store, now);
				}
				bytes = this.estimated ? Math.round(this.averageBytes * objects) : -1;
			}
		}
		return InformerCost.of(objects, bytes, this.budget, this.budgetCrossings.get());
	}

	private boolean stale(int objects, long now) {
		if (!this.tried) {
			return true;
		}
		long age = now - this.estimatedAtNanos;
		if (!this.estimated) {
			return age >= MIN_REFRESH_NANOS;
		}
		return age >= REFRESH_NANOS || (age >= MIN_REFRESH_NANOS
				&& Math.abs((long) objects - this.estimatedCount) * 10 > this.estimatedCount);
	}

	private void estimate(ObjectStore<?> store, long now) {
		HeapSampler.@Nullable Estimate estimate;
		try {
			estimate = this.sampler.estimate(store, ThreadLocalRandom.current());
		}
		catch (RuntimeException ex) {
			// the figures of the last estimate stay
			estimate = new HeapSampler.Estimate(0, 0, 1, false, ex);
		}
		if (estimate == null) {
			return; // emptied meanwhile: the next read estimates it
		}
		report(estimate);
		this.tried = true;
		this.estimatedCount = store.size();
		this.estimatedAtNanos = now;
		if (estimate.sampled() > 0) {
			this.averageBytes = estimate.averageBytes();
			this.estimated = true;
		}
	}

	private void report(HeapSampler.Estimate estimate) {
		@Nullable RuntimeException failure = estimate.failure();
		if (failure != null && !this.failureReported) {
			this.failureReported = true;
			logger.warn("Cached objects failed to be read while their heap was estimated, and are left out of the "
					+ "estimate: objects handed out by the cache must not be modified (copy one before changing it): "
					+ "informer={} failed={}", this.key, estimate.failed(), failure);
		}
		if (estimate.cut() && !this.cutReported) {
			this.cutReported = true;
			logger.info("Informer's objects are large: its heap is estimated from fewer of them than usual: "
					+ "informer={} sampled={}", this.key, estimate.sampled());
		}
	}

}
