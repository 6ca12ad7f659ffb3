package io.kubeboot.operator.client.internal;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.kubernetes.client.openapi.ApiException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The retries of 429 answers on a fake clock: each after its Retry-After, bounded in
 * number and by a budget, ended by an interrupt.
 */
class TooManyRequestsRetryTests {

	private final AtomicLong now = new AtomicLong(5_000_000_000L);

	/** The waits, in order; each advances the clock. */
	private final List<Duration> waits = new CopyOnWriteArrayList<>();

	private final List<Integer> retries = new CopyOnWriteArrayList<>();

	private final AtomicInteger attempts = new AtomicInteger();

	@AfterEach
	void clearInterrupt() {
		Thread.interrupted();
	}

	@Test
	void aThrottledRequestIsSentAgainAfterEachRetryAfterUntilItSucceeds() throws ApiException {
		Deque<Object> answers = new ArrayDeque<>(List.of(tooManyRequests("2"), tooManyRequests("1"), "stored"));
		String result = retry(10, null).call(() -> answer(answers), this::record);
		assertThat(result).isEqualTo("stored");
		assertThat(this.attempts).hasValue(3);
		assertThat(this.waits).containsExactly(Duration.ofSeconds(2), Duration.ofSeconds(1));
		assertThat(this.retries).containsExactly(1, 2);
	}

	@Test
	void anAnswerWithoutRetryAfterIsRetriedAfterOneSecond() throws ApiException {
		Deque<Object> answers = new ArrayDeque<>(List.of(tooManyRequests(null), "stored"));
		assertThat(retry(10, null).call(() -> answer(answers), this::record)).isEqualTo("stored");
		assertThat(this.waits).containsExactly(Duration.ofSeconds(1));
	}

	@Test
	void atMostTheGivenNumberOfRetriesThenTheLast429Escapes() {
		ApiException last = tooManyRequests("1");
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(() -> retry(TooManyRequestsRetry.MAX_RETRIES, null).call(() -> {
				this.attempts.incrementAndGet();
				throw (this.attempts.get() == 11) ? last : tooManyRequests("1");
			}, this::record))
			.isSameAs(last);
		assertThat(this.attempts).hasValue(11);
		assertThat(this.waits).hasSize(10);
	}

	@Test
	void noRetryWhoseWaitWouldEndAfterTheBudget() {
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(() -> retry(10, Duration.ofSeconds(5)).call(() -> answer(tooManyRequests("2")), this::record))
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(429));
		// waits end at 2s and 4s; one ending at 6s would pass the budget
		assertThat(this.waits).containsExactly(Duration.ofSeconds(2), Duration.ofSeconds(2));
		assertThat(this.attempts).hasValue(3);
	}

	@Test
	void aRetryAfterLongerThanTheBudgetIsNotWaitedAtAll() {
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(() -> retry(10, Duration.ofSeconds(5)).call(() -> answer(tooManyRequests("30")), this::record));
		assertThat(this.waits).isEmpty();
		assertThat(this.attempts).hasValue(1);
	}

	@Test
	void otherErrorsAreNotRetried() {
		ApiException unavailable = new ApiException("Service Unavailable", 503, Map.of("Retry-After", List.of("1")),
				null);
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(() -> retry(10, null).call(() -> answer(unavailable), this::record))
			.isSameAs(unavailable);
		assertThat(this.attempts).hasValue(1);
		assertThat(this.waits).isEmpty();
	}

	@Test
	void anInterruptedWaitEndsTheRetriesWithTheInterruptStatusKept() {
		ApiException throttled = tooManyRequests("1");
		TooManyRequestsRetry retry = new TooManyRequestsRetry(Integer.MAX_VALUE, null, (duration) -> {
			throw new InterruptedException();
		}, this.now::get);
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(() -> retry.call(() -> answer(throttled), this::record))
			.isSameAs(throttled);
		assertThat(this.attempts).hasValue(1);
		assertThat(Thread.currentThread().isInterrupted()).isTrue();
	}

	private TooManyRequestsRetry retry(int maxRetries, Duration budget) {
		return new TooManyRequestsRetry(maxRetries, budget, (duration) -> {
			this.waits.add(duration);
			this.now.addAndGet(duration.toNanos());
		}, this.now::get);
	}

	private void record(ApiException answer, Duration wait, int retry) {
		assertThat(answer.getCode()).isEqualTo(429);
		this.retries.add(retry);
	}

	private String answer(Deque<Object> answers) throws ApiException {
		return answer(answers.removeFirst());
	}

	private String answer(Object answer) throws ApiException {
		this.attempts.incrementAndGet();
		if (answer instanceof ApiException failure) {
			throw failure;
		}
		return (String) answer;
	}

	private static ApiException tooManyRequests(String retryAfter) {
		Map<String, List<String>> headers = (retryAfter != null) ? Map.of("Retry-After", List.of(retryAfter))
				: Map.of();
		return new ApiException("Too Many Requests", 429, headers, "{\"kind\":\"Status\",\"code\":429}");
	}

}
