package io.kubeboot.operator.client.internal;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.kubeboot.operator.client.internal.WriteFence.LeadershipLostException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

class WriteFenceTests {

	private final AtomicLong now = new AtomicLong(1_000_000_000L);

	private final WriteFence fence = new WriteFence(Duration.ofSeconds(2), this.now::get);

	@Test
	void writesOutsideLeaderOnlyWorkAreNeverFenced() {
		assertThatNoException().isThrownBy(WriteFence::check);
	}

	@Test
	void leaderOnlyWritesPassWithinTheRenewDeadlineOfTheLastRenewal() throws Exception {
		this.fence.renewed(this.now.get());
		this.now.addAndGet(Duration.ofMillis(1999).toNanos());
		assertThat(checkInFence()).isNull();
		this.now.addAndGet(Duration.ofMillis(1).toNanos());
		assertThat(checkInFence()).isInstanceOf(LeadershipLostException.class)
			.hasMessage("This replica no longer leads (Lease last renewed 2000ms ago, renew deadline PT2S): a write "
					+ "of leader-only work is refused so that it cannot race the next leader");
	}

	@Test
	void closedFenceRefusesAtOnceAndARenewalReopensIt() throws Exception {
		this.fence.renewed(this.now.get());
		this.fence.close();
		assertThat(checkInFence()).isInstanceOf(LeadershipLostException.class);
		this.fence.renewed(this.now.get());
		assertThat(checkInFence()).isNull();
	}

	@Test
	void aWriteMayTakeOnlyWhatTheFenceHasLeft() throws Exception {
		assertThat(WriteFence.check()).isNull();
		this.fence.renewed(this.now.get());
		this.now.addAndGet(Duration.ofMillis(1500).toNanos());
		AtomicReference<Duration> left = new AtomicReference<>();
		inFence(() -> left.set(WriteFence.check()));
		assertThat(left.get()).isEqualTo(Duration.ofMillis(500));
	}

	@Test
	void aWriteFailedAfterTheFenceClosedReportsTheLostLeadership() throws Exception {
		this.fence.renewed(this.now.get());
		RuntimeException timeout = new IllegalStateException("PATCH failed: 0 timeout");
		assertThat(inFence(() -> WriteFence.failed(timeout))).isNull();
		this.now.addAndGet(Duration.ofSeconds(2).toNanos());
		assertThat(inFence(() -> WriteFence.failed(timeout))).isInstanceOf(LeadershipLostException.class)
			.hasMessage("This replica no longer leads (Lease last renewed 2000ms ago, renew deadline PT2S): a write "
					+ "of leader-only work still unanswered when the renew deadline passed was cancelled (the API "
					+ "server may have applied it before)")
			.hasCause(timeout);
		// outside leader-only work nothing is fenced
		WriteFence.failed(timeout);
	}

	@Test
	void threadsStartedByLeaderOnlyWorkAreFencedToo() throws Exception {
		AtomicReference<Throwable> refused = new AtomicReference<>();
		Thread work = new Thread(() -> {
			WriteFence.enter(this.fence);
			Thread child = new Thread(() -> {
				try {
					WriteFence.check();
				}
				catch (LeadershipLostException ex) {
					refused.set(ex);
				}
			});
			child.start();
			try {
				child.join();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		work.start();
		work.join();
		assertThatExceptionOfType(LeadershipLostException.class).isThrownBy(() -> {
			throw refused.get();
		});
	}

	/** Runs an action on a thread of leader-only work; returns what it threw. */
	private Throwable inFence(Runnable action) throws InterruptedException {
		AtomicReference<Throwable> thrown = new AtomicReference<>();
		Thread work = new Thread(() -> {
			WriteFence.enter(this.fence);
			try {
				action.run();
			}
			catch (RuntimeException ex) {
				thrown.set(ex);
			}
		});
		work.start();
		work.join();
		return thrown.get();
	}

	/** Checks the fence from a thread of leader-only work; returns what it threw. */
	private Throwable checkInFence() throws InterruptedException {
		return inFence(WriteFence::check);
	}

}
