package io.kubeboot.operator.controller;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.kubeboot.operator.reconcile.ReconcileTrigger;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.workqueue.RateLimiters;
import io.kubeboot.operator.workqueue.Ticker;
import io.kubeboot.operator.workqueue.WorkQueue;
import io.kubeboot.operator.workqueue.WorkQueueMetrics;
import io.kubeboot.operator.workqueue.WorkQueues;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link PendingTriggers} beside a real work queue, with producers adding at once and
 * after delays and workers taking, from several threads: every trigger recorded is handed
 * to exactly one reconcile, or counted as dropped by one, and nothing is left once the
 * queue is drained.
 */
class PendingTriggersConcurrencyTests {

	private static final int PRODUCERS = 3;

	private static final int TRIGGERS_EACH = 400;

	private static final List<Request> KEYS = List.of(Request.of("default", "a"), Request.of("default", "b"),
			Request.of("default", "c"), Request.of("default", "d"));

	@Test
	void everyTriggerIsHandedToOneReconcileOrCountedAsDroppedByOne() throws Exception {
		WorkQueue<Request> queue = WorkQueues.newRateLimitingQueue("test",
				RateLimiters.exponentialFailure(Duration.ofMillis(1), Duration.ofMillis(10)), WorkQueueMetrics.NOOP);
		PendingTriggers pending = new PendingTriggers(Ticker.system());
		TriggeredQueue run = new TriggeredQueue(queue, pending);
		Map<Request, AtomicInteger> taken = new ConcurrentHashMap<>();
		AtomicLong dropped = new AtomicLong();
		List<Thread> workers = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			workers.add(started(() -> work(run, taken, dropped)));
		}
		List<Thread> producers = new ArrayList<>();
		for (int p = 0; p < PRODUCERS; p++) {
			int producer = p;
			producers.add(started(() -> produce(run, producer)));
		}
		for (Thread producer : producers) {
			producer.join();
		}

		int produced = PRODUCERS * TRIGGERS_EACH;
		await().atMost(Duration.ofSeconds(30)).until(() -> taken.size() + dropped.get() >= produced);
		queue.shutDown();
		for (Thread worker : workers) {
			worker.join(Duration.ofSeconds(10).toMillis());
		}
		assertThat(taken.values()).as("no trigger handed to two reconciles").allMatch((count) -> count.get() == 1);
		assertThat(taken.size() + dropped.get()).isEqualTo(produced);
		assertThat(pending.size()).isZero();
	}

	private static Thread started(Runnable work) {
		Thread thread = new Thread(work);
		thread.start();
		return thread;
	}

	private static void produce(TriggeredQueue run, int producer) {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		for (int i = 0; i < TRIGGERS_EACH; i++) {
			Request key = KEYS.get(random.nextInt(KEYS.size()));
			ReconcileTrigger trigger = ReconcileTrigger.of(ReconcileTrigger.Kind.ENQUEUED, "Test",
					Request.of("triggers", producer + "-" + i), null);
			if (i % 5 == 0) {
				run.addAfter(key, Duration.ofMillis(random.nextInt(3)), WorkQueue.DEFAULT_PRIORITY, trigger);
			}
			else {
				run.add(key, WorkQueue.DEFAULT_PRIORITY, trigger);
			}
		}
	}

	/** What a worker does with the triggers: takes them, and settles its reconcile. */
	private static void work(TriggeredQueue run, Map<Request, AtomicInteger> taken, AtomicLong dropped) {
		WorkQueue<Request> queue = run.queue();
		while (true) {
			Request key;
			try {
				key = queue.get();
			}
			catch (InterruptedException ex) {
				return;
			}
			if (key == null) {
				return;
			}
			PendingTriggers.Taken triggers = run.take(key);
			for (ReconcileTrigger trigger : triggers.triggers()) {
				taken.computeIfAbsent(trigger.object(), (object) -> new AtomicInteger()).incrementAndGet();
			}
			dropped.addAndGet(triggers.dropped());
			run.triggers().settle(key, ReconcileTrigger.Kind.REQUEUE);
			queue.done(key);
		}
	}

}
