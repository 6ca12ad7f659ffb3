package io.kubeboot.operator.benchmarks.index;

import java.util.Collection;
import java.util.concurrent.TimeUnit;

import io.kubeboot.operator.reconcile.Request;
import io.kubernetes.client.openapi.models.V1Secret;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What mapping one Secret event to the ConfigMaps that name it costs on the informer's
 * event thread, with {@code configMaps} ConfigMaps cached and each Secret named by
 * {@code configMaps / secrets} of them: {@link #scan} visits every cached ConfigMap,
 * {@link #index} reads those the index files under the Secret's name. Each call maps the
 * next Secret, round the {@code secrets}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MapByIndexBenchmark {

	@Param({ "10000" })
	public int configMaps;

	@Param({ "1000" })
	public int secrets;

	private IndexedMapping mapping;

	private V1Secret[] events;

	private int next;

	@Setup(Level.Trial)
	public void setUp() throws Exception {
		this.mapping = IndexedMapping.start(this.configMaps, this.secrets);
		this.events = new V1Secret[this.secrets];
		for (int i = 0; i < this.secrets; i++) {
			this.events[i] = IndexedMapping.secret(i);
		}
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		this.mapping.close();
	}

	/**
	 * Maps a Secret event by visiting every cached ConfigMap.
	 * @return the requests
	 */
	@Benchmark
	public Collection<Request> scan() {
		return this.mapping.scan.map(nextEvent());
	}

	/**
	 * Maps a Secret event by a lookup in the index.
	 * @return the requests
	 */
	@Benchmark
	public Collection<Request> index() {
		return this.mapping.index.map(nextEvent());
	}

	private V1Secret nextEvent() {
		V1Secret event = this.events[this.next];
		this.next = (this.next + 1 < this.events.length) ? this.next + 1 : 0;
		return event;
	}

}
