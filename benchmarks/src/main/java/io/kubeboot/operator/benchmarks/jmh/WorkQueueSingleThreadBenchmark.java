package io.kubeboot.operator.benchmarks.jmh;

import java.util.concurrent.TimeUnit;

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
 * The uncontended cost of one {@code add}, {@code get} and {@code done} on one thread.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class WorkQueueSingleThreadBenchmark {

	private static final int KEYS = 1024;

	@Param({ QueueUnderTest.KUBEBOOT, QueueUnderTest.CLIENT_JAVA_EXTENDED })
	public String queue;

	private QueueUnderTest<String> workQueue;

	private String[] keys;

	private int next;

	@Setup(Level.Trial)
	public void setUp() {
		this.workQueue = QueueUnderTest.create(this.queue);
		this.keys = new String[KEYS];
		for (int i = 0; i < KEYS; i++) {
			this.keys[i] = "namespace/widget-" + i;
		}
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		this.workQueue.shutDown();
	}

	/**
	 * Adds a key, takes it and marks it done.
	 * @return the item taken
	 * @throws InterruptedException never in practice
	 */
	@Benchmark
	public String addGetDone() throws InterruptedException {
		String key = this.keys[this.next++ & (KEYS - 1)];
		this.workQueue.add(key);
		String item = this.workQueue.get();
		this.workQueue.done(item);
		return item;
	}

}
