package io.kubeboot.operator.events;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.kubeboot.operator.client.internal.AccessReviews;
import io.kubeboot.operator.manager.StopSignal;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1ResourceAttributes;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1RoleRef;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link KubernetesEventRecorder} writing {@code events.k8s.io/v1} Events against a real
 * kube-apiserver, which serves that API: the Event controller-runtime 0.23 writes, a
 * {@code series} for repeats, and {@link EventApi#AUTO} choosing it through discovery or
 * falling back to {@code core/v1} when RBAC allows only that, and only then.
 */
@WithControlPlane
class EventsV1RecorderIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private final List<KubernetesEventRecorder> recorders = new ArrayList<>();

	private final List<Thread> writers = new ArrayList<>();

	@AfterEach
	void closeRecorders() {
		this.recorders.forEach(KubernetesEventRecorder::close);
		await().atMost(WAIT).until(() -> this.writers.stream().noneMatch(Thread::isAlive));
	}

	private KubernetesEventRecorder recorder(ApiClient client, EventApi api, Duration aggregationInterval) {
		KubernetesEventRecorder recorder = KubernetesEventRecorder.builder(client)
			.component("test-operator")
			.reportingInstance("test-host")
			.aggregationInterval(aggregationInterval)
			.flushTimeout(Duration.ofSeconds(20))
			.api(api)
			.build();
		this.recorders.add(recorder);
		Thread writer = new Thread(() -> recorder.start(new StopSignal()), "test-event-writer");
		writer.setDaemon(true);
		this.writers.add(writer);
		writer.start();
		return recorder;
	}

	private static List<EventsV1Event> events(ApiClient admin, String namespace, String objectName)
			throws ApiException {
		return new EventsV1Api(admin).listNamespacedEvent(namespace)
			.fieldSelector("regarding.name=" + objectName)
			.execute()
			.getItems();
	}

	private static V1ConfigMap createdConfigMap(ApiClient admin, TestNamespace namespace, String name)
			throws ApiException {
		CoreV1Api core = new CoreV1Api(admin);
		core.createNamespacedConfigMap(namespace.name(), new V1ConfigMap().metadata(new V1ObjectMeta().name(name)))
			.execute();
		return core.listNamespacedConfigMap(namespace.name())
			.fieldSelector("metadata.name=" + name)
			.execute()
			.getItems()
			.get(0);
	}

	@Test
	void anEventIsAnEventsV1EventWithRegardingNoteActionAndReportingController(ApiClient admin, TestNamespace namespace)
			throws Exception {
		V1ConfigMap configMap = createdConfigMap(admin, namespace, "settings");
		KubernetesEventRecorder recorder = recorder(admin, EventApi.AUTO, Duration.ofSeconds(1));
		recorder.record(configMap, Event.normal("Synced").action("Sync").message("Synced the settings"));
		await().atMost(WAIT).until(() -> events(admin, namespace.name(), "settings").size() == 1);
		EventsV1Event event = events(admin, namespace.name(), "settings").get(0);
		assertThat(event.getMetadata().getName()).matches("settings\\.[0-9a-f]+");
		assertThat(event.getRegarding().getApiVersion()).isEqualTo("v1");
		assertThat(event.getRegarding().getKind()).isEqualTo("ConfigMap");
		assertThat(event.getRegarding().getNamespace()).isEqualTo(namespace.name());
		assertThat(event.getRegarding().getUid()).isEqualTo(configMap.getMetadata().getUid());
		assertThat(event.getReason()).isEqualTo("Synced");
		assertThat(event.getAction()).isEqualTo("Sync");
		assertThat(event.getNote()).isEqualTo("Synced the settings");
		assertThat(event.getType()).isEqualTo("Normal");
		assertThat(event.getReportingController()).isEqualTo("test-operator");
		assertThat(event.getReportingInstance()).isEqualTo("test-host");
		assertThat(event.getEventTime()).isNotNull();
		assertThat(event.getSeries()).isNull();
		// none of the core/v1 fields the new API deprecates
		assertThat(event.getDeprecatedCount()).isNull();
		assertThat(Optional.ofNullable(event.getDeprecatedSource()).map(V1EventSource::getComponent)).isEmpty();
		assertThat(event.getDeprecatedFirstTimestamp()).isNull();
		// kubectl describe and the core/v1 API still show it
		CoreV1Event asCore = new CoreV1Api(admin).readNamespacedEvent(event.getMetadata().getName(), namespace.name())
			.execute();
		assertThat(asCore.getInvolvedObject().getName()).isEqualTo("settings");
		assertThat(asCore.getMessage()).isEqualTo("Synced the settings");
		assertThat(asCore.getReportingComponent()).isEqualTo("test-operator");
	}

	@Test
	void aRepeatMakesTheEventASeriesWhoseCountGrows(ApiClient admin, TestNamespace namespace) throws Exception {
		V1ConfigMap configMap = createdConfigMap(admin, namespace, "busy");
		KubernetesEventRecorder recorder = recorder(admin, EventApi.EVENTS_V1, Duration.ZERO);
		recorder.warning(configMap, "Failed", "Cannot reach the backend");
		await().atMost(WAIT).until(() -> events(admin, namespace.name(), "busy").size() == 1);
		EventsV1Event first = events(admin, namespace.name(), "busy").get(0);
		assertThat(first.getSeries()).isNull();
		// the reason is the action when none is given
		assertThat(first.getAction()).isEqualTo("Failed");

		recorder.warning(configMap, "Failed", "Cannot reach the backend");
		await().atMost(WAIT).until(() -> series(admin, namespace, "busy") == 2);
		for (int i = 0; i < 98; i++) {
			recorder.warning(configMap, "Failed", "Cannot reach the backend");
		}
		await().atMost(WAIT).until(() -> series(admin, namespace, "busy") == 100);
		assertThat(events(admin, namespace.name(), "busy")).singleElement().satisfies((event) -> {
			assertThat(event.getMetadata().getName()).isEqualTo(first.getMetadata().getName());
			assertThat(event.getEventTime()).isEqualTo(first.getEventTime());
			assertThat(event.getSeries().getLastObservedTime()).isAfterOrEqualTo(first.getEventTime());
			assertThat(event.getType()).isEqualTo("Warning");
		});
		assertThat(recorder.droppedCount()).isZero();
	}

	@Test
	void eventsInABurstAreCreatedAsOneSeries(ApiClient admin, TestNamespace namespace) throws Exception {
		V1ConfigMap configMap = createdConfigMap(admin, namespace, "burst");
		KubernetesEventRecorder recorder = recorder(admin, EventApi.EVENTS_V1, Duration.ofSeconds(1));
		for (int i = 0; i < 100; i++) {
			recorder.normal(configMap, "Synced", "Synced");
		}
		recorder.close();
		assertThat(events(admin, namespace.name(), "burst")).singleElement()
			.satisfies((event) -> assertThat(event.getSeries().getCount()).isEqualTo(100));
		assertThat(recorder.droppedCount()).isZero();
	}

	@Test
	void autoFallsBackToCoreV1EventsWhenRbacAllowsOnlyThose(ControlPlane controlPlane, ApiClient admin,
			TestNamespace namespace) throws Exception {
		V1ConfigMap configMap = createdConfigMap(admin, namespace, "settings");
		grantCoreEvents(admin, namespace, "user2");
		ApiClient user2 = controlPlane.clientFor("user2");
		// the recorder falls back only once RBAC allows core/v1 Events
		V1ResourceAttributes createEvents = new V1ResourceAttributes().group("")
			.resource("events")
			.verb("create")
			.namespace(namespace.name());
		await().atMost(WAIT).until(() -> AccessReviews.isAllowed(user2, createEvents));
		KubernetesEventRecorder recorder = recorder(user2, EventApi.AUTO, Duration.ofSeconds(1));
		recorder.normal(configMap, "Synced", "Synced the settings");
		recorder.normal(configMap, "Synced", "Synced the settings");
		recorder.close();
		List<CoreV1Event> events = new CoreV1Api(admin).listNamespacedEvent(namespace.name())
			.fieldSelector("involvedObject.name=settings")
			.execute()
			.getItems();
		assertThat(events).singleElement().satisfies((event) -> {
			// a core/v1 Event: source and count, no eventTime
			assertThat(event.getSource().getComponent()).isEqualTo("test-operator");
			assertThat(event.getCount()).isEqualTo(2);
			assertThat(event.getEventTime()).isNull();
		});
		assertThat(recorder.droppedCount()).isZero();
	}

	/**
	 * A namespace being deleted refuses every create with a {@code 403} that says nothing
	 * of RBAC: the Event about an object in it is dropped (and counted), and the Events
	 * of every other namespace stay {@code events.k8s.io/v1}.
	 */
	@Test
	void aNamespaceBeingDeletedLeavesTheEventsOfOtherNamespacesEventsV1(ApiClient admin, TestNamespace namespace)
			throws Exception {
		CoreV1Api core = new CoreV1Api(admin);
		String doomed = "doomed-" + Long.toHexString(System.nanoTime());
		core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(doomed))).execute();
		V1ConfigMap leftover = core
			.createNamespacedConfigMap(doomed, new V1ConfigMap().metadata(new V1ObjectMeta().name("leftover")))
			.execute();
		// no controller-manager runs: the namespace stays Terminating
		core.deleteNamespace(doomed).execute();
		V1ConfigMap configMap = createdConfigMap(admin, namespace, "settings");
		KubernetesEventRecorder recorder = recorder(admin, EventApi.AUTO, Duration.ofSeconds(1));
		recorder.normal(leftover, "CleanedUp", "Cleaned up the leftovers");
		await().atMost(WAIT).until(() -> recorder.droppedCount() == 1);
		recorder.normal(configMap, "Synced", "Synced the settings");
		await().atMost(WAIT).until(() -> events(admin, namespace.name(), "settings").size() == 1);
		assertThat(events(admin, namespace.name(), "settings")).singleElement().satisfies((event) -> {
			// written through events.k8s.io/v1, not core/v1
			assertThat(event.getEventTime()).isNotNull();
			assertThat(event.getReportingController()).isEqualTo("test-operator");
			assertThat(Optional.ofNullable(event.getDeprecatedSource()).map(V1EventSource::getComponent)).isEmpty();
		});
	}

	/**
	 * The API server validates an {@code events.k8s.io/v1} Event strictly, counting
	 * bytes: a long message in German, Japanese or emoji, an empty reason, a long reason
	 * and an object whose name is no DNS subdomain are all written, none dropped.
	 */
	@Test
	void eventsThatCoreV1AcceptedAreAcceptedAsEventsV1Events(ApiClient admin, TestNamespace namespace)
			throws Exception {
		V1ConfigMap configMap = createdConfigMap(admin, namespace, "settings");
		String role = "system:test:Role-" + Long.toHexString(System.nanoTime());
		V1ClusterRole clusterRole = new RbacAuthorizationV1Api(admin)
			.createClusterRole(new V1ClusterRole().metadata(new V1ObjectMeta().name(role)))
			.execute();
		KubernetesEventRecorder recorder = recorder(admin, EventApi.EVENTS_V1, Duration.ofSeconds(1));
		recorder.normal(configMap, "German", "Die Einstellungen f\u00fcr \u00c4nderungen: " + "\u00fc".repeat(600));
		recorder.normal(configMap, "Japanese", "\u8a2d\u5b9a\u3092\u540c\u671f\u3057\u307e\u3057\u305f".repeat(60));
		recorder.normal(configMap, "Emoji", "\ud83d\ude80".repeat(400));
		recorder.record(configMap, Event.warning("").action("").message("no reason given"));
		recorder.normal(configMap, "R".repeat(200), "a long reason");
		recorder.normal(clusterRole, "Synced", "Synced the role");
		recorder.close();
		assertThat(recorder.droppedCount()).isZero();
		List<EventsV1Event> events = events(admin, namespace.name(), "settings");
		assertThat(events).extracting(EventsV1Event::getReason)
			.containsExactlyInAnyOrder("German", "Japanese", "Emoji", "Unknown", "R".repeat(128));
		assertThat(events).allSatisfy((event) -> {
			assertThat(event.getNote().getBytes(StandardCharsets.UTF_8).length)
				.isLessThanOrEqualTo(KubernetesEventRecorder.MESSAGE_LIMIT);
			assertThat(event.getAction()).isNotEmpty();
		});
		assertThat(events(admin, "default", role)).singleElement()
			.satisfies((event) -> assertThat(event.getRegarding().getName()).isEqualTo(role));
	}

	/**
	 * {@code eventTime} and {@code series.lastObservedTime} are {@code MicroTime}s: a
	 * burst's first and last occurrences, microseconds apart, stay apart.
	 */
	@Test
	void aSeriesKeepsTheMicrosecondsOfItsTimes(ApiClient admin, TestNamespace namespace) throws Exception {
		V1ConfigMap configMap = createdConfigMap(admin, namespace, "precise");
		KubernetesEventRecorder recorder = recorder(admin, EventApi.EVENTS_V1, Duration.ofHours(1));
		recorder.normal(configMap, "Synced", "Synced");
		await().atMost(WAIT).until(() -> events(admin, namespace.name(), "precise").size() == 1);
		recorder.normal(configMap, "Synced", "Synced");
		recorder.close();
		assertThat(events(admin, namespace.name(), "precise")).singleElement().satisfies((event) -> {
			assertThat(event.getSeries().getCount()).isEqualTo(2);
			assertThat(event.getSeries().getLastObservedTime()).isAfter(event.getEventTime());
			assertThat(List.of(event.getEventTime(), event.getSeries().getLastObservedTime()))
				.anyMatch((time) -> time.getNano() % 1_000_000_000 != 0);
		});
	}

	private static int series(ApiClient admin, TestNamespace namespace, String name) throws ApiException {
		List<EventsV1Event> events = events(admin, namespace.name(), name);
		return (events.size() == 1 && events.get(0).getSeries() != null) ? events.get(0).getSeries().getCount() : 0;
	}

	private static void grantCoreEvents(ApiClient admin, TestNamespace namespace, String user) throws ApiException {
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(admin);
		rbac.createNamespacedRole(namespace.name(),
				new V1Role().metadata(new V1ObjectMeta().name("core-events"))
					.addRulesItem(new V1PolicyRule().addApiGroupsItem("")
						.addResourcesItem("events")
						.addVerbsItem("create")
						.addVerbsItem("patch")))
			.execute();
		rbac.createNamespacedRoleBinding(namespace.name(),
				new V1RoleBinding().metadata(new V1ObjectMeta().name("core-events"))
					.roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("Role").name("core-events"))
					.addSubjectsItem(new RbacV1Subject().kind("User").name(user).apiGroup("rbac.authorization.k8s.io")))
			.execute();
	}

}
