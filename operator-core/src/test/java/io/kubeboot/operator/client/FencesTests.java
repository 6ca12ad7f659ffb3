package io.kubeboot.operator.client;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.kubeboot.operator.client.internal.CallDeadline;
import io.kubeboot.operator.client.internal.CallDeadline.DeadlineExceededException;
import io.kubeboot.operator.client.internal.WriteFence;
import io.kubeboot.operator.client.internal.WriteFence.LeadershipLostException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Work that fenced code hands to a pool takes the fence (and the deadline of a reconcile
 * with a timeout) along when wrapped, and leaves the pool's thread as it found it.
 */
class FencesTests {

	private final AtomicLong now = new AtomicLong(1_000_000_000L);

	private final WriteFence fence = new WriteFence(Duration.ofSeconds(2), this.now::get);

	/** Created before any fenced work: its thread has no fence of its own. */
	private final ExecutorService pool = Executors.newSingleThreadExecutor();

	@AfterEach
	void shutDown() {
		this.pool.shutdownNow();
	}

	@Test
	void aWrappedTaskOfFencedWorkIsRefusedOnAPoolThreadOnceTheFenceClosed() throws Exception {
		this.pool.submit(() -> {
		}).get(); // the pool's thread exists, unfenced
		this.fence.renewed(this.now.get());
		this.fence.close();
		AtomicReference<CompletableFuture<Duration>> wrapped = new AtomicReference<>();
		AtomicReference<CompletableFuture<Duration>> bare = new AtomicReference<>();
		fenced(() -> {
			wrapped.set(CompletableFuture.supplyAsync(Fences.supplier(WriteFence::check), this.pool));
			bare.set(CompletableFuture.supplyAsync(WriteFence::check, this.pool));
		});
		assertThatExceptionOfType(Exception.class).isThrownBy(() -> wrapped.get().get())
			.withCauseInstanceOf(LeadershipLostException.class);
		// what runs unwrapped is not fenced: the pool's thread keeps no fence either
		assertThat(bare.get().get()).isNull();
		assertThat(this.pool.submit(WriteFence::check).get()).isNull();
	}

	@Test
	void aWrappedExecutorRunsEachTaskUnderTheFenceOfItsSubmitter() throws Exception {
		this.fence.renewed(this.now.get());
		AtomicReference<CompletableFuture<Duration>> left = new AtomicReference<>();
		fenced(() -> left.set(CompletableFuture.supplyAsync(WriteFence::check, Fences.executor(this.pool))));
		assertThat(left.get().get()).isEqualTo(Duration.ofSeconds(2));
		AtomicReference<Duration> unfenced = new AtomicReference<>(Duration.ZERO);
		Fences.executor(this.pool).execute(() -> unfenced.set(WriteFence.check()));
		assertThat(this.pool.submit(unfenced::get).get()).isNull();
		assertThat(this.pool.submit(Fences.callable(WriteFence::check)).get()).isNull();
	}

	@Test
	void aWrappedTaskOfAReconcileWithATimeoutIsBoundByItsDeadlineOnAPoolThread() throws Exception {
		this.pool.submit(() -> {
		}).get();
		CallDeadline deadline = new CallDeadline(Duration.ofSeconds(1), this.now::get, "the reconcile of ns/a");
		AtomicReference<CompletableFuture<Duration>> wrapped = new AtomicReference<>();
		AtomicReference<Boolean> openOnThePool = new AtomicReference<>();
		Thread reconcile = new Thread(() -> {
			CallDeadline.enter(deadline);
			this.now.addAndGet(Duration.ofSeconds(1).toNanos());
			wrapped.set(CompletableFuture.supplyAsync(Fences.supplier(CallDeadline::check), this.pool));
			Fences.executor(this.pool).execute(() -> openOnThePool.set(Fences.isOpen()));
		});
		reconcile.start();
		reconcile.join();
		assertThatExceptionOfType(Exception.class).isThrownBy(() -> wrapped.get().get())
			.withCauseInstanceOf(DeadlineExceededException.class);
		assertThat(this.pool.submit(() -> openOnThePool.get()).get()).isFalse();
		// the pool's thread keeps no deadline
		assertThat(this.pool.submit(CallDeadline::check).get()).isNull();
		assertThat(this.pool.submit(Fences::isOpen).get()).isTrue();
	}

	private void fenced(Runnable work) throws InterruptedException {
		Thread thread = new Thread(() -> {
			WriteFence.enter(this.fence);
			work.run();
		});
		thread.start();
		thread.join();
	}

}
