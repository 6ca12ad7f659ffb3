package io.kubeboot.operator.manager;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.client.internal.WriteFence;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runnables that start and stop together, each on a thread of its own, like
 * controller-runtime's runnable groups. A group can be started again after a stop (a
 * leader group does after a lost and regained lease); each start gives every runnable a
 * fresh stop signal and thread. A runnable added to a started group starts at once.
 */
final class RunnableGroup {

	private static final Logger logger = LoggerFactory.getLogger(RunnableGroup.class);

	private static final Duration INTERRUPT_GRACE = Duration.ofSeconds(5);

	private final String name;

	private final BiConsumer<String, Throwable> onFailure;

	private final List<Member> members = new ArrayList<>();

	private final List<Run> runs = new ArrayList<>();

	private boolean started;

	private final AtomicInteger alive = new AtomicInteger();

	private final @Nullable WriteFence fence;

	/** How often a stop's wait checks whether its deadline was brought forward. */
	private static final long DEADLINE_CHECK_MILLIS = 20;

	/** Runs that ignored their stop and their interruption, and may still run. */
	private final List<Run> stuck = new CopyOnWriteArrayList<>();

	RunnableGroup(String name, BiConsumer<String, Throwable> onFailure) {
		this(name, onFailure, null);
	}

	/**
	 * Creates a group.
	 * @param name the group's name, for logs
	 * @param onFailure told when a runnable fails
	 * @param fence the fence the runnables' writes pass, {@code null} for none
	 */
	RunnableGroup(String name, BiConsumer<String, Throwable> onFailure, @Nullable WriteFence fence) {
		this.name = name;
		this.onFailure = onFailure;
		this.fence = fence;
	}

	/**
	 * Returns the runnables that ignored their stop signal and their interruption and are
	 * still running: while there are any, the group's work may still be writing.
	 * @return their names, empty if everything stopped
	 */
	List<String> stuck() {
		this.stuck.removeIf((run) -> !run.thread.isAlive());
		return this.stuck.stream().map((run) -> run.member.name).toList();
	}

	synchronized void add(String runnableName, ManagerRunnable runnable) {
		Member member = new Member(runnableName, runnable);
		this.members.add(member);
		if (this.started) {
			this.runs.add(launch(member));
		}
	}

	synchronized boolean isStarted() {
		return this.started;
	}

	synchronized void start() {
		if (this.started) {
			return;
		}
		this.started = true;
		for (Member member : this.members) {
			this.runs.add(launch(member));
		}
	}

	/**
	 * Fires every stop signal and waits for the runnables to return until the deadline,
	 * then interrupts the ones still running.
	 * @param timeout how long to wait; negative waits forever
	 * @return {@code true} if every runnable returned before the deadline
	 */
	boolean stop(Duration timeout) {
		return beginStop(timeout).await();
	}

	/**
	 * Fires every stop signal and returns the stop, to be awaited with
	 * {@link Stopping#await()}, perhaps on another thread.
	 * @param timeout how long the stop waits before it interrupts; negative waits forever
	 * @return the stop in progress
	 */
	Stopping beginStop(Duration timeout) {
		List<Run> stopping;
		synchronized (this) {
			this.started = false;
			stopping = new ArrayList<>(this.runs);
			this.runs.clear();
		}
		stopping.forEach((run) -> run.signal.fire());
		return new Stopping(stopping, timeout);
	}

