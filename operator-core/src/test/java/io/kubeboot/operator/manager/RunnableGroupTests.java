package io.kubeboot.operator.manager;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Starting and stopping a {@link RunnableGroup}: one thread per runnable, stop signals
 * first, interrupts after the timeout.
 */
class RunnableGroupTests {

	private static final Duration DEADLINE = Duration.ofSeconds(10);

	private final Map<String, Throwable> failures = new ConcurrentHashMap<>();

	private final RunnableGroup group = new RunnableGroup("test", this.failures::put);

	/** Released at the end of each test, for runnables that wait on it. */
	private final CountDownLatch released = new CountDownLatch(1);

	@AfterEach
	void stopGroup() {
		this.released.countDown();
		this.group.stop(DEADLINE);
	}

	@Test
	void startRunsEachMemberOnItsOwnThread() {
		Map<String, Thread> threads = new ConcurrentHashMap<>();
		this.group.add("a", (stop) -> {
			threads.put("a", Thread.currentThread());
			stop.await();
		});
		this.group.add("b", (stop) -> {
			threads.put("b", Thread.currentThread());
			stop.await();
		});
		this.group.start();
		eventually().until(() -> threads.size() == 2);
		assertThat(threads.get("a")).isNotSameAs(threads.get("b")).isNotSameAs(Thread.currentThread());
		assertThat(threads.get("b")).isNotSameAs(Thread.currentThread());
		assertThat(threads.get("a").getName()).isEqualTo("operator-a");
		assertThat(this.group.isStarted()).isTrue();
		eventually().until(() -> this.group.aliveCount() == 2);
	}

	@Test
	void stopFiresEveryStopSignalAndReturnsTrueWhenAllReturnedInTime() {
		List<StopSignal> signals = new CopyOnWriteArrayList<>();
		List<String> returned = new CopyOnWriteArrayList<>();
		for (String name : List.of("a", "b", "c")) {
			this.group.add(name, (stop) -> {
				signals.add(stop);
				stop.await();
				returned.add(name);
			});
		}
		this.group.start();
		eventually().until(() -> signals.size() == 3);
		assertThat(signals).noneMatch(StopSignal::isStopRequested);
		assertThat(this.group.stop(DEADLINE)).isTrue();
		assertThat(signals).allMatch(StopSignal::isStopRequested);
		assertThat(returned).containsExactlyInAnyOrder("a", "b", "c");
		assertThat(this.group.aliveCount()).isZero();
		assertThat(this.group.isStarted()).isFalse();
		assertThat(this.failures).isEmpty();
	}

	@Test
	void aRunnableThatIgnoresItsStopSignalIsInterruptedAfterTheTimeoutAndStopReturnsFalse() {
		CompletableFuture<Throwable> interrupted = new CompletableFuture<>();
		List<String> returned = new CopyOnWriteArrayList<>();
		this.group.add("stubborn", (stop) -> {
			try {
				new CountDownLatch(1).await();
			}
			catch (InterruptedException ex) {
				interrupted.complete(ex);
				throw ex;
			}
		});
		this.group.add("polite", (stop) -> {
			stop.await();
			returned.add("polite");
		});
		this.group.start();
		eventually().until(() -> this.group.aliveCount() == 2);
		Duration timeout = Duration.ofMillis(200);
		long start = System.nanoTime();
		assertThat(this.group.stop(timeout)).isFalse();
		// (less a millisecond: the group's join waits whole milliseconds)
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(timeout.minusMillis(1));
		assertThat(interrupted).isCompletedWithValueMatching(InterruptedException.class::isInstance);
		assertThat(returned).containsExactly("polite");
		// stop returns once the interrupted thread has ended
		assertThat(this.group.aliveCount()).isZero();
		// interrupted because it was stopped: not a failure
		assertThat(this.failures).isEmpty();
	}

