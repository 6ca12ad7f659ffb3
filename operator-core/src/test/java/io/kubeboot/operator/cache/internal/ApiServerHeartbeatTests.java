package io.kubeboot.operator.cache.internal;

import java.net.ConnectException;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What counts as an answer of the API server, and for how long it went unanswered, with a
 * fake clock and prober.
 */
class ApiServerHeartbeatTests {

	private final AtomicLong now = new AtomicLong(1_000_000_000L);

	private Object next = 200;

	private int probes;

	/** When the informers last heard from the API server. */
	private OptionalLong heard = OptionalLong.empty();

	private final ApiServerHeartbeat heartbeat = new ApiServerHeartbeat(() -> {
		this.probes++;
		if (this.next instanceof Integer status) {
			return status;
		}
		throw (ConnectException) this.next;
	}, "https://127.0.0.1:6443", this.now::get, () -> this.heard);

	@Test
	void refusedConnectionsCountFromTheLastAnsweredProbeUntilTheNextAnswer() {
		this.heartbeat.probe();
		assertThat(this.heartbeat.unansweredFor()).isNull();
		long answered = this.now.get();
		this.next = new ConnectException("Connection refused");
		advance(Duration.ofSeconds(1));
		this.heartbeat.probe();
		advance(Duration.ofSeconds(1));
		this.heartbeat.probe();
		assertThat(this.heartbeat.unansweredFor()).isEqualTo(Duration.ofNanos(this.now.get() - answered));
		assertThat(this.heartbeat.lastError()).isEqualTo("ConnectException: Connection refused");
		this.next = 200;
		this.heartbeat.probe();
		assertThat(this.heartbeat.unansweredFor()).isNull();
		assertThat(this.heartbeat.lastError()).isNull();
	}

	@Test
	void anyAnswerOfTheServerCountsButAProxysGatewayErrorsDoNot() {
		for (int status : new int[] { 200, 401, 403, 404, 429, 500 }) {
			this.next = status;
			this.heartbeat.probe();
			assertThat(this.heartbeat.unansweredFor()).as("after %s", status).isNull();
		}
		for (int status : new int[] { 502, 503, 504 }) {
			this.next = status;
			this.heartbeat.probe();
			assertThat(this.heartbeat.lastError()).as("after %s", status).isEqualTo("HTTP " + status);
			this.next = 200;
			this.heartbeat.probe();
		}
	}

	@Test
	void anInformerThatHeardFromTheServerWithinThePeriodAnswersInsteadOfAProbe() {
		this.next = new ConnectException("Connection refused");
		this.heartbeat.tick();
		assertThat(this.probes).as("nothing heard yet: probed").isEqualTo(1);
		assertThat(this.heartbeat.lastError()).isNotNull();

		this.heard = OptionalLong.of(this.now.get());
		advance(ApiServerHeartbeat.PERIOD.minusMillis(1));
		this.heartbeat.tick();
		assertThat(this.probes).as("an event within the period").isEqualTo(1);
		assertThat(this.heartbeat.unansweredFor()).isNull();

		long lastHeard = this.heard.getAsLong();
		advance(Duration.ofMillis(1));
		this.heartbeat.tick();
		assertThat(this.probes).as("silent for a period: probed").isEqualTo(2);
		advance(Duration.ofSeconds(3));
		this.heartbeat.tick();
		assertThat(this.heartbeat.unansweredFor()).as("since the informer last heard from the server")
			.isEqualTo(Duration.ofNanos(this.now.get() - lastHeard));
	}

	private void advance(Duration duration) {
		this.now.addAndGet(duration.toNanos());
	}

}
