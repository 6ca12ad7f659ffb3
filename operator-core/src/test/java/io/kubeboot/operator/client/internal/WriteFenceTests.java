package io.kubeboot.operator.client.internal;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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

	/**
	 * A pool's thread created while fenced work submitted to it runs the pool's later
	 * tasks too: an every-replica runnable's writes on it must not be refused once this
	 * replica no longer leads.
	 */
	@Test
	void aPoolThreadCreatedByFencedWorkDoesNotCarryItsFence() throws Exception {
		ExecutorService pool = Executors.newSingleThreadExecutor();
		try {
			AtomicReference<Future<?>> first = new AtomicReference<>();
			this.fence.renewed(this.now.get());
			// the pool's only thread is created by leader-only work
			inFence(() -> first.set(pool.submit(() -> {
			})));
			first.get().get();
			this.fence.close();
			Future<Duration> everyReplica = pool.submit(WriteFence::check);
			assertThat(everyReplica.get()).isNull();
		}
		finally {
			pool.shutdownNow();
		}
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
