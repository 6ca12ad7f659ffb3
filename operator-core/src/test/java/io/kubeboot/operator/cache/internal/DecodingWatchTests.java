package io.kubeboot.operator.cache.internal;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubeboot.operator.testing.HeldOpenStream;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import okhttp3.Request;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link DecodingWatch}: closed by another thread than the one reading it, as
 * the reflector does when its informer stops.
 */
class DecodingWatchTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	@Test
	void aWatchClosedWhileItsThreadReadsEndsTheReadAndLeavesTheBodyToThatThread() throws Exception {
		try (HeldOpenStream stream = new HeldOpenStream()) {
			DecodingWatch<V1ConfigMap> watch = openWatch(stream);
			List<Throwable> failures = new CopyOnWriteArrayList<>();
			Thread reader = new Thread(() -> {
				try {
					while (watch.hasNext()) {
						watch.next();
					}
				}
				catch (RuntimeException ex) {
					failures.add(ex);
				}
			}, "watch-reader");
			reader.start();
			await().atMost(WAIT).until(() -> stream.reading() == 1);

			watch.close();
			stream.releaseReads();

			reader.join(WAIT.toMillis());
			assertThat(reader.isAlive()).as("the read ended").isFalse();
			assertThat(failures).as("a closed watch just ends").isEmpty();
			assertThat(stream.closed()).isEqualTo(1);
			assertThat(stream.closedUnderARead()).isZero();
			assertThat(watch.hasNext()).isFalse();
		}
	}

	@Test
	void aWatchClosedBetweenReadsClosesItsBodyAtOnce() throws Exception {
		try (HeldOpenStream stream = new HeldOpenStream()) {
			DecodingWatch<V1ConfigMap> watch = openWatch(stream);

			watch.close();

			assertThat(stream.closed()).isEqualTo(1);
			assertThat(watch.hasNext()).isFalse();
		}
	}

	private static DecodingWatch<V1ConfigMap> openWatch(HeldOpenStream stream) throws Exception {
		ApiClient client = stream.client();
		ObjectDecoder<V1ConfigMap> decoder = new ObjectDecoder<>(V1ConfigMap.class, "ConfigMap",
				client.getJSON().getGson(), (namespace, name) -> Optional.empty(), () -> {
				});
		return DecodingWatch.open(
				client.getHttpClient()
					.newCall(new Request.Builder().url(stream.url() + "/api/v1/configmaps?watch=true").build()),
				decoder);
	}

}
