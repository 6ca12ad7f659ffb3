package io.kubeboot.operator.events;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.awaitility.Awaitility.await;

/**
 * {@link KubernetesEventRecorder} against an in-memory sink, and against API servers that
 * refuse or never answer.
 */
class KubernetesEventRecorderTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	/**
	 * A bound for calls that must return at once, lenient enough for a loaded machine.
	 */
	private static final Duration PROMPTLY = Duration.ofSeconds(5);

	private final FakeEventSink sink = new FakeEventSink();

	private final List<KubernetesEventRecorder> recorders = new ArrayList<>();

	@AfterEach
	void closeRecorders() {
		this.sink.gate.countDown();
		this.recorders.forEach(KubernetesEventRecorder::close);
	}

	private KubernetesEventRecorder.Builder builder() {
		return KubernetesEventRecorder.builder(this.sink).component("test-operator").reportingInstance("test-host");
	}

	private KubernetesEventRecorder started(KubernetesEventRecorder.Builder builder) {
		KubernetesEventRecorder recorder = builder.build();
		this.recorders.add(recorder);
		return recorder;
	}

	private static V1ConfigMap configMap(String name) {
		return new V1ConfigMap()
			.metadata(new V1ObjectMeta().namespace("team-a").name(name).uid("uid-" + name).resourceVersion("42"));
	}

	@Test
	void recordWritesEventReferencingTheObject() {
		KubernetesEventRecorder recorder = started(builder());
		recorder.normal(configMap("settings"), "Synced", "Synced the settings");
		await().atMost(WAIT).until(() -> this.sink.events.size() == 1);
		CoreV1Event event = this.sink.events.values().iterator().next();
		assertThat(event.getMetadata().getNamespace()).isEqualTo("team-a");
		assertThat(event.getMetadata().getName()).matches("settings\\.[0-9a-f]{16}");
		assertThat(event.getInvolvedObject().getApiVersion()).isEqualTo("v1");
		assertThat(event.getInvolvedObject().getKind()).isEqualTo("ConfigMap");
		assertThat(event.getInvolvedObject().getNamespace()).isEqualTo("team-a");
		assertThat(event.getInvolvedObject().getName()).isEqualTo("settings");
		assertThat(event.getInvolvedObject().getUid()).isEqualTo("uid-settings");
		assertThat(event.getInvolvedObject().getResourceVersion()).isEqualTo("42");
		assertThat(event.getReason()).isEqualTo("Synced");
		assertThat(event.getMessage()).isEqualTo("Synced the settings");
		assertThat(event.getType()).isEqualTo("Normal");
		assertThat(event.getSource().getComponent()).isEqualTo("test-operator");
		assertThat(event.getReportingComponent()).isEqualTo("test-operator");
		assertThat(event.getReportingInstance()).isEqualTo("test-host");
		assertThat(event.getCount()).isEqualTo(1);
		assertThat(event.getFirstTimestamp()).isNotNull().isEqualTo(event.getLastTimestamp());
		assertThat(event.getEventTime()).isNull();
	}

	@Test
	void objectKindAndApiVersionWinOverTheModelClass() {
		KubernetesEventRecorder recorder = started(builder());
		V1Pod pod = new V1Pod().apiVersion("v1").kind("Pod").metadata(new V1ObjectMeta().namespace("ns").name("p"));
		recorder.warning(pod, "Failed", "Failed to start");
		await().atMost(WAIT).until(() -> this.sink.events.size() == 1);
		CoreV1Event event = this.sink.events.values().iterator().next();
		assertThat(event.getInvolvedObject().getKind()).isEqualTo("Pod");
		assertThat(event.getInvolvedObject().getUid()).isNull();
		assertThat(event.getType()).isEqualTo("Warning");
	}

	@Test
	void identicalEventsBecomeOneEventWhoseCountIsTheNumberOfOccurrences() {
		KubernetesEventRecorder recorder = started(builder().aggregationInterval(Duration.ofHours(1)));
		for (int i = 0; i < 100; i++) {
			recorder.normal(configMap("settings"), "Synced", "Synced the settings");
		}
		await().atMost(WAIT).until(() -> this.sink.events.size() == 1);
		recorder.close();
		assertThat(this.sink.events).hasSize(1);
		CoreV1Event event = this.sink.events.values().iterator().next();
		assertThat(event.getCount()).isEqualTo(100);
		assertThat(this.sink.calls).hasSizeLessThanOrEqualTo(2).first().asString().startsWith("create ");
		assertThat(recorder.droppedCount()).isZero();
	}

	@Test
	void sameEventIsWrittenAtMostOncePerAggregationInterval() {
		KubernetesEventRecorder recorder = started(builder().aggregationInterval(Duration.ofHours(1)));
		recorder.normal(configMap("settings"), "Synced", "Synced the settings");
		await().atMost(WAIT).until(() -> this.sink.calls.size() == 1);
		recorder.normal(configMap("settings"), "Synced", "Synced the settings");
		recorder.normal(configMap("other"), "Synced", "Synced the settings");
		await().atMost(WAIT).until(() -> this.sink.calls.size() == 2);
		await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> this.sink.calls.size() == 2);
		assertThat(this.sink.calls.get(1)).startsWith("create team-a/other.");
		recorder.close();
		assertThat(this.sink.calls).hasSize(3);
		assertThat(this.sink.calls.get(2)).startsWith("patch team-a/settings.").endsWith(" 2");
	}

	@Test
	void eventsDifferingInTypeReasonMessageOrObjectAreSeparateEvents() {
		KubernetesEventRecorder recorder = started(builder());
		recorder.normal(configMap("a"), "Synced", "one");
		recorder.warning(configMap("a"), "Synced", "one");
		recorder.normal(configMap("a"), "Created", "one");
		recorder.normal(configMap("a"), "Synced", "two");
		recorder.normal(configMap("b"), "Synced", "one");
		recorder.close();
		assertThat(this.sink.events).hasSize(5);
		assertThat(this.sink.events.values()).allSatisfy((event) -> assertThat(event.getCount()).isEqualTo(1));
	}

	@Test
	void rateLimitDelaysWritesWhileIdenticalEventsKeepCoalescing() {
		KubernetesEventRecorder recorder = started(builder().qps(0.001).burst(2));
		for (int i = 0; i < 5; i++) {
			recorder.normal(configMap("cm-" + i), "Synced", "Synced");
		}
		await().atMost(WAIT).until(() -> this.sink.calls.size() == 2);
		recorder.normal(configMap("cm-4"), "Synced", "Synced");
		await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> this.sink.calls.size() == 2);
		recorder.close();
		assertThat(this.sink.events).hasSize(5);
		assertThat(this.sink.totalCount()).isEqualTo(6);
		assertThat(recorder.droppedCount()).isZero();
	}

	@Test
	void fullQueueDropsAndCountsWithoutBlocking() {
		this.sink.gate = new CountDownLatch(1);
		KubernetesEventRecorder recorder = started(builder().queueCapacity(10));
		long start = System.nanoTime();
		for (int i = 0; i < 100; i++) {
			recorder.normal(configMap("cm-" + i), "Synced", "Synced");
		}
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(PROMPTLY);
		// ten wait in the table, one may already be on its way to the (hanging) sink
		assertThat(recorder.droppedCount()).isBetween(89L, 90L);
		this.sink.gate.countDown();
		recorder.close();
		assertThat(this.sink.events).hasSize(100 - (int) recorder.droppedCount());
	}

	@Test
	void expiredEventIsCreatedAgain() {
		KubernetesEventRecorder recorder = started(builder().aggregationInterval(Duration.ZERO));
		recorder.normal(configMap("settings"), "Synced", "Synced");
		await().atMost(WAIT).until(() -> this.sink.events.size() == 1);
		this.sink.events.clear();
		recorder.normal(configMap("settings"), "Synced", "Synced");
		await().atMost(WAIT).until(() -> this.sink.events.size() == 1);
		assertThat(this.sink.calls).hasSize(3);
		assertThat(this.sink.calls.get(1)).startsWith("patch ").endsWith(" 2");
		assertThat(this.sink.calls.get(2)).startsWith("create ").endsWith(" 1");
	}

	@Test
	void transientFailureIsRetriedKeepingTheCount() {
		this.sink.failures.add(new ApiException(503, "etcd is unhappy"));
		KubernetesEventRecorder recorder = started(builder());
		recorder.normal(configMap("settings"), "Synced", "Synced");
		await().atMost(WAIT).until(() -> this.sink.calls.size() == 1);
		recorder.normal(configMap("settings"), "Synced", "Synced");
		recorder.normal(configMap("settings"), "Synced", "Synced");
		await().atMost(WAIT).until(() -> this.sink.events.size() == 1);
		assertThat(this.sink.events.values().iterator().next().getCount()).isEqualTo(3);
		assertThat(recorder.droppedCount()).isZero();
	}

	@Test
	void unreachableApiServerIsRetried() {
		this.sink.failures.add(new ApiException(new IOException("Connection refused")));
		KubernetesEventRecorder recorder = started(builder());
		recorder.normal(configMap("settings"), "Synced", "Synced");
		await().atMost(WAIT).until(() -> this.sink.events.size() == 1);
		assertThat(this.sink.calls).hasSize(2);
	}

	@Test
	void permanentFailureDropsTheEventAndLaterEventsAreStillWritten() {
		this.sink.failures.add(new ApiException(403, "events is forbidden"));
		KubernetesEventRecorder recorder = started(builder());
		recorder.normal(configMap("a"), "Synced", "Synced");
		await().atMost(WAIT).until(() -> recorder.droppedCount() == 1);
		recorder.normal(configMap("b"), "Synced", "Synced");
		recorder.close();
		assertThat(this.sink.events.keySet()).singleElement().asString().startsWith("team-a/b.");
		assertThat(this.sink.calls).hasSize(2);
	}

	@Test
	void eventAboutClusterScopedObjectGoesToDefaultNamespace() {
		KubernetesEventRecorder recorder = started(builder());
		recorder.normal(new V1Namespace().metadata(new V1ObjectMeta().name("team-a").uid("u")), "Created", "Created");
		recorder.close();
		CoreV1Event event = this.sink.events.values().iterator().next();
		assertThat(event.getMetadata().getNamespace()).isEqualTo("default");
		assertThat(event.getInvolvedObject().getKind()).isEqualTo("Namespace");
		assertThat(event.getInvolvedObject().getNamespace()).isNull();
	}

	@Test
	void invalidArgumentsAreDroppedWithoutThrowing() {
		KubernetesEventRecorder recorder = started(builder());
		assertThatNoException().isThrownBy(() -> {
			recorder.normal(new V1ConfigMap(), "Synced", "no metadata");
			recorder.normal(new V1ConfigMap().metadata(new V1ObjectMeta().namespace("ns")), "Synced", "no name");
			recorder.record(null, null, null, null);
		});
		assertThat(recorder.droppedCount()).isEqualTo(3);
		recorder.record(configMap("settings"), EventType.WARNING, "Failed", null);
		recorder.close();
		assertThat(this.sink.events.values()).singleElement()
			.satisfies((event) -> assertThat(event.getMessage()).isEmpty());
	}

	@Test
	void longMessageIsCut() {
		KubernetesEventRecorder recorder = started(builder());
		recorder.normal(configMap("settings"), "Synced", "x".repeat(5000));
		recorder.close();
		String message = this.sink.events.values().iterator().next().getMessage();
		assertThat(message).hasSize(KubernetesEventRecorder.MESSAGE_LIMIT).endsWith("...");
	}

	@Test
	void closeIsBoundedWhileWritesHang() {
		this.sink.gate = new CountDownLatch(1);
		KubernetesEventRecorder recorder = started(builder().flushTimeout(Duration.ofMillis(200)));
		recorder.normal(configMap("a"), "Synced", "Synced");
		recorder.normal(configMap("b"), "Synced", "Synced");
		long start = System.nanoTime();
		recorder.close();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(PROMPTLY);
		assertThat(recorder.isClosed()).isTrue();
		// the hanging write is interrupted and dropped, the waiting one is dropped by
		// close
		await().atMost(WAIT).until(() -> recorder.droppedCount() == 2);
		recorder.normal(configMap("c"), "Synced", "after close");
		assertThat(recorder.droppedCount()).isEqualTo(3);
		assertThat(this.sink.events).isEmpty();
	}

	@Test
	void builderRejectsInvalidSettings() {
		assertThatIllegalArgumentException().isThrownBy(() -> builder().qps(0)).withMessageContaining("qps");
		assertThatIllegalArgumentException().isThrownBy(() -> builder().burst(0)).withMessageContaining("burst");
		assertThatIllegalArgumentException().isThrownBy(() -> builder().queueCapacity(0))
			.withMessageContaining("queueCapacity");
		assertThatIllegalArgumentException().isThrownBy(() -> builder().aggregationInterval(Duration.ofSeconds(-1)))
			.withMessageContaining("aggregationInterval");
		assertThatIllegalArgumentException().isThrownBy(() -> builder().flushTimeout(Duration.ofSeconds(-1)))
			.withMessageContaining("flushTimeout");
		assertThatIllegalArgumentException().isThrownBy(() -> builder().component(" "))
			.withMessageContaining("component");
	}

	@Test
	void recordingNeverBlocksWhileTheApiServerRefusesConnections() {
		ApiClient client = new ApiClient().setBasePath("https://127.0.0.1:1");
		assertRecordingNeverBlocks(client);
	}

	@Test
	void recordingNeverBlocksWhileTheApiServerNeverAnswers() throws IOException {
		// a listening socket nobody accepts from: connections succeed, TLS hangs
		try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
			ApiClient client = new ApiClient().setBasePath("https://127.0.0.1:" + silent.getLocalPort());
			assertRecordingNeverBlocks(client);
		}
	}

	private void assertRecordingNeverBlocks(ApiClient client) {
		KubernetesEventRecorder recorder = KubernetesEventRecorder.builder(client)
			.flushTimeout(Duration.ofMillis(500))
			.build();
		this.recorders.add(recorder);
		long start = System.nanoTime();
		for (int i = 0; i < 5000; i++) {
			recorder.normal(configMap("cm-" + i), "Synced", "Synced");
		}
		for (int i = 0; i < 5000; i++) {
			recorder.normal(configMap("cm-0"), "Synced", "Synced");
		}
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(PROMPTLY);
		start = System.nanoTime();
		recorder.close();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(PROMPTLY);
		// nothing could be written: every occurrence is accounted for as dropped
		await().atMost(WAIT).untilAsserted(() -> assertThat(recorder.droppedCount()).isEqualTo(10_000));
	}

}
