package io.kubeboot.operator.events;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.StopSignal;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.awaitility.Awaitility.await;

/**
 * {@link KubernetesEventRecorder} against an in-memory sink, and against API servers that
 * refuse or never answer. Recorders run on a thread of the test's own, as a manager would
 * run them.
 */
class KubernetesEventRecorderTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	/**
	 * A bound for calls that must return at once, lenient enough for a loaded machine.
	 */
	private static final Duration PROMPTLY = Duration.ofSeconds(5);

	private final FakeEventSink sink = new FakeEventSink();

	private final List<KubernetesEventRecorder> recorders = new ArrayList<>();

	private final List<Thread> writers = new ArrayList<>();

	@AfterEach
	void closeRecorders() {
		this.sink.gate.countDown();
		this.recorders.forEach(KubernetesEventRecorder::close);
		// no writer of one test may still run in the next
		await().atMost(WAIT).until(() -> this.writers.stream().noneMatch(Thread::isAlive));
	}

	private KubernetesEventRecorder.Builder builder() {
		return KubernetesEventRecorder.builder(this.sink).component("test-operator").reportingInstance("test-host");
	}

	private KubernetesEventRecorder built(KubernetesEventRecorder.Builder builder) {
		KubernetesEventRecorder recorder = builder.build();
		this.recorders.add(recorder);
		return recorder;
	}

	private KubernetesEventRecorder started(KubernetesEventRecorder.Builder builder) {
		KubernetesEventRecorder recorder = built(builder);
		startOnThreadOfItsOwn(recorder, new StopSignal());
		return recorder;
	}

	private Thread startOnThreadOfItsOwn(KubernetesEventRecorder recorder, StopSignal stop) {
		Thread writer = new Thread(() -> recorder.start(stop), "test-event-writer");
		writer.setDaemon(true);
		this.writers.add(writer);
		writer.start();
		return writer;
	}

	private static void assertReturns(Thread writer) throws InterruptedException {
		writer.join(WAIT.toMillis());
		assertThat(writer.isAlive()).as("writer thread still running").isFalse();
	}

	/**
	 * Whether a thread is a recorder's: named as the recorder names its threads, or
	 * running code of the package.
	 */
	private static boolean runsRecorderCode(Thread thread) {
		String recorderPackage = KubernetesEventRecorder.class.getPackageName() + ".";
		return thread.getName().startsWith("event-recorder") || Arrays.stream(thread.getStackTrace())
			.anyMatch((frame) -> frame.getClassName().startsWith(recorderPackage));
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

	/**
	 * The API server counts an {@code events.k8s.io/v1} Event's limits in bytes (Go's
	 * {@code len}): 400 German or Japanese characters can be too many.
	 */
	@Test
	void aMessageIsCutToItsLimitInUtf8BytesBetweenTwoCharacters() {
		KubernetesEventRecorder recorder = started(builder());
		// 2-, 3- and 4-byte characters, the last a surrogate pair in Java
		recorder.normal(configMap("german"), "Synced", "\u00fc".repeat(600));
		recorder.normal(configMap("japanese"), "Synced", "\u540c\u671f".repeat(300));
		recorder.normal(configMap("emoji"), "Synced", "a" + "\ud83d\ude80".repeat(300));
		recorder.normal(configMap("short"), "Synced", "\u00fc".repeat(512));
		recorder.close();
		Map<String, String> messages = new HashMap<>();
		this.sink.events.values()
			.forEach((event) -> messages.put(event.getInvolvedObject().getName(), event.getMessage()));
		assertThat(messages).hasSize(4);
		for (String name : List.of("german", "japanese", "emoji")) {
			String message = messages.get(name);
			assertThat(message.getBytes(StandardCharsets.UTF_8).length).as(name)
				.isLessThanOrEqualTo(KubernetesEventRecorder.MESSAGE_LIMIT)
				.isGreaterThan(KubernetesEventRecorder.MESSAGE_LIMIT - 8);
			assertThat(message).as(name).endsWith("...");
			// no character cut in two
			assertThat(new String(message.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8)).isEqualTo(message);
		}
		assertThat(messages.get("emoji")).startsWith("a\ud83d\ude80").doesNotContain("\ud83d...");
		// exactly 1024 bytes: kept whole
		assertThat(messages.get("short")).isEqualTo("\u00fc".repeat(512));
	}

	@Test
	void anEmptyReasonOrActionIsDefaultedAndALongOneCutToWhatTheApiServerAccepts() {
		KubernetesEventRecorder recorder = started(builder());
		recorder.record(configMap("none"), Event.normal("").action("").message("no reason"));
		recorder.record(configMap("action"), Event.normal("").action("Provision").message("only an action"));
		recorder.record(configMap("long"), Event.normal("R".repeat(200)).action("\u00e4".repeat(100)).message("long"));
		recorder.close();
		Map<String, CoreV1Event> events = new HashMap<>();
		this.sink.events.values().forEach((event) -> events.put(event.getInvolvedObject().getName(), event));
		assertThat(events.get("none").getReason()).isEqualTo("Unknown");
		assertThat(events.get("none").getAction()).isEqualTo("Unknown");
		assertThat(events.get("action").getReason()).isEqualTo("Provision");
		assertThat(events.get("action").getAction()).isEqualTo("Provision");
		assertThat(events.get("long").getReason()).isEqualTo("R".repeat(128));
		assertThat(events.get("long").getAction()).isEqualTo("\u00e4".repeat(64));
	}

	@Test
	void anEventAboutAnObjectWhoseNameIsNoDnsSubdomainHasAValidName() {
		KubernetesEventRecorder recorder = started(builder());
		recorder.normal(new V1ClusterRole().metadata(new V1ObjectMeta().name("system:controller:Job-Controller")),
				"Synced", "Synced");
		recorder.close();
		assertThat(this.sink.events.values()).singleElement().satisfies((event) -> {
			assertThat(event.getMetadata().getName()).matches("system-controller-job-controller\\.[0-9a-f]{16}");
			// the object keeps its name
			assertThat(event.getInvolvedObject().getName()).isEqualTo("system:controller:Job-Controller");
		});
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
	void buildStartsNoThreadAndEventsRecordedBeforeStartAreWrittenOnceStarted() {
		Set<Thread> before = Thread.getAllStackTraces().keySet();
		KubernetesEventRecorder recorder = built(builder());
		for (int i = 0; i < 3; i++) {
			recorder.normal(configMap("settings"), "Synced", "Synced the settings");
		}
		recorder.warning(configMap("other"), "Failed", "Failed to sync");
		assertThat(Thread.getAllStackTraces().keySet()).filteredOn((thread) -> !before.contains(thread))
			.noneMatch(KubernetesEventRecorderTests::runsRecorderCode);
		await().during(Duration.ofMillis(300)).atMost(WAIT).until(this.sink.calls::isEmpty);
		startOnThreadOfItsOwn(recorder, new StopSignal());
		await().atMost(WAIT).until(() -> this.sink.events.size() == 2);
		assertThat(this.sink.withReason("Synced")).singleElement()
			.satisfies((event) -> assertThat(event.getCount()).isEqualTo(3));
		assertThat(this.sink.withReason("Failed")).singleElement()
			.satisfies((event) -> assertThat(event.getCount()).isEqualTo(1));
		assertThat(recorder.droppedCount()).isZero();
	}

	@Test
	void stopSignalFlushesPendingEventsThenStartReturns() throws InterruptedException {
		KubernetesEventRecorder recorder = built(
				builder().aggregationInterval(Duration.ofHours(1)).qps(0.001).burst(1));
		StopSignal stop = new StopSignal();
		Thread writer = startOnThreadOfItsOwn(recorder, stop);
		recorder.normal(configMap("a"), "Synced", "Synced");
		await().atMost(WAIT).until(() -> this.sink.calls.size() == 1);
		// held back for an hour by the aggregation interval, and by the rate limit
		recorder.normal(configMap("a"), "Synced", "Synced");
		recorder.normal(configMap("b"), "Synced", "Synced");
		assertThat(recorder.isClosed()).isFalse();
		stop.fire();
		assertReturns(writer);
		assertThat(this.sink.calls).hasSize(3);
		assertThat(this.sink.calls).anySatisfy((call) -> assertThat(call).startsWith("patch team-a/a.").endsWith(" 2"));
		assertThat(this.sink.events).hasSize(2);
		assertThat(this.sink.totalCount()).isEqualTo(3);
		assertThat(recorder.isClosed()).isTrue();
		assertThat(recorder.droppedCount()).isZero();
		recorder.normal(configMap("c"), "Synced", "after stop");
		assertThat(recorder.droppedCount()).isEqualTo(1);
		assertThat(this.sink.calls).hasSize(3);
	}

	@Test
	void stopSignalFlushIsBoundedWhileWritesHang() throws InterruptedException {
		this.sink.gate = new CountDownLatch(1);
		KubernetesEventRecorder recorder = built(builder().flushTimeout(Duration.ofMillis(200)));
		StopSignal stop = new StopSignal();
		Thread writer = startOnThreadOfItsOwn(recorder, stop);
		recorder.normal(configMap("a"), "Synced", "Synced");
		recorder.normal(configMap("b"), "Synced", "Synced");
		long start = System.nanoTime();
		stop.fire();
		assertReturns(writer);
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(PROMPTLY);
		// the hanging write is interrupted and dropped, the waiting one is dropped too,
		// both before start returns
		assertThat(recorder.droppedCount()).isEqualTo(2);
		assertThat(this.sink.events).isEmpty();
	}

	@Test
	void managerStartsTheRecorderAndStoppingItFlushes() throws InterruptedException {
		KubernetesEventRecorder recorder = built(builder().aggregationInterval(Duration.ofHours(1)));
		// no informers and no leader election: the manager starts without the API server
		Manager manager = Manager.builder(new ApiClient().setBasePath("https://127.0.0.1:1")).build();
		manager.add("event-recorder", recorder);
		recorder.normal(configMap("settings"), "Synced", "Synced");
		manager.start();
		try {
			await().atMost(WAIT).until(() -> this.sink.calls.size() == 1);
			recorder.normal(configMap("settings"), "Synced", "Synced");
		}
		finally {
			manager.stop();
		}
		assertThat(recorder.isClosed()).isTrue();
		assertThat(this.sink.calls).hasSize(2);
		assertThat(this.sink.calls.get(1)).startsWith("patch team-a/settings.").endsWith(" 2");
		assertThat(recorder.droppedCount()).isZero();
	}

	@Test
	void closeBeforeStartFlushesPendingEventsAndStartThenReturnsAtOnce() throws InterruptedException {
		KubernetesEventRecorder recorder = built(builder());
		recorder.normal(configMap("settings"), "Synced", "Synced");
		recorder.normal(configMap("settings"), "Synced", "Synced");
		recorder.close();
		assertThat(recorder.isClosed()).isTrue();
		assertThat(this.sink.events.values()).singleElement()
			.satisfies((event) -> assertThat(event.getCount()).isEqualTo(2));
		assertThat(recorder.droppedCount()).isZero();
		assertReturns(startOnThreadOfItsOwn(recorder, new StopSignal()));
		recorder.normal(configMap("settings"), "Synced", "after close");
		assertThat(recorder.droppedCount()).isEqualTo(1);
		assertThat(this.sink.calls).hasSize(1);
	}

	@Test
	void closeBeforeStartIsBoundedWhileWritesHang() {
		this.sink.gate = new CountDownLatch(1);
		KubernetesEventRecorder recorder = built(builder().flushTimeout(Duration.ofMillis(200)));
		recorder.normal(configMap("a"), "Synced", "Synced");
		recorder.normal(configMap("b"), "Synced", "Synced");
		long start = System.nanoTime();
		recorder.close();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(PROMPTLY);
		await().atMost(WAIT).until(() -> recorder.droppedCount() == 2);
		assertThat(this.sink.events).isEmpty();
	}

	@Test
	void startWhileRunningFails() {
		KubernetesEventRecorder recorder = started(builder());
		recorder.normal(configMap("settings"), "Synced", "Synced");
		await().atMost(WAIT).until(() -> this.sink.calls.size() == 1);
		assertThatIllegalStateException().isThrownBy(() -> recorder.start(new StopSignal()))
			.withMessageContaining("running already");
	}

	@Test
	void recorderRunsOnEveryReplica() {
		assertThat(built(builder()).needsLeaderElection()).isFalse();
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
	void aComponentThatIsNoQualifiedNameIsRefusedUnlessOnlyCoreV1EventsAreWritten() {
		assertThatIllegalArgumentException().isThrownBy(() -> builder().component("Shop Operator").build())
			.withMessageContaining("component")
			.withMessageContaining("qualified name");
		assertThatIllegalArgumentException().isThrownBy(() -> builder().component("shop operator").build())
			.withMessageContaining("reportingController");
		assertThat(builder().api(EventApi.CORE_V1).component("Shop Operator").build().component())
			.isEqualTo("Shop Operator");
		// whatever the order of the setters
		assertThat(builder().component("Shop Operator").queueCapacity(5).api(EventApi.CORE_V1).build().component())
			.isEqualTo("Shop Operator");
		assertThat(builder().component("example.com/shop-operator").build().component())
			.isEqualTo("example.com/shop-operator");
	}

	@Test
	void theRecorderNeedsRbacForTheApiItWritesThrough() {
		assertThat(builder().build().requiredPermissions()).extracting((permission) -> permission.group())
			.containsExactly("", "events.k8s.io");
		assertThat(builder().api(EventApi.EVENTS_V1).build().requiredPermissions())
			.extracting((permission) -> permission.group() + " " + permission.resource() + " " + permission.verbs())
			.containsExactly("events.k8s.io events [create, patch]");
		assertThat(builder().api(EventApi.CORE_V1).build().requiredPermissions())
			.extracting((permission) -> permission.group() + " " + permission.resource() + " " + permission.verbs())
			.containsExactly(" events [create, patch]");
	}

	@Test
	void theActionIsTheReasonUnlessGivenAndTellsEventsApart() throws Exception {
		KubernetesEventRecorder recorder = built(builder().aggregationInterval(Duration.ZERO));
		V1ConfigMap configMap = configMap("settings");
		recorder.normal(configMap, "Synced", "Synced");
		recorder.record(configMap, Event.normal("Synced").action("Resync").message("Synced"));
		recorder.close();
		assertThat(this.sink.withReason("Synced")).extracting(CoreV1Event::getAction)
			.containsExactlyInAnyOrder("Synced", "Resync");
	}

	@Test
	void aRecorderThatKeepsNoActionRecordsAnEventWithoutIt() {
		List<String> recorded = new ArrayList<>();
		EventRecorder lambda = (object, type, reason, message) -> recorded
			.add(type.value() + " " + reason + " " + message);
		lambda.record(configMap("settings"),
				Event.warning("ProvisioningFailed").action("Provision").message("The backend refused the bucket"));
		assertThat(recorded).containsExactly("Warning ProvisioningFailed The backend refused the bucket");
		assertThat(Event.normal("Synced").action("Sync").message("m"))
			.isEqualTo(Event.normal("Synced").action("Sync").message("m"))
			.hasToString("Normal Synced (Sync): m");
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
		KubernetesEventRecorder recorder = started(
				KubernetesEventRecorder.builder(client).flushTimeout(Duration.ofMillis(500)));
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
