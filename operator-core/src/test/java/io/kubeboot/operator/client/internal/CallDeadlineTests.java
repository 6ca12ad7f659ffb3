package io.kubeboot.operator.client.internal;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.kubeboot.operator.client.internal.CallDeadline.DeadlineExceededException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Tests for {@link CallDeadline}, on a fake clock.
 */
class CallDeadlineTests {

	private final AtomicLong now = new AtomicLong(5_000_000_000L);

	@AfterEach
	void leave() {
		CallDeadline.enter(null);
	}

	@Test
	void aThreadWithoutADeadlineIsNotBound() {
		assertThat(CallDeadline.current()).isNull();
		assertThat(CallDeadline.check()).isNull();
		assertThatNoException().isThrownBy(() -> CallDeadline.failed(new IOException("timeout")));
	}

	@Test
	void aCallBeforeTheDeadlineGetsTheTimeLeft() {
		CallDeadline.enter(deadline(Duration.ofSeconds(2)));
		this.now.addAndGet(Duration.ofMillis(500).toNanos());
		assertThat(CallDeadline.check()).isEqualTo(Duration.ofMillis(1500));
		assertThat(CallDeadline.current().isOpen()).isTrue();
		// a call that failed before the deadline is no business of the deadline's
		assertThatNoException().isThrownBy(() -> CallDeadline.failed(new IOException("reset")));
	}

	@Test
	void aCallAtOrAfterTheDeadlineIsRefusedNamingTheWork() {
		CallDeadline.enter(deadline(Duration.ofSeconds(2)));
		this.now.addAndGet(Duration.ofSeconds(2).toNanos());
		assertThat(CallDeadline.current().isOpen()).isFalse();
		assertThatExceptionOfType(DeadlineExceededException.class).isThrownBy(CallDeadline::check)
			.withMessage("The timeout of the reconcile of default/a by controller configmap (PT2S) passed 0ms ago: "
					+ "a call to the API server is refused");
	}

	@Test
	void aCallCutOffByTheDeadlineIsReportedAsSuch() {
		CallDeadline.enter(deadline(Duration.ofSeconds(2)));
		this.now.addAndGet(Duration.ofMillis(2100).toNanos());
		IOException cutOff = new IOException("timeout");
		assertThatExceptionOfType(DeadlineExceededException.class).isThrownBy(() -> CallDeadline.failed(cutOff))
			.withMessageStartingWith("The timeout of the reconcile of default/a by controller configmap (PT2S) "
					+ "passed 100ms ago: a call still unanswered at the deadline was cancelled")
			.withCause(cutOff);
	}

	@Test
	void leavingTheDeadlineUnbindsTheThread() {
		CallDeadline.enter(deadline(Duration.ofSeconds(2)));
		CallDeadline.enter(null);
		this.now.addAndGet(Duration.ofSeconds(3).toNanos());
		assertThat(CallDeadline.check()).isNull();
	}

	private CallDeadline deadline(Duration timeout) {
		return new CallDeadline(timeout, this.now::get, "the reconcile of default/a by controller configmap");
	}

}
