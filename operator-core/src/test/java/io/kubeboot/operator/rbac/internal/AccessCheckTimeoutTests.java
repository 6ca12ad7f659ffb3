package io.kubeboot.operator.rbac.internal;

import java.time.Duration;
import java.util.List;

import io.kubeboot.operator.rbac.PolicyRule;
import io.kubeboot.operator.testing.HeldOpenStream;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link AccessCheck} against an API server that never finishes an answer: the
 * check gives up at its timeout, and its calls end then too instead of holding their
 * threads (and connections) until the client's read timeout.
 */
class AccessCheckTimeoutTests {

	@Test
	void reviewsUnansweredAtTheTimeoutAreCancelledThen() throws Exception {
		try (HeldOpenStream server = new HeldOpenStream()) {
			server.releaseReads();
			List<PolicyRule> rules = List.of(
					new PolicyRule("", "shop", "", "configmaps", List.of(), List.of("get", "list"), List.of("test")),
					new PolicyRule("", "depot", "", "secrets", List.of(), List.of("get"), List.of("test")));

			AccessCheck.Decisions decisions = AccessCheck.review(server.client(), rules, Duration.ofMillis(500));

			assertThat(decisions).as("no answer: nothing reported").isNull();
			// the client's read timeout is 10 s
			await().atMost(Duration.ofSeconds(3))
				.until(() -> server.reading() == 0 && Thread.getAllStackTraces()
					.keySet()
					.stream()
					.noneMatch((thread) -> thread.getName().startsWith("operator-rbac-check-")));
		}
	}

}
