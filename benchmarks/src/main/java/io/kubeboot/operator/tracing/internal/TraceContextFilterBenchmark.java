package io.kubeboot.operator.tracing.internal;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
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
 * What the check of an update for a change of the trace context annotation alone costs on
 * the informer's event thread, for every update of every kind a controller watches. It
 * sits in the framework's internal package because the check is internal: the benchmarks'
 * own packages use the public API only.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class TraceContextFilterBenchmark {

	private V1ConfigMap before;

	private V1ConfigMap after;

	@Setup(Level.Trial)
	public void setUp() {
		this.before = new V1ConfigMap()
			.metadata(new V1ObjectMeta().namespace("default").name("bucket").resourceVersion("1"))
			.data(Map.of("key", "value"));
		this.after = new V1ConfigMap()
			.metadata(new V1ObjectMeta().namespace("default").name("bucket").resourceVersion("2"))
			.data(Map.of("key", "other"));
	}

	/**
	 * Checks an update that changed the data, not the annotation.
	 * @return whether it changed only the annotation
	 */
	@Benchmark
	public boolean updateFilter() {
		return TraceContexts.isOnlyChange(this.before, this.after);
	}

}
