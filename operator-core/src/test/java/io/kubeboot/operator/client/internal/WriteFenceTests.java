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

	/** Checks the fence from a thread of leader-only work; returns what it threw. */
	private Throwable checkInFence() throws InterruptedException {
		AtomicReference<Throwable> thrown = new AtomicReference<>();
		Thread work = new Thread(() -> {
			WriteFence.enter(this.fence);
			try {
				WriteFence.check();
			}
			catch (RuntimeException ex) {
				thrown.set(ex);
			}
		});
		work.start();
		work.join();
		return thrown.get();
	}

}
