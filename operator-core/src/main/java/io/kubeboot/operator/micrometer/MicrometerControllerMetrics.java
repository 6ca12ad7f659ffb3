package io.kubeboot.operator.micrometer;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.kubeboot.operator.metrics.ControllerMetrics;
import io.kubeboot.operator.reconcile.ReconcileTrigger;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

/**
 * The {@code controller_runtime_*{controller}} series of one controller.
 * <p>
 * As in controller-runtime's {@code reconcileHandler}, every reconcile is timed and
 * counted in {@code controller_runtime_reconcile_total} under its result; any error
 * (retried, terminal or a panic) counts as {@code result="error"} and in
 * {@code controller_runtime_reconcile_errors_total}; a terminal error also counts in
 * {@code controller_runtime_terminal_reconcile_errors_total}, a panic in
 * {@code controller_runtime_reconcile_panics_total}; a reconcile that ran past its
 * timeout counts in {@code controller_runtime_reconcile_timeouts_total}, whatever its
 * result.
 * <p>
 * Beside them, {@code operator_reconcile_triggers_total{controller,trigger}} counts the
 * reconciles by the kinds of their triggers (a reconcile with several kinds counts once
 * under each), and {@code operator_reconcile_triggers_dropped_total{controller}} the
 * triggers cut beyond what a request keeps.
 */
final class MicrometerControllerMetrics implements ControllerMetrics {

	/** controller-runtime's {@code controller_runtime_reconcile_time_seconds} buckets. */
	static final double[] RECONCILE_TIME_BUCKETS = { 0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4,
			0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15,
			20, 25, 30, 40, 50, 60 };

	private final Map<Outcome, Counter> totals = new EnumMap<>(Outcome.class);

	private final Counter errors;

	private final Counter terminalErrors;

	private final Counter conflicts;

	private final Counter panics;

	private final Counter timeouts;

	private final Timer reconcileTime;

	private final AtomicInteger activeWorkers = new AtomicInteger();

	private final Map<ReconcileTrigger.Kind, Counter> triggers = new EnumMap<>(ReconcileTrigger.Kind.class);

	private final Counter droppedTriggers;

	MicrometerControllerMetrics(MeterRegistry registry, String controller, Supplier<Number> maxConcurrentReconciles) {
		Tags tags = Tags.of("controller", controller);
		for (Outcome outcome : Outcome.values()) {
			this.totals.put(outcome,
					Counter.builder("controller.runtime.reconcile")
						.description("Total number of reconciliations per controller")
						.tags(tags.and("result", outcome.label()))
						.register(registry));
		}
		this.errors = Counter.builder("controller.runtime.reconcile.errors")
			.description("Total number of reconciliation errors per controller")
			.tags(tags)
			.register(registry);
		this.conflicts = Counter.builder("operator.reconcile.conflicts")
			.description("Reconciles that ended in a write conflict (409) and were requeued at once, per controller")
			.tags(tags)
			.register(registry);
		this.terminalErrors = Counter.builder("controller.runtime.terminal.reconcile.errors")
			.description("Total number of terminal reconciliation errors per controller")
			.tags(tags)
			.register(registry);
		this.panics = Counter.builder("controller.runtime.reconcile.panics")
			.description("Total number of reconciliation panics per controller")
			.tags(tags)
			.register(registry);
		this.timeouts = Counter.builder("controller.runtime.reconcile.timeouts")
			.description("Total number of reconciliation timeouts per controller")
			.tags(tags)
			.register(registry);
		for (ReconcileTrigger.Kind kind : ReconcileTrigger.Kind.values()) {
			this.triggers.put(kind,
					Counter.builder("operator.reconcile.triggers")
						.description("Reconciles per controller by the kinds of their triggers; a reconcile with "
								+ "several kinds counts once under each")
						.tags(tags.and("trigger", kind.label()))
						.register(registry));
		}
		this.droppedTriggers = Counter.builder("operator.reconcile.triggers.dropped")
			.description("Triggers of reconciles not kept beyond the most a request keeps, per controller")
			.tags(tags)
			.register(registry);
		this.reconcileTime = Timer.builder("controller.runtime.reconcile.time")
			.description("Length of time per reconciliation per controller")
			.tags(tags)
			.publishPercentileHistogram(false)
			.serviceLevelObjectives(durations(RECONCILE_TIME_BUCKETS))
			.register(registry);
		Gauge.builder("controller.runtime.max.concurrent.reconciles", maxConcurrentReconciles)
			.description("Maximum number of concurrent reconciles per controller")
			.tags(tags)
			.register(registry);
		Gauge.builder("controller.runtime.active.workers", this.activeWorkers::get)
			.description("Number of currently used workers per controller")
			.tags(tags)
			.register(registry);
	}

	@Override
	public void reconciled(Outcome outcome, long nanos) {
		this.reconcileTime.record(nanos, TimeUnit.NANOSECONDS);
		this.totals.get(outcome).increment();
		if (outcome == Outcome.ERROR || outcome == Outcome.TERMINAL_ERROR || outcome == Outcome.PANIC) {
			this.errors.increment();
		}
		if (outcome == Outcome.TERMINAL_ERROR) {
			this.terminalErrors.increment();
		}
		else if (outcome == Outcome.CONFLICT) {
			this.conflicts.increment();
		}
		else if (outcome == Outcome.PANIC) {
			this.panics.increment();
		}
	}

	@Override
	public void timedOut() {
		this.timeouts.increment();
	}

	@Override
	public void triggered(ReconcileTrigger.Kind kind) {
		this.triggers.get(kind).increment();
	}

	@Override
	public void triggersDropped(int count) {
		this.droppedTriggers.increment(count);
	}

	@Override
	public void activeWorkers(int active) {
		this.activeWorkers.set(active);
	}

	static Duration[] durations(double[] seconds) {
		Duration[] durations = new Duration[seconds.length];
		for (int i = 0; i < seconds.length; i++) {
			durations[i] = Duration.ofNanos(Math.round(seconds[i] * 1e9));
		}
		return durations;
	}

}
