package io.kubeboot.operator.leaderelection.internal;

import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import io.kubeboot.operator.client.ApiClients;
import io.kubeboot.operator.client.internal.DelegatingAuthApiClient;
import io.kubeboot.operator.client.internal.StatusMessages;
import io.kubeboot.operator.client.internal.WriteFence;
import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LeaderElectionListener;
import io.kubeboot.operator.leaderelection.LeaderElectionStatus;
import io.kubernetes.client.extended.leaderelection.LeaderElectionRecord;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import okhttp3.ConnectionPool;
import okhttp3.Protocol;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Campaigns for and holds a Lease, following client-go's election rules with the defects
 * of client-java's {@code LeaderElector} removed: every expiry decision uses the
 * monotonic clock ({@link System#nanoTime()}), every request has its own timeout
 * ({@link LeaderElectionConfig#requestTimeout()}, and no more than is left before the
 * renew deadline) on connections of its own, a lost Lease can be campaigned for again,
 * and the Lease can be released.
 * <ul>
 * <li>{@link #acquire} tries every retry period (with up to 20% jitter) until this
 * replica holds the Lease. A Lease held by another replica is taken over only after it
 * has been seen unchanged for its lease duration, measured from this replica's own first
 * sighting, so clock skew between machines does not matter. A stop during the acquisition
 * gives the Lease back.</li>
 * <li>{@link #renewUntilLost} renews every retry period and reports the Lease lost as
 * soon as another holder is seen, or once no renewal has succeeded for the renew
 * deadline, which no hung request can postpone.</li>
 * <li>{@link #release} clears the holder so a standby can take over at its next try.</li>
 * </ul>
 * One thread drives an elector at a time; the query methods are thread-safe.
 */
public final class LeaderElector implements LeaderElectionStatus {

	private static final Logger logger = LoggerFactory.getLogger(LeaderElector.class);

	private static final double JITTER = 0.2;

	/** How often a renewal wait checks for {@link #renewSoon}. */
	private static final long RENEW_NOW_CHECK_NANOS = Duration.ofMillis(20).toNanos();

	/** How long one watch of the Lease lasts while campaigning. */
	private static final Duration LEASE_WATCH_TIMEOUT = Duration.ofMinutes(1);

	private final LeaderElectionConfig config;

	private final LeaseLock lock;

	private final LeaderElectionListener listener;

	private final LongSupplier nanoTime;

	private final LeaseWatch leaseWatch;

	private @Nullable LeaderElectionRecord observedRecord;

	private long observedNanos;

	private volatile @Nullable String observedHolder;

	private volatile boolean leading;

	private volatile long lastRenewNanos;

	/**
	 * When the last successful acquisition or renewal began: its write landed later, so
	 * the others count the Lease expired no earlier than a lease duration after this.
	 */
	private volatile long lastWriteBeganNanos;

	private volatile boolean everLed;

	private volatile @Nullable String lastError;

	private final WriteFence fence;

	private final Wording wording;

	/** Released to renew at once rather than at the next retry period. */
	private final Semaphore renewNow = new Semaphore(0);

	/**
	 * Creates an elector that talks to the API server of the given client.
	 * @param client the application's client; Lease requests use a derived client with
	 * connections of their own (see {@link #leaseClient})
	 * @param config the election settings
	 * @param listener told about transitions
	 */
	public LeaderElector(ApiClient client, LeaderElectionConfig config, LeaderElectionListener listener) {
		this(client, config, listener, LeaseMetadata.none(), true, Wording.LEADER);
	}

	/**
	 * Creates an elector whose Lease carries labels and annotations of its own, such as a
	 * shard Lease.
	 * @param client the application's client; Lease requests use a derived client with
	 * connections of their own (see {@link #leaseClient})
	 * @param config the election settings
	 * @param listener told about transitions
	 * @param metadata the labels and annotations every write of the Lease sets
	 * @param watchLease whether to watch the Lease while campaigning, to take over a
	 * released Lease at once (pointless for a Lease no other replica holds)
	 * @param wording how the log messages name the Lease and its loss
	 */
	public LeaderElector(ApiClient client, LeaderElectionConfig config, LeaderElectionListener listener,
			LeaseMetadata metadata, boolean watchLease, Wording wording) {
		this(new LeaseLock(leaseClient(client, config), config.namespace(), config.name(), config.identity(), metadata),
				config, listener, System::nanoTime,
				watchLease ? new LeaseWatch(ApiClients.forWatches(client, LEASE_WATCH_TIMEOUT.plusSeconds(30)),
						config.namespace(), config.name(), LEASE_WATCH_TIMEOUT) : LeaseWatch.none(),
				wording);
	}

	/**
	 * Returns the client of the Lease requests: HTTP/1.1 and a connection pool of its
	 * own. A request that times out then closes its connection, so the next attempt opens
	 * a new one instead of queueing behind a connection that went silent (a half-open
	 * connection, or an HTTP/2 connection shared with the application's calls), and the
	 * application's calls cannot hold up a renewal. Each request sets its own timeout.
	 * @param client the application's client
	 * @param config the timings, for the default timeouts
	 * @return the client of Lease requests
	 */
	public static ApiClient leaseClient(ApiClient client, LeaderElectionConfig config) {
		return new DelegatingAuthApiClient(client,
				(builder) -> builder.readTimeout(config.requestTimeout())
					.callTimeout(config.requestTimeout())
					.protocols(List.of(Protocol.HTTP_1_1))
					.connectionPool(new ConnectionPool()));
	}

	LeaderElector(LeaseLock lock, LeaderElectionConfig config, LeaderElectionListener listener, LongSupplier nanoTime) {
		this(lock, config, listener, nanoTime, LeaseWatch.none(), Wording.LEADER);
	}

	LeaderElector(LeaseLock lock, LeaderElectionConfig config, LeaderElectionListener listener, LongSupplier nanoTime,
			LeaseWatch leaseWatch, Wording wording) {
		this.wording = wording;
		this.lock = lock;
		this.config = config;
		this.listener = listener;
		this.nanoTime = nanoTime;
		this.leaseWatch = leaseWatch;
		this.fence = new WriteFence(config.renewDeadline(), nanoTime, wording.fence());
	}

	/**
	 * Returns the fence of this replica's leader-only writes: open a renew deadline after
	 * each successful acquisition or renewal began, closed once the Lease was released or
	 * taken by another replica.
	 * @return the fence
	 */
	public WriteFence writeFence() {
		return this.fence;
	}

	/**
	 * Asks the holder to renew the Lease at once instead of at its next retry period, so
	 * that annotations that changed reach the Lease soon. Does nothing while this replica
	 * does not hold the Lease (the next acquisition attempt writes them anyway).
	 */
	public void renewSoon() {
		this.renewNow.release();
	}

	/**
	 * Returns the settings.
	 * @return the configuration
	 */
	@Override
	public LeaderElectionConfig config() {
		return this.config;
	}

	/**
	 * Whether this replica currently holds the Lease, as far as it knows.
	 * @return {@code true} between a successful acquisition and the end of
	 * {@link #renewUntilLost}
	 */
	@Override
	public boolean isLeader() {
		return this.leading;
	}

	/**
	 * Returns the holder of the Lease this replica saw last.
	 * @return the holder's identity, or {@code null} if none was seen
	 */
	@Override
	public @Nullable String observedLeader() {
		return this.observedHolder;
	}

	/**
	 * Returns how long ago this replica last acquired or renewed the Lease, also after it
	 * stopped leading.
	 * @return the time since the last renewal, or {@code null} if it never held the Lease
	 */
	@Override
	public @Nullable Duration sinceLastRenewal() {
		return this.everLed ? Duration.ofNanos(this.nanoTime.getAsLong() - this.lastRenewNanos) : null;
	}

	/**
	 * Returns the last error talking to the API server about the Lease.
	 * @return the error, or {@code null} if the last request succeeded
	 */
	@Override
	public @Nullable String lastError() {
		return this.lastError;
	}

	/**
	 * Blocks until this replica holds the Lease or the stop signal fires. It tries every
	 * retry period (plus up to 20% jitter) and, while it watches the Lease, at once when
	 * the Lease is released or deleted. A stop that comes while the Lease is being
	 * acquired wins: the Lease is given back (and {@code false} returned), also when the
	 * request that would have taken it went unanswered, so a candidate stopped before it
	 * led does not keep the Lease from the others.
	 * @param stop ends the campaign once counted down
	 * @return {@code true} if this replica now leads, {@code false} if stopped first
	 * @throws InterruptedException if interrupted while waiting
	 */
	public boolean acquire(CountDownLatch stop) throws InterruptedException {
		logger.info("Attempting to acquire " + this.wording.lease() + ": lease={} identity={}", this.lock.describe(),
				this.config.identity());
		this.leaseWatch.start();
		try {
			while (stop.getCount() > 0) {
				long attemptStart = this.nanoTime.getAsLong();
				if (tryAcquireOrRenew(this.config::requestTimeout) == Attempt.HELD) {
					if (stop.getCount() == 0) {
						giveBack();
						return false;
					}
					this.fence.renewed(attemptStart);
					this.lastWriteBeganNanos = attemptStart;
					this.lastRenewNanos = this.nanoTime.getAsLong();
					this.everLed = true;
					this.leading = true;
					logger.info("Successfully acquired " + this.wording.acquired() + ": lease={} identity={}",
							this.lock.describe(), this.config.identity());
					return true;
				}
				long jittered = (long) (this.config.retryPeriod().toNanos()
						* (1 + ThreadLocalRandom.current().nextDouble() * JITTER));
				// a released Lease wakes the candidate at once
				if (this.leaseWatch.awaitChange(stop, Duration.ofNanos(jittered))) {
					break;
				}
			}
			if (this.lock.lastWriteUnanswered()) {
				giveBack();
			}
			return false;
		}
		finally {
			this.leaseWatch.stop();
		}
	}

	/**
	 * * Renews the Lease every retry period until it is lost or the stop signal fires.
	 * Call only after {@link #acquire} returned {@code true}. Every renewal request is
	 * cut off at the renew deadline at the latest, so a request that hangs cannot keep
	 * this replica leading past it, and a lease duration after the last successful write
	 * began, when the others may count the Lease expired; past either the Lease is lost.
	 * @param stop ends the renewing once counted down (the Lease is kept; see
	 * {@link #release})
	 * @return {@code true} if the Lease was lost, {@code false} if stopped
	 * @throws InterruptedException if interrupted while waiting
	 */
	public boolean renewUntilLost(CountDownLatch stop) throws InterruptedException {
		long deadlineNanos = this.config.renewDeadline().toNanos();
		try {
			while (true) {
				// a renewal must land by the renew deadline, and before the others may
				// count the Lease expired: a lease duration after the last successful
				// write began (one that landed later would renew a Lease whose work was
				// taken over meanwhile). Past either, the Lease is lost
				long renewBy = this.lastRenewNanos + deadlineNanos;
				long landBy = this.lastWriteBeganNanos + recordedLeaseDuration().toNanos();
				long cutOff = (landBy - renewBy < 0) ? landBy : renewBy;
				long untilCutOff = cutOff - this.nanoTime.getAsLong();
				long wait = Math.min(this.config.retryPeriod().toNanos(), Math.max(0, untilCutOff));
				if (awaitStopOrRenewNow(stop, wait)) {
					return false;
				}
				if (this.nanoTime.getAsLong() - cutOff >= 0) {
					if (cutOff == landBy && landBy != renewBy) {
						logger.error(
								"Failed to renew lease before the others may count it expired, " + this.wording.lost()
										+ ": lease={} identity={} leaseDuration={} lastError=\"{}\"",
								this.lock.describe(), this.config.identity(), recordedLeaseDuration(), this.lastError);
						return true;
					}
					logger.error(
							"Failed to renew lease within the renew deadline, " + this.wording.lost() + ": lease={} "
									+ "identity={} renewDeadline={} lastError=\"{}\"",
							this.lock.describe(), this.config.identity(), this.config.renewDeadline(), this.lastError);
					return true;
				}
				long attemptStart = this.nanoTime.getAsLong();
				Attempt attempt = tryAcquireOrRenew(() -> timeoutUntil(cutOff));
				if (attempt == Attempt.HELD) {
					this.fence.renewed(attemptStart);
					this.lastWriteBeganNanos = attemptStart;
					this.lastRenewNanos = this.nanoTime.getAsLong();
				}
				else if (attempt == Attempt.HELD_BY_OTHER) {
					this.fence.close();
					logger.error(
							"Lease is held by another replica, " + this.wording.lost()
									+ ": lease={} identity={} holder={}",
							this.lock.describe(), this.config.identity(), this.observedHolder);
					return true;
				}
			}
		}
		finally {
			this.leading = false;
		}
	}

	/**
	 * Waits for the stop signal, a {@link #renewSoon} or the timeout.
	 * @return {@code true} if the stop signal fired
	 */
	private boolean awaitStopOrRenewNow(CountDownLatch stop, long timeoutNanos) throws InterruptedException {
		long deadline = System.nanoTime() + timeoutNanos;
		while (true) {
			long remaining = deadline - System.nanoTime();
			if (stop.await(Math.min(Math.max(0, remaining), RENEW_NOW_CHECK_NANOS), TimeUnit.NANOSECONDS)) {
				return true;
			}
			if (this.renewNow.tryAcquire()) {
				this.renewNow.drainPermits();
				return false;
			}
			if (remaining <= 0) {
				return false;
			}
		}
	}

	/**
	 * Clears the Lease's holder if this replica holds it, so that a standby can take over
	 * at its next try instead of waiting for the lease to expire. Call only once every
	 * leader-only runnable has stopped. Failures are logged, not thrown: the Lease then
	 * simply expires.
	 */
	public void release() {
		LeaderElectionRecord observed = this.observedRecord;
		if (observed == null || !this.config.identity().equals(observed.getHolderIdentity())) {
			return;
		}
		Date now = new Date();
		LeaderElectionRecord released = new LeaderElectionRecord("", 1, now, now, observed.getLeaderTransitions());
		// closed first: a standby may take over the moment the update lands
		this.fence.close();
		if (this.lock.update(released, this.config.requestTimeout())) {
			setObserved(released);
			logger.info("Released " + this.wording.lease() + ": lease={} identity={}", this.lock.describe(),
					this.config.identity());
		}
		else {
			logger.warn("Could not release " + this.wording.lease() + ", it will expire instead: lease={} error=\"{}\"",
					this.lock.describe(), this.lock.lastError());
		}
	}

	/**
	 * Releases a Lease this replica took, or may have taken, while it was being stopped,
	 * before any leader-only work ran. After an unanswered write the Lease is read first
	 * to learn whether the write landed.
	 */
	private void giveBack() {
		logger.info("Stopped while acquiring the " + this.wording.lease() + ", giving it back: lease={} identity={}",
				this.lock.describe(), this.config.identity());
		if (this.lock.lastWriteUnanswered()) {
			try {
				setObserved(this.lock.get(this.config.requestTimeout()));
			}
			catch (ApiException ex) {
				logger.warn(
						"Could not check the " + this.wording.lease()
								+ " after an unanswered request, it will expire instead: lease={} error=\"{}\"",
						this.lock.describe(), StatusMessages.describe(ex));
				return;
			}
		}
		release();
	}

	/**
	 * Makes one attempt to acquire or renew the Lease.
	 * @param timeout gives the timeout of each request when it is sent
	 */
	private Attempt tryAcquireOrRenew(Supplier<Duration> timeout) {
		Date now = new Date();
		LeaderElectionRecord desired = new LeaderElectionRecord(this.config.identity(),
				(int) recordedLeaseDuration().toSeconds(), now, now, 0);
		LeaderElectionRecord current;
		try {
			current = this.lock.get(timeout.get());
		}
		catch (ApiException ex) {
			if (ex.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
				return failure("get failed: " + StatusMessages.describe(ex));
			}
			if (heldByOtherUntilExpiry(this.observedRecord)) {
				// deleted under a leader that may still be working: it re-creates the
				// Lease at its next renewal; others wait until it would have expired
				this.lastError = null;
				return Attempt.HELD_BY_OTHER;
			}
			if (!this.lock.create(desired, timeout.get())) {
				return failure(this.lock.lastError());
			}
			setObserved(desired);
			this.lastError = null;
			return Attempt.HELD;
		}
		if (!sameRecord(current, this.observedRecord)) {
			setObserved(current);
		}
		String holder = current.getHolderIdentity();
		if (heldByOtherUntilExpiry(current)) {
			this.lastError = null;
			return Attempt.HELD_BY_OTHER;
		}
		if (holder.equals(this.config.identity())) {
			desired.setAcquireTime(current.getAcquireTime());
			desired.setLeaderTransitions(current.getLeaderTransitions());
		}
		else {
			desired.setLeaderTransitions(current.getLeaderTransitions() + 1);
		}
		if (!this.lock.update(desired, timeout.get())) {
			return failure(this.lock.lastError());
		}
		setObserved(desired);
		this.lastError = null;
		return Attempt.HELD;
	}

	/**
	 * Returns the lease duration as the Lease records it, in whole seconds rounded up:
	 * the others wait no less than the configured duration before they take over.
	 * @return the recorded duration
	 */
	Duration recordedLeaseDuration() {
		return recordedLeaseDuration(this.config.leaseDuration());
	}

	/**
	 * Returns a lease duration as a Lease records it, in whole seconds rounded up.
	 * @param duration the configured duration
	 * @return the recorded duration
	 */
	public static Duration recordedLeaseDuration(Duration duration) {
		long seconds = duration.toSeconds();
		return Duration.ofSeconds((duration.toNanos() > Duration.ofSeconds(seconds).toNanos()) ? seconds + 1 : seconds);
	}

	/**
	 * Returns the request timeout, or the time left until a deadline on the monotonic
	 * clock if that is shorter.
	 */
	private Duration timeoutUntil(long deadlineNanos) {
		long left = deadlineNanos - this.nanoTime.getAsLong();
		Duration timeout = this.config.requestTimeout();
		return (left < timeout.toNanos()) ? Duration.ofNanos(Math.max(1, left)) : timeout;
	}

	/**
	 * Whether the record names another holder whose lease has not expired: less than its
	 * lease duration has passed since this replica last saw the record change.
	 */
	private boolean heldByOtherUntilExpiry(@Nullable LeaderElectionRecord record) {
		if (record == null) {
			return false;
		}
		String holder = record.getHolderIdentity();
		if (holder == null || holder.isEmpty() || holder.equals(this.config.identity())) {
			return false;
		}
		long duration = Duration.ofSeconds((record.getLeaseDurationSeconds() > 0) ? record.getLeaseDurationSeconds()
				: this.config.leaseDuration().toSeconds())
			.toNanos();
		return this.observedNanos + duration - this.nanoTime.getAsLong() > 0;
	}

	private Attempt failure(@Nullable String error) {
		this.lastError = error;
		if (error != null) {
			logger.warn(this.wording.requestFailed() + ": lease={} identity={} error=\"{}\"", this.lock.describe(),
					this.config.identity(), error);
		}
		return Attempt.FAILED;
	}

	private void setObserved(LeaderElectionRecord record) {
		this.observedRecord = record;
		this.observedNanos = this.nanoTime.getAsLong();
		String holder = record.getHolderIdentity();
		if (!holder.isEmpty() && !holder.equals(this.observedHolder)) {
			this.observedHolder = holder;
			if (this.wording.observeHolders()) {
				logger.info("New leader observed: lease={} holder={}", this.lock.describe(), holder);
			}
			this.listener.newLeader(holder);
		}
	}

	private static boolean sameRecord(LeaderElectionRecord a, @Nullable LeaderElectionRecord b) {
		return b != null && Objects.equals(a.getHolderIdentity(), b.getHolderIdentity())
				&& a.getLeaseDurationSeconds() == b.getLeaseDurationSeconds()
				&& a.getLeaderTransitions() == b.getLeaderTransitions()
				&& Objects.equals(millis(a.getRenewTime()), millis(b.getRenewTime()))
				&& Objects.equals(millis(a.getAcquireTime()), millis(b.getAcquireTime()));
	}

	private static @Nullable Long millis(@Nullable Date date) {
		return (date != null) ? date.getTime() : null;
	}

	private enum Attempt {

		HELD, HELD_BY_OTHER, FAILED

	}

	/**
	 * How the log messages name a Lease and its loss.
	 *
	 * @param lease the Lease in messages such as {@code Released leader lease}
	 * @param acquired the Lease in {@code Successfully acquired ...}
	 * @param lost what losing it means, as in {@code ..., leadership lost}
	 * @param requestFailed the message of a failed request about it
	 * @param observeHolders whether a new holder is logged ({@code New leader observed})
	 * @param fence what the Lease's write fence guards, for its refusals
	 */
	public record Wording(String lease, String acquired, String lost, String requestFailed, boolean observeHolders,
			WriteFence.Subject fence) {

		/** Leader election's messages. */
		public static final Wording LEADER = new Wording("leader lease", "lease", "leadership lost",
				"Leader election request failed", true, WriteFence.Subject.LEADER);

		/**
		 * A shard Lease's: only its own replica ever holds it.
		 * @param ring the ring's name
		 * @return the wording
		 */
		public static Wording shard(String ring) {
			return new Wording("shard lease", "shard lease", "shard membership lost", "Shard lease request failed",
					false, WriteFence.Subject.shard(ring));
		}

	}

}
