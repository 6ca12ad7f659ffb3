package io.kubeboot.operator.workqueue;

import java.time.Duration;

import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The priority work queue checked for linearizability by Lincheck: every outcome of
 * concurrent adds, hand-outs, dones and shut-downs is one that some order of the same
 * calls on one thread gives. So no item is handed out twice at once, an item added while
 * processing is handed out again once done, and none is lost. Model checking explores the
 * interleavings of small scenarios systematically; the stress run executes larger ones on
 * real threads.
 */
@Param(name = "item", gen = IntGen.class, conf = "1:3")
@Param(name = "priority", gen = IntGen.class, conf = "0:2")
public class WorkQueueLinearizabilityTests {

	private final WorkQueue<Integer> queue = WorkQueues.newPriorityQueue("lincheck",
			RateLimiters.exponentialFailure(Duration.ofMillis(5), Duration.ofSeconds(1)), WorkQueueMetrics.NOOP);

	@Operation
	public void add(@Param(name = "item") int item, @Param(name = "priority") int priority) {
		this.queue.add(item, priority * 10);
	}

	/**
	 * Takes the next ready item without waiting: what a worker's {@code get} returns once
	 * an item is ready.
	 */
	@Operation
	public @Nullable Integer take() throws InterruptedException {
		return this.queue.poll(Duration.ZERO);
	}

	@Operation
	public void done(@Param(name = "item") int item) {
		this.queue.done(item);
	}

	@Operation
	public int len() {
		return this.queue.len();
	}

	@Operation
	public int priorityOf(@Param(name = "item") int item) {
		return this.queue.priorityOf(item);
	}

	@Operation
	public boolean shutDown() {
		this.queue.shutDown();
		return this.queue.isShuttingDown();
	}

	@Test
	void everyInterleavingOfSmallScenariosIsLinearizable() {
		new ModelCheckingOptions().iterations(30).invocationsPerIteration(300).check(getClass());
	}

	@Test
	void concurrentRunsOnRealThreadsAreLinearizable() {
		new StressOptions().iterations(60)
			.invocationsPerIteration(2_000)
			.threads(3)
			.actorsPerThread(3)
			.check(getClass());
	}

}
