package io.kubeboot.operator.leaderelection.internal;

import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LeaderElectionListener;
import io.kubeboot.operator.leaderelection.LostLeasePolicy;
import io.kubernetes.client.extended.leaderelection.LeaderElectionRecord;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The timing rules of the {@link LeaderElector} on a fake monotonic clock: the clock
 * alone decides when a Lease expires and when a leader gives up, while the elector polls
 * a Lease kept in memory every few real milliseconds.
 */
class LeaderElectorTests {

	private static final Duration LEASE_DURATION = Duration.ofSeconds(15);

	private static final Duration RENEW_DEADLINE = Duration.ofSeconds(10);

	/** Real time between attempts: tiny, so that the tests run fast. */
	private static final Duration RETRY_PERIOD = Duration.ofMillis(2);

	private static final Duration DEADLINE = Duration.ofSeconds(10);

	private static final Duration ONE_NANO = Duration.ofNanos(1);

	private static final String ME = "replica-a";

	private static final String OTHER = "replica-b";

	private final FakeClock clock = new FakeClock();

	private final FakeLeaseLock lock = new FakeLeaseLock();

	private final List<String> newLeaders = new CopyOnWriteArrayList<>();

	private final CountDownLatch stop = new CountDownLatch(1);

	private final ExecutorService executor = Executors.newSingleThreadExecutor();

	private LeaderElector elector = elector(config(LEASE_DURATION, RENEW_DEADLINE));

