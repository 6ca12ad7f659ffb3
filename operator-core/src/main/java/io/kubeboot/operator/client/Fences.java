package io.kubeboot.operator.client;

import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

import io.kubeboot.operator.client.internal.CallDeadline;
import io.kubeboot.operator.client.internal.WriteFence;
import org.jspecify.annotations.Nullable;

/**
 * Takes the write fence of the calling thread along to work that runs on another thread.
 * <p>
 * The client refuses the writes of leader-only work once this replica's Lease can no
 * longer be vouched for (and those of a sharded controller once its shard Lease can not),
 * so that work that ignored its stop cannot race the next leader. The framework fences
 * the threads it runs that work on: the runnables' threads and the controllers' workers.
 * A task handed to a pool (an executor, {@code CompletableFuture.supplyAsync}, a parallel
 * stream) runs on a thread the pool created for whatever comes, so it is not fenced
 * unless wrapped here; conversely a pool thread never keeps the fence of the work that
 * happened to create it. <pre>{@code
 * CompletableFuture.supplyAsync(Fences.supplier(() -> client.patch(object, patch)), executor);
 * }</pre> Outside fenced work the wrappers run the task unfenced, as it would run anyway.
 * <p>
 * The wrappers also take along the deadline of a reconcile with a timeout
 * ({@code ControllerBuilder.reconcileTimeout}): once it passed, the client refuses every
 * call of the reconcile, reads included, and cuts off one still unanswered.
 */
public final class Fences {

	private Fences() {
	}

	/**
	 * Whether the calling thread may write now: {@code true} unless it runs fenced work
	 * whose Lease can no longer be vouched for, or a reconcile whose timeout passed. Work
	 * that checks this before a long step can stop early instead of having its next write
	 * refused.
	 * @return {@code true} if the thread is not fenced or its fence is open
	 */
	public static boolean isOpen() {
		WriteFence fence = WriteFence.current();
		CallDeadline deadline = CallDeadline.current();
		return (fence == null || fence.isOpen()) && (deadline == null || deadline.isOpen());
	}

	/**
	 * Wraps a task so that it runs under the calling thread's fence.
	 * @param task the task
	 * @return the wrapped task
	 */
	public static java.lang.Runnable runnable(java.lang.Runnable task) {
		Bounds bounds = Bounds.current();
		return () -> {
			Bounds previous = bounds.enter();
			try {
				task.run();
			}
			finally {
				previous.enter();
			}
		};
	}

	/**
	 * Wraps a task so that it runs under the calling thread's fence.
	 * @param <T> the result type
	 * @param task the task
	 * @return the wrapped task
	 */
	public static <T> Supplier<T> supplier(Supplier<T> task) {
		Bounds bounds = Bounds.current();
		return () -> {
			Bounds previous = bounds.enter();
			try {
				return task.get();
			}
			finally {
				previous.enter();
			}
		};
	}

	/**
	 * Wraps a task so that it runs under the calling thread's fence.
	 * @param <T> the result type
	 * @param task the task
	 * @return the wrapped task
	 */
	public static <T> Callable<T> callable(Callable<T> task) {
		Bounds bounds = Bounds.current();
		return () -> {
			Bounds previous = bounds.enter();
			try {
				return task.call();
			}
			finally {
				previous.enter();
			}
		};
	}

	/**
	 * Wraps an executor so that every task runs under the fence of the thread that
	 * submitted it.
	 * @param executor the executor
	 * @return the wrapping executor
	 */
	public static Executor executor(Executor executor) {
		return (task) -> executor.execute(runnable(task));
	}

	/**
	 * What bounds a thread's calls: its write fence and its deadline.
	 */
	private record Bounds(@Nullable WriteFence fence, @Nullable CallDeadline deadline) {

		static Bounds current() {
			return new Bounds(WriteFence.current(), CallDeadline.current());
		}

		/**
		 * Puts the calling thread under these bounds.
		 * @return the bounds it had before
		 */
		Bounds enter() {
			Bounds previous = current();
			WriteFence.enter(this.fence);
			CallDeadline.enter(this.deadline);
			return previous;
		}

	}

}
