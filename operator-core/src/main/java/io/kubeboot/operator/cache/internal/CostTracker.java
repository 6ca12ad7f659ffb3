package io.kubeboot.operator.cache.internal;

import java.time.Duration;
import java.util.List;
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
 * sampled, never computed on the informer's event thread: when the figures are read (by a
 * scrape of the metrics or the actuator endpoint), the store's objects are sampled again
 * if the last sample is older than {@value #REFRESH_SECONDS} seconds, or at least a second
 * old while the count moved by more than a tenth since; the estimate is the sample's
 * average heap ({@link HeapEstimator}) times the count. At most {@value #SAMPLE} objects
 * are estimated per sample, so a read costs a visit of the store's entries at most twice
 * a minute and the estimate of {@value #SAMPLE} objects, whatever the store holds; up to
 * {@value #SAMPLE} objects, every object is estimated.
 * <p>
 * The budget is checked on every write to the store that changes its count, a comparison:
 * going over it logs one WARN and counts one crossing; it is armed again, with an INFO,
 * once the count is back to nine tenths of the budget or below (the budget less one for
 * budgets below 20), so that a count that hovers around the budget is not reported at
 * every event. Thread-safe.
 */
final class CostTracker {

	private static final Logger logger = LoggerFactory.getLogger(CostTracker.class);

	/** The most objects one sample estimates. */
	static final int SAMPLE = 512;

	static final long REFRESH_SECONDS = 30;

	private static final long REFRESH_NANOS = Duration.ofSeconds(REFRESH_SECONDS).toNanos();

	private static final long MIN_REFRESH_NANOS = Duration.ofSeconds(1).toNanos();

	private final InformerKey key;

	private final int budget;

	/** At or below this count, a budget gone over is armed again. */
	private final int rearmAt;

	private final HeapEstimator estimator;

	private final LongSupplier nanoTime;

	private final AtomicBoolean overBudget = new AtomicBoolean();

	private final AtomicLong budgetExceeded = new AtomicLong();

	/** The average heap per object of the last sample, its store entry included. */
	private double averageBytes;

	/** How many objects the last sample estimated, {@code 0} before the first. */
	private int sampledObjects;

	/** How many objects the store held at the last sample. */
	private int sampledCount;

	private long sampledAtNanos;

	/**
	 * Creates the tracker of one informer.
	 * @param key the informer, for the log
	 * @param budget the most objects it should hold, {@code 0} for no budget
	 * @param estimator estimates an object's heap
	 */
	CostTracker(InformerKey key, int budget, HeapEstimator estimator) {
		this(key, budget, estimator, System::nanoTime);
	}

	/**
	 * Creates the tracker of one informer, reading the time from a clock of its own.
	 * @param key the informer, for the log
	 * @param budget the most objects it should hold, {@code 0} for no budget
	 * @param estimator estimates an object's heap
	 * @param nanoTime the clock, as {@link System#nanoTime()}
	 */
	CostTracker(InformerKey key, int budget, HeapEstimator estimator, LongSupplier nanoTime) {
		this.key = key;
		this.budget = budget;
		this.rearmAt = (budget >= 20) ? budget - budget / 10 : budget - 1;
		this.estimator = estimator;
		this.nanoTime = nanoTime;
	}

	/**
	 * Returns the informer's budget.
	 * @return the most objects it should hold, {@code 0} for no budget
	 */
	int budget() {
		return this.budget;
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
				this.budgetExceeded.incrementAndGet();
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
	 * Returns what the informer's objects cost, sampling them again if the last sample is
	 * stale.
	 * @param store the store serving reads, {@code null} before the informer started and
	 * while paused
	 * @return the cost
	 */
	InformerCost cost(@Nullable ObjectStore<?> store) {
		int objects = (store != null) ? store.size() : 0;
		long bytes = 0;
		int sampled;
		synchronized (this) {
			if (store != null && objects > 0) {
				long now = this.nanoTime.getAsLong();
				if (stale(objects, now)) {
					resample(store, now);
				}
				bytes = Math.round(this.averageBytes * objects);
			}
			sampled = this.sampledObjects;
		}
		return new InformerCost(objects, bytes, sampled, this.budget, this.budgetExceeded.get());
	}

	private boolean stale(int objects, long now) {
		if (this.sampledObjects == 0) {
			return true;
		}
		long age = now - this.sampledAtNanos;
		return age >= REFRESH_NANOS
				|| (age >= MIN_REFRESH_NANOS && Math.abs((long) objects - this.sampledCount) * 10 > this.sampledCount);
	}

	private void resample(ObjectStore<?> store, long now) {
		int count = store.size();
		List<?> sample = store.sample(SAMPLE, ThreadLocalRandom.current());
		if (sample.isEmpty()) {
			return; // emptied meanwhile: the next read samples it
		}
		long total = 0;
		for (Object object : sample) {
			total += this.estimator.estimate(object);
		}
		this.averageBytes = (double) total / sample.size() + this.estimator.storeEntryBytes();
		this.sampledObjects = sample.size();
		this.sampledCount = count;
		this.sampledAtNanos = now;
	}

}
