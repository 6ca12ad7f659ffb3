package io.kubeboot.operator.sharding.internal;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MemberTermTests {

	private static final long SECOND = Duration.ofSeconds(1).toNanos();

	private static final Duration TIMEOUT = Duration.ofSeconds(1);

	private final AtomicInteger drawn = new AtomicInteger();

	private final MemberTerm term = new MemberTerm(Duration.ofSeconds(4), () -> "t" + this.drawn.incrementAndGet());

	@Test
	void theFirstWriteDrawsATermHeldOnceAnswered() {
		assertThat(this.term.forWrite(0, TIMEOUT)).isEqualTo("t1");
		assertThat(this.term.held()).isNull();
		assertThat(this.term.written("t1")).isTrue();
		assertThat(this.term.held()).isEqualTo("t1");
	}

	@Test
	void writesThatLandWithinALeaseDurationOfTheLastAnsweredOneKeepTheTerm() {
		written(0);
		// sent 2.9s after, cut off 3.9s after: before anyone may count the Lease expired
		assertThat(this.term.forWrite(29 * SECOND / 10, TIMEOUT)).isEqualTo("t1");
		assertThat(this.term.written("t1")).as("no new term").isFalse();
		// each answered write moves the window
		assertThat(this.term.forWrite(29 * SECOND / 10 + 3 * SECOND, TIMEOUT)).isEqualTo("t1");
	}

	@Test
	void aWriteThatMayLandAfterTheLeaseMayHaveExpiredDrawsANewTerm() {
		written(0);
		// cut off 4.1s after the last answered write began
		assertThat(this.term.forWrite(31 * SECOND / 10, TIMEOUT)).isEqualTo("t2");
		// unanswered (it may have landed, unseen): the next one draws again
		assertThat(this.term.forWrite(5 * SECOND, TIMEOUT)).isEqualTo("t3");
		assertThat(this.term.held()).isEqualTo("t1");
		assertThat(this.term.written("t3")).isTrue();
		assertThat(this.term.held()).isEqualTo("t3");
		assertThat(this.term.forWrite(6 * SECOND, TIMEOUT)).as("counted from the answered one").isEqualTo("t3");
	}

	@Test
	void anUnansweredWriteWithinTheWindowKeepsTheTerm() {
		written(0);
		assertThat(this.term.forWrite(SECOND, TIMEOUT)).isEqualTo("t1");
		// no answer; a second try still lands in time
		assertThat(this.term.forWrite(2 * SECOND, TIMEOUT)).isEqualTo("t1");
	}

	private void written(long sentNanos) {
		String first = this.term.forWrite(sentNanos, TIMEOUT);
		this.term.written(first);
	}

}
