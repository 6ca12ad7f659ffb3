package io.kubeboot.operator.client.internal;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * {@link WriteFence} under Lincheck, on a clock the scenario advances: while renewals, a
 * lost Lease and the passing of time race, a fenced write is never given more time than
 * the renew deadline. A renewal records when it began, as the elector's does, so it can
 * be recorded after the clock moved on. Time is not state a sequential order can replay
 * (the fence reads the clock and its renewal one after the other), so the operations
 * answer whether what they saw was safe, which every sequential order answers with
 * {@code true}.
 */
@Param(name = "millis", gen = IntGen.class, conf = "1:8")
public class WriteFenceInterleavingTests {

	private static final Duration VALIDITY = Duration.ofMillis(10);

	private final AtomicLong nanos = new AtomicLong();

	private final WriteFence fence = new WriteFence(VALIDITY, this.nanos::get);

	/** A renewal that began now and succeeded. */
	@Operation
	public void renewed() {
		this.fence.renewed(this.nanos.get());
	}

	@Operation
	public void close() {
		this.fence.close();
	}

	@Operation
	public void advance(@Param(name = "millis") int millis) {
		this.nanos.addAndGet(Duration.ofMillis(millis).toNanos());
	}

	/**
	 * Whether a fenced write was refused, or given no more than the renew deadline.
	 */
	@Operation
	public boolean check() {
		WriteFence.enter(this.fence);
		try {
			return WriteFence.check().compareTo(VALIDITY) <= 0;
		}
		catch (WriteFence.LeadershipLostException ex) {
			return true;
		}
		finally {
			WriteFence.enter(null);
		}
	}

	@Test
	void noInterleavingOfSmallScenariosGivesAWriteMoreThanTheRenewDeadline() {
		new ModelCheckingOptions().iterations(30).invocationsPerIteration(200).check(getClass());
	}

	@Test
	void noConcurrentRunOnRealThreadsGivesAWriteMoreThanTheRenewDeadline() {
		new StressOptions().iterations(20).invocationsPerIteration(1_000).check(getClass());
	}

}
