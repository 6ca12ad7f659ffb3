package io.kubeboot.operator.events;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.kubeboot.operator.manager.StopSignal;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * {@link KubernetesEventRecorder} writing {@code core/v1} Events against a real
 * kube-apiserver; {@code events.k8s.io/v1} in {@link EventsV1RecorderIntegrationTests}.
 */
@WithControlPlane
class KubernetesEventRecorderIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private final List<KubernetesEventRecorder> recorders = new ArrayList<>();

	private final List<Thread> writers = new ArrayList<>();

	@AfterEach
	void closeRecorders() {
		this.recorders.forEach(KubernetesEventRecorder::close);
		await().atMost(WAIT).until(() -> this.writers.stream().noneMatch(Thread::isAlive));
	}

	private KubernetesEventRecorder recorder(ApiClient client) {
		KubernetesEventRecorder recorder = KubernetesEventRecorder.builder(client)
			.component("test-operator")
			.reportingInstance("test-host")
			.flushTimeout(Duration.ofSeconds(20))
			.api(EventApi.CORE_V1)
			.build();
		this.recorders.add(recorder);
		// a thread of the test's own, as a manager would run it
		Thread writer = new Thread(() -> recorder.start(new StopSignal()), "test-event-writer");
		writer.setDaemon(true);
		this.writers.add(writer);
		writer.start();
		return recorder;
	}

	private static List<CoreV1Event> events(ApiClient admin, String namespace, String objectName) throws ApiException {
		return new CoreV1Api(admin).listNamespacedEvent(namespace)
			.fieldSelector("involvedObject.name=" + objectName)
			.execute()
			.getItems();
	}

	private static V1ConfigMap createdConfigMap(ApiClient admin, TestNamespace namespace, String name)
			throws ApiException {
		CoreV1Api core = new CoreV1Api(admin);
		core.createNamespacedConfigMap(namespace.name(), new V1ConfigMap().metadata(new V1ObjectMeta().name(name)))
			.execute();
		// read it from a list, as caches do: list items carry no kind and apiVersion
		return core.listNamespacedConfigMap(namespace.name())
			.fieldSelector("metadata.name=" + name)
			.execute()
			.getItems()
			.get(0);
	}

	@Test
	void normalEventAboutConfigMapIsWrittenWithReferenceReasonMessageTypeAndSource(ApiClient admin,
			TestNamespace namespace) throws Exception {
		V1ConfigMap configMap = createdConfigMap(admin, namespace, "settings");
		assertThat(configMap.getKind()).isNull();
		KubernetesEventRecorder recorder = recorder(admin);
		recorder.normal(configMap, "Synced", "Synced the settings");
		await().atMost(WAIT).until(() -> events(admin, namespace.name(), "settings").size() == 1);
		CoreV1Event event = events(admin, namespace.name(), "settings").get(0);
		assertThat(event.getMetadata().getName()).matches("settings\\.[0-9a-f]+");
		assertThat(event.getInvolvedObject().getApiVersion()).isEqualTo("v1");
		assertThat(event.getInvolvedObject().getKind()).isEqualTo("ConfigMap");
		assertThat(event.getInvolvedObject().getNamespace()).isEqualTo(namespace.name());
		assertThat(event.getInvolvedObject().getName()).isEqualTo("settings");
		assertThat(event.getInvolvedObject().getUid()).isEqualTo(configMap.getMetadata().getUid()).isNotBlank();
		assertThat(event.getInvolvedObject().getResourceVersion())
			.isEqualTo(configMap.getMetadata().getResourceVersion());
		assertThat(event.getReason()).isEqualTo("Synced");
		assertThat(event.getMessage()).isEqualTo("Synced the settings");
		assertThat(event.getType()).isEqualTo("Normal");
		assertThat(event.getSource().getComponent()).isEqualTo("test-operator");
		assertThat(event.getReportingComponent()).isEqualTo("test-operator");
		assertThat(event.getReportingInstance()).isEqualTo("test-host");
		assertThat(event.getCount()).isEqualTo(1);
		assertThat(event.getFirstTimestamp()).isNotNull();
		assertThat(event.getLastTimestamp()).isEqualTo(event.getFirstTimestamp());
	}

	@Test
	void hundredIdenticalEventsBecomeOneEventWithCountHundred(ApiClient admin, TestNamespace namespace)
			throws Exception {
		V1ConfigMap configMap = createdConfigMap(admin, namespace, "busy");
		KubernetesEventRecorder recorder = recorder(admin);
		for (int i = 0; i < 100; i++) {
			recorder.warning(configMap, "Failed", "Cannot reach the backend");
		}
		await().atMost(WAIT)
			.until(() -> events(admin, namespace.name(), "busy").stream().anyMatch((event) -> event.getCount() == 100));
		List<CoreV1Event> events = events(admin, namespace.name(), "busy");
		assertThat(events).singleElement().satisfies((event) -> {
			assertThat(event.getType()).isEqualTo("Warning");
			assertThat(event.getLastTimestamp()).isAfterOrEqualTo(event.getFirstTimestamp());
		});
		assertThat(recorder.droppedCount()).isZero();
	}

	@Test
	void hundredIdenticalEventsAreFlushedAsOneEventByClose(ApiClient admin, TestNamespace namespace) throws Exception {
		V1ConfigMap configMap = createdConfigMap(admin, namespace, "busy");
		KubernetesEventRecorder recorder = recorder(admin);
		for (int i = 0; i < 100; i++) {
			recorder.normal(configMap, "Synced", "Synced");
		}
		recorder.close();
		assertThat(events(admin, namespace.name(), "busy")).singleElement()
			.satisfies((event) -> assertThat(event.getCount()).isEqualTo(100));
		assertThat(recorder.droppedCount()).isZero();
	}

	@Test
	void differentReasonsGiveTwoEvents(ApiClient admin, TestNamespace namespace) throws Exception {
		V1ConfigMap configMap = createdConfigMap(admin, namespace, "settings");
		KubernetesEventRecorder recorder = recorder(admin);
		recorder.normal(configMap, "Created", "Created the backend");
		recorder.warning(configMap, "Failed", "Cannot reach the backend");
		recorder.close();
		assertThat(events(admin, namespace.name(), "settings"))
			.extracting(CoreV1Event::getReason, CoreV1Event::getType, CoreV1Event::getCount)
			.containsExactlyInAnyOrder(tuple("Created", "Normal", 1), tuple("Failed", "Warning", 1));
	}

	@Test
	void eventAboutClusterScopedObjectLandsInDefaultNamespace(ApiClient admin, TestNamespace namespace)
			throws Exception {
		CoreV1Api core = new CoreV1Api(admin);
		V1Namespace object = core.readNamespace(namespace.name()).execute();
		KubernetesEventRecorder recorder = recorder(admin);
		recorder.normal(object, "Provisioned", "Provisioned the namespace");
		recorder.close();
		List<CoreV1Event> events = events(admin, "default", namespace.name());
		try {
			assertThat(events).singleElement().satisfies((event) -> {
				assertThat(event.getMetadata().getNamespace()).isEqualTo("default");
				assertThat(event.getInvolvedObject().getKind()).isEqualTo("Namespace");
				assertThat(event.getInvolvedObject().getApiVersion()).isEqualTo("v1");
				assertThat(event.getInvolvedObject().getNamespace()).isNull();
				assertThat(event.getInvolvedObject().getUid()).isEqualTo(object.getMetadata().getUid());
			});
		}
		finally {
			for (CoreV1Event event : events) {
				core.deleteNamespacedEvent(event.getMetadata().getName(), "default").execute();
			}
		}
	}

	@Test
	void eventAboutObjectWithoutUidIsWritten(ApiClient admin, TestNamespace namespace) throws Exception {
		KubernetesEventRecorder recorder = recorder(admin);
		recorder.normal(new V1ConfigMap().metadata(new V1ObjectMeta().namespace(namespace.name()).name("planned")),
				"Planned", "Will create it");
		recorder.close();
		assertThat(events(admin, namespace.name(), "planned")).singleElement().satisfies((event) -> {
			assertThat(event.getInvolvedObject().getUid()).isNull();
			assertThat(event.getInvolvedObject().getKind()).isEqualTo("ConfigMap");
		});
	}

	@Test
	void apiVersionOfUnprefixedModelComesFromDiscovery(ApiClient admin, TestNamespace namespace) throws Exception {
		KubernetesEventRecorder recorder = recorder(admin);
		recorder.normal(new V1Lease().metadata(new V1ObjectMeta().namespace(namespace.name()).name("lock")), "Held",
				"Held the lock");
		recorder.close();
		assertThat(events(admin, namespace.name(), "lock")).singleElement().satisfies((event) -> {
			assertThat(event.getInvolvedObject().getApiVersion()).isEqualTo("coordination.k8s.io/v1");
			assertThat(event.getInvolvedObject().getKind()).isEqualTo("Lease");
		});
	}

	@Test
	void expiredEventIsCreatedAgain(ApiClient admin, TestNamespace namespace) throws Exception {
		V1ConfigMap configMap = createdConfigMap(admin, namespace, "settings");
		KubernetesEventRecorder recorder = recorder(admin);
		recorder.normal(configMap, "Synced", "Synced");
		await().atMost(WAIT).until(() -> events(admin, namespace.name(), "settings").size() == 1);
		String first = events(admin, namespace.name(), "settings").get(0).getMetadata().getName();
		new CoreV1Api(admin).deleteNamespacedEvent(first, namespace.name()).execute();
		recorder.normal(configMap, "Synced", "Synced");
		recorder.close();
		assertThat(events(admin, namespace.name(), "settings")).singleElement().satisfies((event) -> {
			assertThat(event.getMetadata().getName()).isNotEqualTo(first);
			assertThat(event.getCount()).isEqualTo(1);
		});
		assertThat(recorder.droppedCount()).isZero();
	}

	@Test
	void forbiddenWriteIsDroppedWithoutThrowing(ControlPlane controlPlane, ApiClient admin, TestNamespace namespace)
			throws Exception {
		V1ConfigMap configMap = createdConfigMap(admin, namespace, "settings");
		KubernetesEventRecorder recorder = recorder(controlPlane.clientFor("user1"));
		recorder.warning(configMap, "Failed", "Cannot reach the backend");
		await().atMost(WAIT).until(() -> recorder.droppedCount() == 1);
		assertThat(events(admin, namespace.name(), "settings")).isEmpty();
	}

}