	private static boolean join(Thread thread, long deadlineNanos) {
		try {
			long remaining = deadlineNanos - System.nanoTime();
			if (remaining > 0) {
				thread.join(Math.max(1, remaining / 1_000_000));
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return !thread.isAlive();
	}

	private Run launch(Member member) {
		StopSignal signal = new StopSignal();
		Thread thread = new Thread(() -> run(member, signal), "operator-" + member.name);
		Run run = new Run(member, signal, thread);
		thread.start();
		return run;
	}

	/**
	 * Returns how many runnables of this group are still running, stopping ones included.
	 */
	int aliveCount() {
		return this.alive.get();
	}

	private void run(Member member, StopSignal signal) {
		if (this.fence != null) {
			WriteFence.enter(this.fence);
		}
		this.alive.incrementAndGet();
		try {
			member.runnable.start(signal);
			if (!signal.isStopRequested()) {
				logger.info("Runnable returned before it was stopped: group={} runnable={}", this.name, member.name);
			}
		}
		catch (InterruptedException ex) {
			if (!signal.isStopRequested()) {
				this.onFailure.accept(member.name, ex);
			}
		}
		catch (Throwable ex) {
			this.onFailure.accept(member.name, ex);
		}
		finally {
			this.alive.decrementAndGet();
		}
	}

	synchronized boolean contains(String runnableName) {
		return this.members.stream().anyMatch((member) -> member.name.equals(runnableName));
	}

	synchronized List<ManagerRunnable> runnables() {
		return this.members.stream().map((member) -> member.runnable).toList();
	}

	synchronized List<String> namesExcept(Class<? extends ManagerRunnable> excluded) {
		return this.members.stream()
			.filter((member) -> !excluded.isInstance(member.runnable))
			.map((member) -> member.name)
			.toList();
	}

	/**
	 * Returns the names of the runnables that read an informer.
	 * @param informer the informer's key
	 * @return the names, in the order the runnables were added
	 */
	synchronized List<String> namesReading(InformerKey informer) {
		return this.members.stream()
			.filter((member) -> member.runnable.informerKeys().contains(informer))
			.map((member) -> member.name)
			.toList();
	}

	synchronized List<String> names() {
		return this.members.stream().map((member) -> member.name).toList();
	}

	/**
	 * A stop in progress: the runnables it waits for and its deadline, which
	 * {@link #hurry} brings forward (the leader-only group stopping gracefully when the
	 * Lease is lost meanwhile must end before a standby may take over).
	 */
	final class Stopping {

		private final List<Run> runs;

		private final Duration timeout;

		private volatile long deadlineNanos;

		private Stopping(List<Run> runs, Duration timeout) {
			this.runs = runs;
			this.timeout = timeout;
			this.deadlineNanos = System.nanoTime() + (timeout.isNegative() ? Long.MAX_VALUE / 2 : timeout.toNanos());
		}

		/**
		 * Brings the deadline forward to at most {@code within} from now.
		 * @param within the longest the stop may still wait before it interrupts
		 */
		void hurry(Duration within) {
			long hurried = System.nanoTime() + within.toNanos();
			synchronized (this) {
				if (hurried - this.deadlineNanos < 0) {
					this.deadlineNanos = hurried;
				}
			}
		}

		/**
		 * Waits for the runnables to return until the deadline, then interrupts the ones
		 * still running and gives them a few more seconds.
		 * @return {@code true} if every runnable returned before the deadline
		 */
		boolean await() {
			boolean inTime = true;
			for (Run run : this.runs) {
				if (!awaitEnd(run.thread)) {
					inTime = false;
					logger.warn(
							"Runnable did not stop within the graceful shutdown timeout, interrupting it: group={} runnable={} timeout={}",
							RunnableGroup.this.name, run.member.name, this.timeout);
					run.thread.interrupt();
				}
			}
			if (!inTime) {
				long interruptDeadline = System.nanoTime() + INTERRUPT_GRACE.toNanos();
				for (Run run : this.runs) {
					if (!join(run.thread, interruptDeadline)) {
						logger.error("Runnable ignored interruption and is left running: group={} runnable={}",
								RunnableGroup.this.name, run.member.name);
						RunnableGroup.this.stuck.add(run);
					}
				}
			}
			return inTime;
		}

		/** Waits for a thread until the deadline, which may come forward meanwhile. */
		private boolean awaitEnd(Thread thread) {
			try {
				while (thread.isAlive()) {
					long remaining = this.deadlineNanos - System.nanoTime();
					if (remaining <= 0) {
						return false;
					}
					thread.join(Math.max(1, Math.min(DEADLINE_CHECK_MILLIS, remaining / 1_000_000)));
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return !thread.isAlive();
			}
			return true;
		}

	}

	private record Member(String name, ManagerRunnable runnable) {
	}

	private record Run(Member member, StopSignal signal, Thread thread) {
	}

	@Override
	public String toString() {
		@Nullable String state = this.started ? "started" : "stopped";
		return "RunnableGroup[" + this.name + ", " + state + "]";
	}

}
