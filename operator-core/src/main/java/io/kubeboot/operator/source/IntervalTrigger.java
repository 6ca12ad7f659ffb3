package io.kubeboot.operator.source;

import java.time.Duration;
import java.util.Collection;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

import io.kubeboot.operator.manager.StopSignal;
import io.kubeboot.operator.reconcile.ReconcileTrigger;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.workqueue.WorkQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Source} that asks for reconciles on a timer: after an initial delay, and then
 * every interval (randomly spread by up to {@code jitter} of the interval either way), it
 * takes the requests from a supplier and hands them to the controller's work queue.
 * <p>
 * Ticks never pile up: the next wait starts only after a tick has been handed over, and a
 * request still waiting in the queue from the previous tick is not queued again. A tick
 * whose supplier throws is logged and skipped. Its requests are queued at
 * {@link WorkQueue#LOW_PRIORITY}: a periodic re-check carries no news, so with the
 * controller's priority queue it waits behind the changes seen on the watches, as
 * controller-runtime's resyncs do. The trigger stops at once when its stop signal fires.
 * As a source of a controller it runs only while the controller runs, on the leader.
 */
public final class IntervalTrigger implements Source {

	private static final Logger logger = LoggerFactory.getLogger(IntervalTrigger.class);

	private final String name;

	private final Duration interval;

	private final Duration initialDelay;

	private final double jitter;

	private final Supplier<? extends Collection<Request>> requests;

	/**
	 * Creates a trigger.
	 * @param name the name, for logs
	 * @param interval the time between ticks, positive
	 * @param initialDelay the time before the first tick, zero or positive
	 * @param jitter how much of the interval each wait may randomly differ, from 0 to 1
	 * @param requests supplies the requests of one tick
	 * @throws IllegalArgumentException naming the trigger if the interval is not
	 * positive, the initial delay negative or the jitter outside 0..1
	 */
	public IntervalTrigger(String name, Duration interval, Duration initialDelay, double jitter,
			Supplier<? extends Collection<Request>> requests) {
		this.name = Objects.requireNonNull(name, "name");
		if (interval == null || interval.isNegative() || interval.isZero()) {
			throw new IllegalArgumentException("interval of trigger '" + name + "' must be positive, was " + interval);
		}
		if (initialDelay == null || initialDelay.isNegative()) {
			throw new IllegalArgumentException(
					"initialDelay of trigger '" + name + "' must not be negative, was " + initialDelay);
		}
		if (!(jitter >= 0 && jitter <= 1)) {
			throw new IllegalArgumentException(
					"jitter of trigger '" + name + "' must be between 0 and 1, was " + jitter);
		}
		this.interval = interval;
		this.initialDelay = initialDelay;
		this.jitter = jitter;
		this.requests = Objects.requireNonNull(requests, "requests");
	}

	/**
	 * Returns {@code periodic}: the requests of a timer.
	 * @return {@link ReconcileTrigger.Kind#PERIODIC}
	 */
	@Override
	public ReconcileTrigger.Kind triggerKind() {
		return ReconcileTrigger.Kind.PERIODIC;
	}

	@Override
	public void start(RequestQueue queue, StopSignal stop) throws InterruptedException {
		logger.info("Starting periodic trigger: trigger={} interval={} initialDelay={} jitter={}", this.name,
				this.interval, this.initialDelay, this.jitter);
		if (stop.await(this.initialDelay)) {
			return;
		}
		do {
			tick(queue);
		}
		while (!stop.await(nextWait()));
	}

	private void tick(RequestQueue queue) {
		try {
			Collection<Request> batch = this.requests.get();
			if (batch != null) {
				batch.forEach((request) -> queue.add(request, WorkQueue.LOW_PRIORITY));
				logger.debug("Periodic trigger fired: trigger={} requests={}", this.name, batch.size());
			}
		}
		catch (RuntimeException ex) {
			logger.error("Periodic trigger failed, tick skipped: trigger={}", this.name, ex);
		}
	}

	Duration nextWait() {
		if (this.jitter == 0) {
			return this.interval;
		}
		double factor = 1 + (ThreadLocalRandom.current().nextDouble() * 2 - 1) * this.jitter;
		return Duration.ofNanos((long) (this.interval.toNanos() * factor));
	}

	@Override
	public String toString() {
		return "IntervalTrigger[" + this.name + ", every " + this.interval + "]";
	}

}
