package io.kubeboot.operator.benchmarks.tracing;

import java.util.List;
import java.util.concurrent.TimeUnit;

import io.kubeboot.operator.micrometer.ObservationTracing;
import io.kubeboot.operator.reconcile.ReconcileContext;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.ReconcileTrigger;
import io.kubeboot.operator.tracing.OperatorTracing;
import io.micrometer.observation.ObservationRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the causes and the observations add to each reconcile and each event when no
 * tracer is plugged in, to set beside the drain benchmark's time per reconcile:
 * {@link #disabledTracing} is the check a controller makes before each reconcile and each
 * client call with an {@code ObservationRegistry} without handlers, {@link #context} the
 * {@code ReconcileContext} every reconcile gets (its trigger, its id, bound to the
 * thread). The check of an update for a change of the trace context annotation alone is
 * measured apart
 * ({@code io.kubeboot.operator.tracing.internal.TraceContextFilterBenchmark}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ReconcileTracingBenchmark {

	private static final Request REQUEST = Request.of("default", "bucket");

	private OperatorTracing tracing;

	@Setup(Level.Trial)
	public void setUp() {
		this.tracing = new ObservationTracing(ObservationRegistry.create());
	}

	/**
	 * Asks a registry without handlers whether to observe.
	 * @return the answer
	 */
	@Benchmark
	public boolean disabledTracing() {
		return this.tracing.isNoop();
	}

	/**
	 * Creates a reconcile's context with one trigger and runs an empty reconcile in it.
	 * @return the context
	 */
	@Benchmark
	public ReconcileContext context() {
		ReconcileContext context = ReconcileContext.of("bucket", REQUEST,
				List.of(ReconcileTrigger.of(ReconcileTrigger.Kind.SPEC_CHANGED)));
		context.run(() -> {
		});
		return context;
	}

}
