package io.kubeboot.operator.benchmarks.jmh;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Producers and workers on one rate-limiting work queue, as a controller uses it: each
 * invocation, {@value #PRODUCERS} producer threads add {@value #ADDS_PER_PRODUCER} items
 * each while {@value #WORKERS} worker threads {@code get()} and {@code done()} until the
 * producers are finished and the queue is empty. The score is adds per millisecond,
 * everything handed out processed.
 * <p>
 * {@code keys = distinct}: every add is a new key (no coalescing).
 * {@code keys = hot-key}: every add is the same key, so adds coalesce while it waits and
 * mark it dirty while a worker holds it; this is where a queue's locking is hammered
 * hardest.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class WorkQueueBenchmark {

	/**
	 * Producer threads.
	 */
	public static final int PRODUCERS = 2;

	/**
	 * Worker threads, as many as the operators' workers.
	 */
	public static final int WORKERS = 4;

	/**
	 * Adds per producer and invocation.
	 */
	public static final int ADDS_PER_PRODUCER = 5_000;

	private static final String POISON = "\u0000stop-";

	@Param({ QueueUnderTest.KUBEBOOT, QueueUnderTest.CLIENT_JAVA_EXTENDED })
	public String queue;

	@Param({ "distinct", "hot-key" })
	public String keys;

	private QueueUnderTest<String> workQueue;

	private ExecutorService threads;

	private String[][] producerKeys;

	private String[] poisons;

	@Setup(Level.Trial)
	public void setUp() {
		this.workQueue = QueueUnderTest.create(this.queue);
		this.threads = Executors.newFixedThreadPool(PRODUCERS + WORKERS);
		this.producerKeys = new String[PRODUCERS][ADDS_PER_PRODUCER];
		for (int producer = 0; producer < PRODUCERS; producer++) {
			for (int i = 0; i < ADDS_PER_PRODUCER; i++) {
				this.producerKeys[producer][i] = "hot-key".equals(this.keys) ? "hot"
						: "namespace/widget-" + producer + "-" + i;
			}
		}
		this.poisons = new String[WORKERS];
		for (int worker = 0; worker < WORKERS; worker++) {
			this.poisons[worker] = POISON + worker;
		}
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		this.workQueue.shutDown();
		this.threads.shutdownNow();
	}

	/**
	 * One batch: the producers add, the workers process, until all is done.
	 * @return the number of items the workers processed
	 * @throws Exception if a thread failed
	 */
	@Benchmark
	@OperationsPerInvocation(PRODUCERS * ADDS_PER_PRODUCER)
	public long producersAndWorkers() throws Exception {
		List<Future<Long>> workers = new ArrayList<>();
		for (int worker = 0; worker < WORKERS; worker++) {
			workers.add(this.threads.submit(this::work));
		}
		List<Future<?>> producers = new ArrayList<>();
		for (String[] batch : this.producerKeys) {
			producers.add(this.threads.submit(() -> {
				for (String key : batch) {
					this.workQueue.add(key);
				}
			}));
		}
		for (Future<?> producer : producers) {
			producer.get();
		}
		for (String poison : this.poisons) {
			this.workQueue.add(poison);
		}
		long processed = 0;
		for (Future<Long> worker : workers) {
			processed += worker.get();
		}
		// keys re-queued after a worker took its stop item
		while (this.workQueue.len() > 0) {
			String item = this.workQueue.get();
			this.workQueue.done(item);
			processed++;
		}
		return processed;
	}

	private long work() throws InterruptedException {
		long processed = 0;
		while (true) {
			String item = this.workQueue.get();
			if (item == null) {
				return processed;
			}
			this.workQueue.done(item);
			if (item.startsWith(POISON)) {
				return processed;
			}
			processed++;
		}
	}

}