	@Test
	void aStopHurriedWhileItWaitsInterruptsAtTheNewDeadlineInsteadOfTheGracefulOne() throws Exception {
		CompletableFuture<Throwable> interrupted = new CompletableFuture<>();
		this.group.add("slow", (stop) -> {
			try {
				this.released.await();
			}
			catch (InterruptedException ex) {
				interrupted.complete(ex);
				throw ex;
			}
		});
		this.group.start();
		eventually().until(() -> this.group.aliveCount() == 1);
		RunnableGroup.Stopping stopping = this.group.beginStop(Duration.ofHours(1));
		CompletableFuture<Boolean> inTime = CompletableFuture.supplyAsync(stopping::await);
		assertThat(inTime).isNotDone();
		stopping.hurry(Duration.ofMillis(100));
		assertThat(inTime.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isFalse();
		assertThat(interrupted).isCompletedWithValueMatching(InterruptedException.class::isInstance);
		assertThat(this.group.aliveCount()).isZero();
		// a later, longer hurry does not push the deadline back
		RunnableGroup.Stopping none = this.group.beginStop(Duration.ZERO);
		none.hurry(Duration.ofHours(1));
		assertThat(none.await()).isTrue();
	}

	@Test
	void aMemberThatThrowsCallsTheFailureCallbackWithItsName() {
		IllegalStateException boom = new IllegalStateException("boom");
		this.group.add("healthy", StopSignal::await);
		this.group.add("broken", (stop) -> {
			throw boom;
		});
		this.group.start();
		eventually().until(() -> this.failures.containsKey("broken"));
		assertThat(this.failures).containsOnly(Map.entry("broken", boom));
		eventually().until(() -> this.group.aliveCount() == 1);
	}

	@Test
	void aMemberInterruptedWhileNotStoppingIsAFailure() {
		this.group.add("interrupted", (stop) -> {
			throw new InterruptedException("interrupted by its own code");
		});
		this.group.start();
		eventually().until(() -> this.failures.containsKey("interrupted"));
		assertThat(this.failures.get("interrupted")).isInstanceOf(InterruptedException.class);
	}

	@Test
	void aRunnableThatReturnsEarlyIsNotAFailure() {
		List<String> ran = new CopyOnWriteArrayList<>();
		this.group.add("one-shot", (stop) -> ran.add("one-shot"));
		this.group.start();
		eventually().until(() -> ran.size() == 1 && this.group.aliveCount() == 0);
		assertThat(this.failures).isEmpty();
		assertThat(this.group.isStarted()).isTrue();
		assertThat(this.group.stop(DEADLINE)).isTrue();
		assertThat(this.failures).isEmpty();
	}

	@Test
	void aRunnableAddedToAStartedGroupStartsAtOnce() {
		List<String> started = new CopyOnWriteArrayList<>();
		this.group.start();
		this.group.add("late", (stop) -> {
			started.add("late");
			stop.await();
		});
		eventually().until(() -> started.contains("late"));
		assertThat(this.group.aliveCount()).isOne();
		assertThat(this.group.stop(DEADLINE)).isTrue();
		assertThat(this.group.aliveCount()).isZero();
	}

	@Test
	void aRunnableAddedToAGroupNotStartedWaitsForTheStart() {
		List<String> started = new CopyOnWriteArrayList<>();
		this.group.add("early", (stop) -> {
			started.add("early");
			stop.await();
		});
		assertThat(this.group.names()).containsExactly("early");
		assertThat(this.group.aliveCount()).isZero();
		assertThat(started).isEmpty();
		this.group.start();
		eventually().until(() -> started.contains("early"));
	}

	@Test
	void aGroupStartsAgainAfterAStopWithFreshSignalsAndThreads() {
		List<StopSignal> signals = new CopyOnWriteArrayList<>();
		List<Thread> threads = new CopyOnWriteArrayList<>();
		this.group.add("leader-work", (stop) -> {
			signals.add(stop);
			threads.add(Thread.currentThread());
			stop.await();
		});
		this.group.start();
		eventually().until(() -> signals.size() == 1);
		assertThat(this.group.stop(DEADLINE)).isTrue();
		assertThat(this.group.isStarted()).isFalse();
		this.group.start();
		eventually().until(() -> signals.size() == 2);
		assertThat(signals.get(0).isStopRequested()).isTrue();
		assertThat(signals.get(1)).isNotSameAs(signals.get(0));
		assertThat(signals.get(1).isStopRequested()).isFalse();
		assertThat(threads.get(1)).isNotSameAs(threads.get(0));
		assertThat(threads.get(0).isAlive()).isFalse();
		assertThat(this.group.stop(DEADLINE)).isTrue();
		assertThat(signals.get(1).isStopRequested()).isTrue();
	}

	@Test
	void aliveCountCountsRunnablesThatAreStopping() throws Exception {
		CountDownLatch stopping = new CountDownLatch(1);
		this.group.add("slow-to-stop", (stop) -> {
			stop.await();
			stopping.countDown();
			this.released.await(); // cleaning up
		});
		this.group.start();
		eventually().until(() -> this.group.aliveCount() == 1);
		CompletableFuture<Boolean> stopped = CompletableFuture.supplyAsync(() -> this.group.stop(Duration.ofNanos(-1)));
		assertThat(stopping.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
		assertThat(this.group.isStarted()).isFalse();
		assertThat(this.group.aliveCount()).isOne();
		assertThat(stopped).isNotDone();
		this.released.countDown();
		assertThat(stopped.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
		assertThat(this.group.aliveCount()).isZero();
	}

	/**
	 * Waits for a condition, checking it every few milliseconds.
	 */
	private static ConditionFactory eventually() {
		return await().atMost(DEADLINE).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(2));
	}

}
