package io.kubeboot.operator.leaderelection.internal;

import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import io.kubernetes.client.extended.leaderelection.LeaderElectionRecord;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import org.jspecify.annotations.Nullable;

/**
 * A {@link LeaseLock} on a Lease kept in memory: the test plays the other replicas by
 * setting the record, and can make every request fail as an unreachable API server would,
 * hang until its timeout, or lose the answer to a write that was applied.
 */
final class FakeLeaseLock extends LeaseLock {

	private final AtomicInteger gets = new AtomicInteger();

	private final List<LeaderElectionRecord> writes = new CopyOnWriteArrayList<>();

	/** The stored Lease, {@code null} when there is none. */
	private volatile @Nullable LeaderElectionRecord record;

	private volatile boolean failing;

	private volatile @Nullable String lastError;

	private final List<Duration> timeouts = new CopyOnWriteArrayList<>();

	private volatile @Nullable Consumer<Duration> hanging;

	private final AtomicInteger answersToLose = new AtomicInteger();

	private volatile boolean lastWriteUnanswered;

	private volatile Runnable beforeWrite = () -> {
	};

	FakeLeaseLock() {
		// the client is never used: every request is overridden
		super(new ApiClient(), "default", "operator-lease", "unused");
	}

	@Override
	LeaderElectionRecord get(Duration timeout) throws ApiException {
		this.gets.incrementAndGet();
		request(timeout);
		if (this.hanging != null) {
			throw new ApiException(new InterruptedIOException("timed out after " + timeout.toMillis() + "ms"));
		}
		if (this.failing) {
			throw new ApiException(500, "etcdserver: request timed out");
		}
		LeaderElectionRecord current = this.record;
		if (current == null) {
			throw new ApiException(404, "leases.coordination.k8s.io \"operator-lease\" not found");
		}
		return copy(current);
	}

	@Override
	synchronized boolean create(LeaderElectionRecord desired, Duration timeout) {
		if (unanswered(timeout)) {
			return false;
		}
		this.lastWriteUnanswered = false;
		if (this.failing) {
			this.lastError = "create failed: 500 Internal Server Error";
			return false;
		}
		if (this.record != null) {
			this.lastError = null; // a conflict: another replica created it first
			return false;
		}
		return write(desired);
	}

	@Override
	synchronized boolean update(LeaderElectionRecord desired, Duration timeout) {
		if (unanswered(timeout)) {
			return false;
		}
		this.lastWriteUnanswered = false;
		if (this.failing) {
			this.lastError = "update failed: 500 Internal Server Error";
			return false;
		}
		if (this.record == null) {
			this.lastError = "update failed: 404 Not Found";
			return false;
		}
		return write(desired);
	}

	@Override
	@Nullable String lastError() {
		return this.lastError;
	}

	@Override
	boolean lastWriteUnanswered() {
		return this.lastWriteUnanswered;
	}

	/**
	 * Makes every following request hang until its timeout and then fail without an
	 * answer; the hang is played by passing the timeout to the given action, which
	 * advances the test's clock.
	 * @param waitFor advances the clock by a request's timeout
	 */
	void hanging(Consumer<Duration> waitFor) {
		this.hanging = waitFor;
	}

	/**
	 * Makes the next creates or updates apply but fail without an answer, as when the
	 * connection breaks after the API server wrote the Lease.
	 * @param count how many writes lose their answer
	 */
	void loseAnswers(int count) {
		this.answersToLose.set(count);
	}

	/**
	 * Runs an action at the start of every following create or update, before it applies.
	 * @param action the action, for example firing the elector's stop signal
	 */
	void beforeWrite(Runnable action) {
		this.beforeWrite = action;
	}

	/**
	 * Returns the timeouts of every request so far.
	 * @return the timeouts, oldest first
	 */
	List<Duration> timeouts() {
		return List.copyOf(this.timeouts);
	}

	private void request(Duration timeout) {
		this.timeouts.add(timeout);
		Consumer<Duration> hang = this.hanging;
		if (hang != null) {
			hang.accept(timeout);
		}
	}

	/** Plays a write that hangs, or whose answer is lost; {@code true} if it did. */
	private boolean unanswered(Duration timeout) {
		request(timeout);
		this.beforeWrite.run();
		if (this.hanging != null) {
			this.lastWriteUnanswered = true;
			this.lastError = "update failed: InterruptedIOException: timed out after " + timeout.toMillis() + "ms";
			return true;
		}
		return false;
	}

	/**
	 * Replaces the stored Lease, as another replica or a person would.
	 * @param replacement the new record, {@code null} to delete the Lease
	 */
	void set(@Nullable LeaderElectionRecord replacement) {
		this.record = (replacement != null) ? copy(replacement) : null;
	}

	/**
	 * Returns the stored Lease.
	 * @return a copy of the record, {@code null} if there is none
	 */
	@Nullable LeaderElectionRecord record() {
		LeaderElectionRecord current = this.record;
		return (current != null) ? copy(current) : null;
	}

	/**
	 * Makes every following request fail, or succeed again.
	 * @param failing whether requests fail
	 */
	void failing(boolean failing) {
		this.failing = failing;
	}

	/**
	 * Returns how many times the Lease was read, one per attempt of the elector.
	 * @return the number of reads
	 */
	int gets() {
		return this.gets.get();
	}

	/**
	 * Returns the records created or updated by the elector.
	 * @return the writes, oldest first
	 */
	List<LeaderElectionRecord> writes() {
		return List.copyOf(this.writes);
	}

	private boolean write(LeaderElectionRecord desired) {
		this.record = copy(desired);
		this.writes.add(copy(desired));
		if (this.answersToLose.getAndUpdate((left) -> Math.max(0, left - 1)) > 0) {
			this.lastWriteUnanswered = true;
			this.lastError = "update failed: SocketException: Connection reset";
			return false;
		}
		this.lastError = null;
		return true;
	}

	/**
	 * Returns a record with a lease duration of 15 seconds.
	 * @param holder the holder, empty for none
	 * @param time the acquire and renew time
	 * @param transitions the number of leader transitions
	 * @return the record
	 */
	static LeaderElectionRecord record(String holder, Date time, int transitions) {
		return new LeaderElectionRecord(holder, 15, time, time, transitions);
	}

	private static LeaderElectionRecord copy(LeaderElectionRecord record) {
		return new LeaderElectionRecord(record.getHolderIdentity(), record.getLeaseDurationSeconds(),
				copy(record.getAcquireTime()), copy(record.getRenewTime()), record.getLeaderTransitions());
	}

	private static @Nullable Date copy(@Nullable Date date) {
		return (date != null) ? new Date(date.getTime()) : null;
	}

}
