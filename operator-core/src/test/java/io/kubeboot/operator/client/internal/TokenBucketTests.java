package io.kubeboot.operator.client.internal;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The client-side rate limit's bucket on a fake clock.
 */
class TokenBucketTests {

	private final AtomicLong now = new AtomicLong(1_000_000_000L);

	@Test
	void aFullBucketLetsABurstThroughAtOnceThenSpacesRequestsAtTheRate() {
		TokenBucket bucket = new TokenBucket(2, 3, this.now::get);
		assertThat(reserve(bucket, 3)).containsOnly(0L);
		// later requests reserve the tokens to come, in order
		assertThat(millis(bucket.reserve())).isEqualTo(500);
		assertThat(millis(bucket.reserve())).isEqualTo(1000);
		assertThat(millis(bucket.reserve())).isEqualTo(1500);
	}

	@Test
	void theBucketRefillsAtTheRateUpToItsSize() {
		TokenBucket bucket = new TokenBucket(5, 2, this.now::get);
		reserve(bucket, 2);
		advance(Duration.ofMillis(200));
		assertThat(bucket.reserve()).isZero();
		assertThat(millis(bucket.reserve())).isEqualTo(200);
		// a long quiet time refills no more than the burst
		advance(Duration.ofMinutes(1));
		assertThat(reserve(bucket, 2)).containsOnly(0L);
		assertThat(millis(bucket.reserve())).isEqualTo(200);
	}

	@Test
	void aReservationGivenBackIsTheNextRequestsToTake() {
		TokenBucket bucket = new TokenBucket(1, 1, this.now::get);
		assertThat(bucket.reserve()).isZero();
		assertThat(millis(bucket.reserve())).isEqualTo(1000);
		bucket.giveBack(); // the waiting request was abandoned
		assertThat(millis(bucket.reserve())).isEqualTo(1000);
	}

	@Test
	void aFractionalRateSpacesRequestsByMoreThanASecond() {
		TokenBucket bucket = new TokenBucket(0.5, 1, this.now::get);
		assertThat(bucket.reserve()).isZero();
		assertThat(millis(bucket.reserve())).isEqualTo(2000);
	}

	@Test
	void theRateMustBePositiveAndTheBurstAtLeastOne() {
		assertThatIllegalArgumentException().isThrownBy(() -> new TokenBucket(0, 1, this.now::get));
		assertThatIllegalArgumentException().isThrownBy(() -> new TokenBucket(-1, 1, this.now::get));
		assertThatIllegalArgumentException().isThrownBy(() -> new TokenBucket(Double.NaN, 1, this.now::get));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new TokenBucket(Double.POSITIVE_INFINITY, 1, this.now::get));
		assertThatIllegalArgumentException().isThrownBy(() -> new TokenBucket(1, 0, this.now::get));
	}

	private static long[] reserve(TokenBucket bucket, int count) {
		long[] waits = new long[count];
		for (int i = 0; i < count; i++) {
			waits[i] = bucket.reserve();
		}
		return waits;
	}

	private void advance(Duration duration) {
		this.now.addAndGet(duration.toNanos());
	}

	private static long millis(long nanos) {
		return Duration.ofNanos(nanos).toMillis();
	}

}
