package io.kubeboot.operator.source;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import io.kubeboot.operator.manager.StopSignal;
import io.kubeboot.operator.reconcile.Request;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

class IntervalTriggerTests {

	private static final Request REQUEST = Request.of("ns", "bucket");

	@Test
	void waitsStayWithinTheJitterAroundTheInterval() {
		IntervalTrigger trigger = new IntervalTrigger("t", Duration.ofSeconds(10), Duration.ZERO, 0.2, List::of);
		for (int i = 0; i < 10_000; i++) {
			assertThat(trigger.nextWait()).isBetween(Duration.ofSeconds(8), Duration.ofSeconds(12));
		}
	}

	@Test
	void waitIsExactlyTheIntervalWithoutJitter() {
		IntervalTrigger trigger = new IntervalTrigger("t", Duration.ofMillis(250), Duration.ZERO, 0, List::of);
		assertThat(trigger.nextWait()).isEqualTo(Duration.ofMillis(250));
	}

	@Test
	void ticksAreNeverCloserThanTheIntervalMinusJitter() throws Exception {
		List<Long> ticks = new CopyOnWriteArrayList<>();
		IntervalTrigger trigger = new IntervalTrigger("t", Duration.ofMillis(100), Duration.ofMillis(50), 0.2, () -> {
			ticks.add(System.nanoTime());
			return List.of(REQUEST);
		});
		StopSignal stop = new StopSignal();
		long started = System.nanoTime();
		Thread thread = new Thread(() -> run(trigger, stop, (request) -> {
		}));
		thread.start();
		await().atMost(Duration.ofSeconds(10)).until(() -> ticks.size() >= 6);
		stop.fire();
		thread.join(5000);
		assertThat(thread.isAlive()).isFalse();
		assertThat(TimeUnit.NANOSECONDS.toMillis(ticks.get(0) - started)).isGreaterThanOrEqualTo(50);
		for (int i = 1; i < ticks.size(); i++) {
			assertThat(TimeUnit.NANOSECONDS.toMillis(ticks.get(i) - ticks.get(i - 1))).isGreaterThanOrEqualTo(80);
		}
	}

	@Test
	void nothingFiresAfterStopAndStartReturnsAtOnce() throws Exception {
		AtomicInteger ticks = new AtomicInteger();
		IntervalTrigger trigger = new IntervalTrigger("t", Duration.ofMillis(20), Duration.ZERO, 0.1, () -> {
			ticks.incrementAndGet();
			return List.of(REQUEST);
		});
		StopSignal stop = new StopSignal();
		Thread thread = new Thread(() -> run(trigger, stop, (request) -> {
		}));
		thread.start();
		await().atMost(Duration.ofSeconds(10)).until(() -> ticks.get() >= 3);
		stop.fire();
		thread.join(5000);
		assertThat(thread.isAlive()).isFalse();
		int afterStop = ticks.get();
		Thread.sleep(200); // ten intervals: a running trigger would have ticked
		assertThat(ticks).hasValue(afterStop);
	}

	@Test
	void failingTickIsSkippedAndTheNextOneRuns() throws Exception {
		AtomicInteger calls = new AtomicInteger();
		List<Request> sunk = new CopyOnWriteArrayList<>();
		IntervalTrigger trigger = new IntervalTrigger("t", Duration.ofMillis(20), Duration.ZERO, 0, () -> {
			if (calls.incrementAndGet() == 1) {
				throw new IllegalStateException("object store unreachable");
			}
			return List.of(REQUEST);
		});
		StopSignal stop = new StopSignal();
		Thread thread = new Thread(() -> run(trigger, stop, sunk::add));
		thread.start();
		await().atMost(Duration.ofSeconds(10)).until(() -> !sunk.isEmpty());
		stop.fire();
		thread.join(5000);
		assertThat(calls.get()).isGreaterThanOrEqualTo(2);
	}

	@Test
	void invalidSettingsAreRejectedNamingTheTrigger() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new IntervalTrigger("probe", Duration.ZERO, Duration.ZERO, 0.1, List::of))
			.withMessage("interval of trigger 'probe' must be positive, was PT0S");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new IntervalTrigger("probe", Duration.ofSeconds(1), Duration.ZERO, 1.5, List::of))
			.withMessage("jitter of trigger 'probe' must be between 0 and 1, was 1.5");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new IntervalTrigger("probe", Duration.ofSeconds(1), Duration.ofSeconds(-1), 0, List::of))
			.withMessage("initialDelay of trigger 'probe' must not be negative, was PT-1S");
	}

	private static void run(IntervalTrigger trigger, StopSignal stop, Consumer<Request> sink) {
		RequestQueue queue = new RequestQueue() {

			@Override
			public void add(Request request) {
				sink.accept(request);
			}

			@Override
			public void addAfter(Request request, Duration delay) {
				sink.accept(request);
			}

		};
		try {
			trigger.start(queue, stop);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