	@AfterEach
	void stopElector() throws InterruptedException {
		this.stop.countDown();
		this.executor.shutdownNow();
		assertThat(this.executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void renewalsFailingPastTheRenewDeadlineLoseTheLease() throws Exception {
		assertThat(this.elector.acquire(this.stop)).isTrue();
		this.lock.failing(true);
		Future<Boolean> renewing = this.executor.submit(() -> this.elector.renewUntilLost(this.stop));
		this.clock.advance(RENEW_DEADLINE.minus(ONE_NANO));
		assertUndecidedAfterMoreAttempts(renewing);
		assertThat(this.elector.isLeader()).isTrue();
		this.clock.advance(ONE_NANO);
		assertThat(renewing.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
		assertThat(this.elector.isLeader()).isFalse();
		assertThat(this.elector.lastError()).startsWith("get failed: 500");
	}

	@Test
	void theRenewDeadlineCountsFromTheLastSuccessfulRenewal() throws Exception {
		assertThat(this.elector.acquire(this.stop)).isTrue();
		Future<Boolean> renewing = this.executor.submit(() -> this.elector.renewUntilLost(this.stop));
		Duration renewedAfter = Duration.ofSeconds(6);
		this.clock.advance(renewedAfter);
		int writes = this.lock.writes().size();
		eventually().until(() -> this.lock.writes().size() > writes);
		this.lock.failing(true);
		assertUndecidedAfterMoreAttempts(renewing);
		assertThat(this.elector.sinceLastRenewal()).isZero();
		// past the deadline counted from the acquisition, not from the renewal
		this.clock.advance(RENEW_DEADLINE.minus(ONE_NANO));
		assertUndecidedAfterMoreAttempts(renewing);
		this.clock.advance(ONE_NANO);
		assertThat(renewing.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void aLeaderThatSeesAnotherHolderEndsItsTermAtOnce() throws Exception {
		assertThat(this.elector.acquire(this.stop)).isTrue();
		Future<Boolean> renewing = this.executor.submit(() -> this.elector.renewUntilLost(this.stop));
		assertUndecidedAfterMoreAttempts(renewing);
		this.lock.set(FakeLeaseLock.record(OTHER, new Date(), 1));
		assertThat(renewing.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
		assertThat(this.elector.isLeader()).isFalse();
		assertThat(this.elector.observedLeader()).isEqualTo(OTHER);
		assertThat(this.newLeaders).containsExactly(ME, OTHER);
		assertThat(this.lock.record().getHolderIdentity()).isEqualTo(OTHER);
	}

	@Test
	void aStoppedLeaderStopsRenewingWithoutLosingTheLease() throws Exception {
		assertThat(this.elector.acquire(this.stop)).isTrue();
		Future<Boolean> renewing = this.executor.submit(() -> this.elector.renewUntilLost(this.stop));
		assertUndecidedAfterMoreAttempts(renewing);
		this.stop.countDown();
		assertThat(renewing.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isFalse();
		assertThat(this.elector.isLeader()).isFalse();
		assertThat(this.lock.record().getHolderIdentity()).isEqualTo(ME);
	}

	@Test
	void aRenewalThatHangsIsCutOffAtTheRenewDeadline() throws Exception {
		// a request timeout of 4s, longer than what is left of the deadline below
		this.elector = elector(new LeaderElectionConfig("default", "operator-lease", ME, LEASE_DURATION, RENEW_DEADLINE,
				Duration.ofSeconds(4), true, LostLeasePolicy.RE_ELECT));
		assertThat(this.elector.acquire(this.stop)).isTrue();
		Duration left = Duration.ofMillis(100);
		this.clock.advance(RENEW_DEADLINE.minus(left));
		// every request hangs until its timeout, which passes on the fake clock
		this.lock.hanging(this.clock::advance);
		assertThat(this.executor.submit(() -> this.elector.renewUntilLost(this.stop))
			.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
		assertThat(this.lock.timeouts()).last().isEqualTo(left);
		assertThat(this.elector.sinceLastRenewal()).isEqualTo(RENEW_DEADLINE);
		assertThat(this.elector.isLeader()).isFalse();
		assertThat(this.elector.lastError()).isEqualTo("get failed: InterruptedIOException: timed out after 100ms");
	}

	@Test
	void noRenewalMayLandLaterThanALeaseDurationAfterTheLastSuccessfulWriteBegan() throws Exception {
		// the acquisition took 14s from its start to its answer: the others may count the
		// Lease expired 15s after it began, 1s after it returned, long before the renew
		// deadline 10s after it
		this.lock.beforeWrite(() -> this.clock.advance(Duration.ofSeconds(14)));
		assertThat(this.elector.acquire(this.stop)).isTrue();
		this.lock.beforeWrite(() -> {
		});
		// every renewal hangs for 250ms of the fake clock and fails
		this.lock.hanging((timeout) -> this.clock.advance(Duration.ofMillis(250)));
		assertThat(this.executor.submit(() -> this.elector.renewUntilLost(this.stop))
			.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
		assertThat(this.elector.sinceLastRenewal()).isEqualTo(Duration.ofSeconds(1));
		assertThat(this.elector.isLeader()).isFalse();
	}

	@Test
	void aLeaseDurationOfAFractionOfASecondIsRecordedRoundedUp() throws Exception {
		this.elector = elector(new LeaderElectionConfig("default", "operator-lease", ME, Duration.ofMillis(2500),
				Duration.ofSeconds(2), Duration.ofSeconds(1), true, LostLeasePolicy.RE_ELECT));
		assertThat(this.elector.acquire(this.stop)).isTrue();
		assertThat(this.lock.record().getLeaseDurationSeconds()).isEqualTo(3);
	}

	@Test
	void aStopWhileTheLeaseIsBeingAcquiredGivesItBack() throws Exception {
		this.lock.set(FakeLeaseLock.record("", new Date(), 3));
		this.lock.beforeWrite(this.stop::countDown);
		assertThat(this.elector.acquire(this.stop)).isFalse();
		assertThat(this.elector.isLeader()).isFalse();
		assertThat(this.lock.writes()).extracting(LeaderElectionRecord::getHolderIdentity).containsExactly(ME, "");
		assertThat(this.lock.record().getHolderIdentity()).isEmpty();
	}

	@Test
	void aStopWhileTheLeaseIsBeingCreatedGivesItBack() throws Exception {
		this.lock.beforeWrite(this.stop::countDown);
		assertThat(this.elector.acquire(this.stop)).isFalse();
		assertThat(this.lock.record().getHolderIdentity()).isEmpty();
	}

	@Test
	void anAcquisitionWhoseAnswerWasLostIsGivenBackOnStop() throws Exception {
		this.lock.set(FakeLeaseLock.record("", new Date(), 3));
		this.lock.loseAnswers(1);
		this.lock.beforeWrite(this.stop::countDown);
		assertThat(this.elector.acquire(this.stop)).isFalse();
		// the write landed although it looked failed: the Lease is read and released
		assertThat(this.lock.writes()).extracting(LeaderElectionRecord::getHolderIdentity).containsExactly(ME, "");
		assertThat(this.lock.record().getHolderIdentity()).isEmpty();
	}

	@Test
	void aCandidateTakesOverOnlyAfterSeeingTheLeaseUnchangedForTheLeaseDuration() throws Exception {
		// by its timestamps the Lease expired long ago; only this candidate's own
		// observation counts
		Date anHourAgo = new Date(System.currentTimeMillis() - Duration.ofHours(1).toMillis());
		this.lock.set(FakeLeaseLock.record(OTHER, anHourAgo, 3));
		Future<Boolean> campaign = this.executor.submit(() -> this.elector.acquire(this.stop));
		assertUndecidedAfterMoreAttempts(campaign);
		assertThat(this.elector.observedLeader()).isEqualTo(OTHER);
		this.clock.advance(LEASE_DURATION.minus(ONE_NANO));
		assertUndecidedAfterMoreAttempts(campaign);
		assertThat(this.lock.writes()).isEmpty();
		this.clock.advance(ONE_NANO);
		assertThat(campaign.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
		assertThat(this.elector.isLeader()).isTrue();
		LeaderElectionRecord taken = this.lock.record();
		assertThat(taken.getHolderIdentity()).isEqualTo(ME);
		assertThat(taken.getLeaderTransitions()).isEqualTo(4);
		assertThat(taken.getAcquireTime()).isAfter(anHourAgo);
	}

	@ParameterizedTest
	@ValueSource(strings = { "renewTime", "holder" })
	void aChangeOfTheLeaseRestartsTheMeasurementOfItsExpiry(String change) throws Exception {
		Date now = new Date();
		this.lock.set(FakeLeaseLock.record(OTHER, now, 3));
		Future<Boolean> campaign = this.executor.submit(() -> this.elector.acquire(this.stop));
		assertUndecidedAfterMoreAttempts(campaign);
		Duration changedAfter = Duration.ofSeconds(10);
		this.clock.advance(changedAfter);
		if (change.equals("renewTime")) {
			this.lock.set(FakeLeaseLock.record(OTHER, new Date(now.getTime() + changedAfter.toMillis()), 3));
		}
		else {
			this.lock.set(FakeLeaseLock.record("replica-c", now, 4));
		}
		assertUndecidedAfterMoreAttempts(campaign);
		// the first sighting's expiry passes: the change was seen since
		this.clock.advance(LEASE_DURATION.minus(changedAfter));
		assertUndecidedAfterMoreAttempts(campaign);
		this.clock.advance(changedAfter.minus(ONE_NANO));
		assertUndecidedAfterMoreAttempts(campaign);
		assertThat(this.lock.writes()).isEmpty();
		this.clock.advance(ONE_NANO);
		assertThat(campaign.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
		assertThat(this.lock.record().getHolderIdentity()).isEqualTo(ME);
	}

	@ParameterizedTest
	@ValueSource(longs = { -50 * 365 * 24, -1, 0, 1, 50 * 365 * 24 })
	void theWallClockTimestampsOfTheLeaseDoNotMoveItsExpiry(long hoursFromNow) throws Exception {
		Date stepped = new Date(System.currentTimeMillis() + Duration.ofHours(hoursFromNow).toMillis());
		this.lock.set(FakeLeaseLock.record(OTHER, stepped, 3));
		Future<Boolean> campaign = this.executor.submit(() -> this.elector.acquire(this.stop));
		assertUndecidedAfterMoreAttempts(campaign);
		this.clock.advance(LEASE_DURATION.minus(ONE_NANO));
		assertUndecidedAfterMoreAttempts(campaign);
		this.clock.advance(ONE_NANO);
		assertThat(campaign.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void aFrozenMonotonicClockKeepsAnotherReplicasLeaseHeldHoweverMuchRealTimePasses() throws Exception {
		// the shortest lease duration: more of it passes in real and wall-clock time
		Duration leaseDuration = Duration.ofSeconds(1);
		this.elector = elector(config(leaseDuration, Duration.ofMillis(100)));
		Date now = new Date();
		this.lock.set(new LeaderElectionRecord(OTHER, (int) leaseDuration.toSeconds(), now, now, 3));
		Future<Boolean> campaign = this.executor.submit(() -> this.elector.acquire(this.stop));
		await().during(leaseDuration.plusMillis(200)).atMost(DEADLINE).until(() -> !campaign.isDone());
		assertThat(this.lock.writes()).isEmpty();
		this.clock.advance(leaseDuration);
		assertThat(campaign.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void aFrozenMonotonicClockKeepsALeaderLeadingHoweverMuchRealTimePasses() throws Exception {
		Duration renewDeadline = Duration.ofMillis(100);
		this.elector = elector(config(Duration.ofSeconds(1), renewDeadline));
		assertThat(this.elector.acquire(this.stop)).isTrue();
		this.lock.failing(true);
		Future<Boolean> renewing = this.executor.submit(() -> this.elector.renewUntilLost(this.stop));
		await().during(renewDeadline.multipliedBy(3)).atMost(DEADLINE).until(() -> !renewing.isDone());
		assertThat(this.elector.isLeader()).isTrue();
		this.clock.advance(renewDeadline);
		assertThat(renewing.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void aLeaseDeletedUnderAnotherHolderIsRecreatedOnlyOnceItWouldHaveExpired() throws Exception {
		this.lock.set(FakeLeaseLock.record(OTHER, new Date(), 3));
		Future<Boolean> campaign = this.executor.submit(() -> this.elector.acquire(this.stop));
		assertUndecidedAfterMoreAttempts(campaign);
		this.clock.advance(Duration.ofSeconds(5));
		this.lock.set(null);
		assertUndecidedAfterMoreAttempts(campaign);
		this.clock.advance(LEASE_DURATION.minusSeconds(5).minus(ONE_NANO));
		assertUndecidedAfterMoreAttempts(campaign);
		assertThat(this.lock.record()).isNull();
		this.clock.advance(ONE_NANO);
		assertThat(campaign.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
		assertThat(this.lock.record().getHolderIdentity()).isEqualTo(ME);
	}

	@Test
	void timeSinceTheLastRenewalIsReadOnTheMonotonicClock() throws Exception {
		assertThat(this.elector.sinceLastRenewal()).isNull();
		assertThat(this.elector.acquire(this.stop)).isTrue();
		this.clock.advance(Duration.ofSeconds(3));
		assertThat(this.elector.sinceLastRenewal()).isEqualTo(Duration.ofSeconds(3));
	}

	@Test
	void releaseClearsTheHolderWhenThisReplicaHoldsTheLease() throws Exception {
		this.lock.set(FakeLeaseLock.record("", new Date(), 3));
		assertThat(this.elector.acquire(this.stop)).isTrue();
		assertThat(this.lock.record().getHolderIdentity()).isEqualTo(ME);
		this.elector.release();
		LeaderElectionRecord released = this.lock.record();
		assertThat(released.getHolderIdentity()).isEmpty();
		assertThat(released.getLeaderTransitions()).isEqualTo(4);
		assertThat(this.lock.writes()).hasSize(2);
	}

	@Test
	void releaseLeavesALeaseTakenOverByAnotherReplicaAlone() throws Exception {
		assertThat(this.elector.acquire(this.stop)).isTrue();
		Future<Boolean> renewing = this.executor.submit(() -> this.elector.renewUntilLost(this.stop));
		this.lock.set(FakeLeaseLock.record(OTHER, new Date(), 1));
		assertThat(renewing.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
		int writes = this.lock.writes().size();
		this.elector.release();
		assertThat(this.lock.record().getHolderIdentity()).isEqualTo(OTHER);
		assertThat(this.lock.writes()).hasSize(writes);
	}

	@Test
	void releaseLeavesTheLeaseAloneWhenThisReplicaNeverHeldIt() throws Exception {
		this.lock.set(FakeLeaseLock.record(OTHER, new Date(), 3));
		Future<Boolean> campaign = this.executor.submit(() -> this.elector.acquire(this.stop));
		assertUndecidedAfterMoreAttempts(campaign);
		this.stop.countDown();
		assertThat(campaign.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isFalse();
		this.elector.release();
		assertThat(this.lock.record().getHolderIdentity()).isEqualTo(OTHER);
		assertThat(this.lock.writes()).isEmpty();
	}

	/**
	 * Lets the elector make three more attempts at the current reading of the fake clock
	 * (each reads the Lease once) and checks it decided nothing.
	 */
	private void assertUndecidedAfterMoreAttempts(Future<Boolean> running) {
		int seen = this.lock.gets();
		eventually().until(() -> this.lock.gets() >= seen + 3 || running.isDone());
		assertThat(running).isNotDone();
	}

	@Test
	void renewSoonRenewsBeforeTheRetryPeriodEnds() throws Exception {
		// a retry period far longer than the test waits: only renewSoon can renew in time
		LeaderElectionConfig slow = new LeaderElectionConfig("default", "operator-lease", ME, Duration.ofSeconds(60),
				Duration.ofSeconds(50), Duration.ofSeconds(40), true, LostLeasePolicy.RE_ELECT);
		this.elector = elector(slow);
		assertThat(this.elector.acquire(this.stop)).isTrue();
		int writes = this.lock.writes().size();
		this.executor.submit(() -> this.elector.renewUntilLost(this.stop));
		this.elector.renewSoon();
		eventually().until(() -> this.lock.writes().size() > writes);
	}

	private LeaderElector elector(LeaderElectionConfig config) {
		LeaderElectionListener listener = new LeaderElectionListener() {

			@Override
			public void newLeader(String holder) {
				LeaderElectorTests.this.newLeaders.add(holder);
			}

		};
		return new LeaderElector(this.lock, config, listener, this.clock);
	}

	private static LeaderElectionConfig config(Duration leaseDuration, Duration renewDeadline) {
		return new LeaderElectionConfig("default", "operator-lease", ME, leaseDuration, renewDeadline, RETRY_PERIOD,
				true, LostLeasePolicy.RE_ELECT);
	}

	/**
	 * Waits for a condition, checking it every few milliseconds.
	 */
	private static ConditionFactory eventually() {
		return await().atMost(DEADLINE).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(2));
	}

	/**
	 * A monotonic clock that moves only when told to. It starts just before a
	 * {@code long} wraps around, as {@link System#nanoTime()} may, so every test also
	 * checks that the elector only compares differences of readings.
	 */
	private static final class FakeClock implements LongSupplier {

		private final AtomicLong now = new AtomicLong(Long.MAX_VALUE - Duration.ofSeconds(12).toNanos());

		@Override
		public long getAsLong() {
			return this.now.get();
		}

		void advance(Duration duration) {
			this.now.addAndGet(duration.toNanos());
		}

	}

}
