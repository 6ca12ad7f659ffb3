package io.kubeboot.operator.leaderelection.internal;

import java.time.Duration;

import io.kubeboot.operator.testing.HeldOpenStream;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link LeaseWatch}: stopped while its thread reads the watch.
 */
class LeaseWatchTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	@Test
	void stoppingEndsTheReadAndLeavesTheBodyToTheWatchThread() throws Exception {
		try (HeldOpenStream stream = new HeldOpenStream()) {
			LeaseWatch watch = new LeaseWatch(stream.client(), "default", "leader", Duration.ofMinutes(1));
			watch.start();
			await().atMost(WAIT).until(() -> stream.reading() == 1);

			watch.stop();
			stream.releaseReads();

			await().atMost(WAIT).until(() -> stream.reading() == 0 && stream.closed() == 1);
			assertThat(stream.closedUnderARead()).isZero();
		}
	}

}
