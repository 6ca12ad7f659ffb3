package io.kubeboot.operator.cache.internal;

import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.function.IntFunction;

import javax.management.ObjectName;

import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.model.PartialObjectMetadata;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Secret;

/**
 * How close the cache's heap estimate ({@link HeapSampler}, {@link HeapEstimator}) comes
 * to the heap cached objects retain, and what one pass costs: a measurement that prints
 * its numbers and never fails on them. For each population, objects are decoded from JSON
 * with client-java's, passed through the cache's transform (its string sharing included)
 * into a store; the heap they retain is the live heap after a full collection with them
 * minus that before, both read from HotSpot's class histogram. Each population is then
 * estimated 20 times, each a fresh pass with its own sample. Run it from the repository
 * root with {@code mvn -B -pl benchmarks -am verify -DskipTests -Pcache-cost}; the
 * figures of {@code docs/design/cache-cost.md} come from it. In this package to reach the
 * cache's internals; nothing of it ships.
 */
public final class HeapEstimateCalibration {

	private static final JSON JSON = new JSON();

	private final Random random = new Random(42);

	private HeapEstimateCalibration() {
	}

	public static void main(String[] args) throws Exception {
		new HeapEstimateCalibration().run();
		System.exit(0);
	}

	private void run() throws Exception {
		// loads and compiles what the measurements would otherwise count
		measure("warm-up", V1ConfigMap.class, 2_000, this::configMap, false);
		liveHeap();
		List<String> rows = new ArrayList<>();
		rows.add(measure("ConfigMap, 3 keys", V1ConfigMap.class, 20_000, this::configMap, false));
		rows.add(measure("Secret, service account token", V1Secret.class, 20_000, this::tokenSecret, false));
		rows.add(measure("Secret, TLS", V1Secret.class, 20_000, this::tlsSecret, false));
		rows.add(measure("Secret, 2% Helm releases of 200 KB", V1Secret.class, 10_000, this::mixedSecret, false));
		rows.add(measure("Pod, 2 containers, running", V1Pod.class, 10_000, this::pod, false));
		rows.add(measure("Event", CoreV1Event.class, 20_000, this::event, false));
		rows.add(measure("Pod, metadata only", V1Pod.class, 20_000, this::pod, true));
		rows.add(measure("Pod of a StatefulSet, metadata only", V1Pod.class, 20_000, this::statefulPod, true));
		rows.add(measure("Pod of a StatefulSet, 500 namespaces, metadata only", V1Pod.class, 20_000,
				this::spreadStatefulPod, true));
		rows.add(measure("ConfigMap, 1,000 of 4 KB then 1,000 of 40 KB", V1ConfigMap.class, 2_000,
				(i) -> (i < 1_000) ? sizedConfigMap(i, 4_000) : sizedConfigMap(i, 40_000), false));
		System.out.println();
		System.out.println("| objects | JSON bytes each | heap retained each | estimates (20 passes) | one pass |");
		System.out.println("|---|---|---|---|---|");
		rows.forEach(System.out::println);
		System.out.println();
		System.out.println("| objects held | one pass, median of 5 |");
		System.out.println("|---|---|");
		System.out.println(time("20,000 Pods, 2 containers", V1Pod.class, 20_000, this::pod));
		System.out.println(time("2,000 Secrets of 200 KB", V1Secret.class, 2_000, (i) -> sizedSecret(i, 200_000)));
		System.out.println(time("256 ConfigMaps of 1 MB", V1ConfigMap.class, 256, (i) -> sizedConfigMap(i, 1_000_000)));
	}

	private String measure(String label, Class<? extends KubernetesObject> type, int count, IntFunction<String> json,
			boolean metadataOnly) throws Exception {
		MetadataDeduplicator deduplicator = new MetadataDeduplicator();
		Class<? extends KubernetesObject> stored = metadataOnly ? PartialObjectMetadata.class : type;
		InformerKey key = new InformerKey(type, null, null, metadataOnly);
		StoreTransform<KubernetesObject> transform = new StoreTransform<>(key, KubernetesObject.class,
				metadataOnly ? "v1" : null, metadataOnly ? type.getSimpleName() : null, true, null, deduplicator);
		List<String> documents = new ArrayList<>(count);
		long jsonBytes = 0;
		for (int i = 0; i < count; i++) {
			documents.add(json.apply(i));
			jsonBytes += documents.get(i).length();
		}
		ObjectStore<KubernetesObject> store = new ObjectStore<>();
		long before = liveHeap();
		for (String document : documents) {
			store.add((KubernetesObject) transform.transform(JSON.deserialize(document, stored)));
		}
		long retained = liveHeap() - before;
		Reference.reachabilityFence(documents);
		HeapSampler sampler = new HeapSampler(new HeapEstimator(ObjectLayout.current()));
		double low = Double.MAX_VALUE;
		double high = 0;
		long nanos = 0;
		for (int i = 0; i < 20; i++) {
			long start = System.nanoTime();
			HeapSampler.Estimate estimate = sampler.estimate(store, this.random);
			nanos += System.nanoTime() - start;
			double total = estimate.averageBytes() * store.size();
			low = Math.min(low, total);
			high = Math.max(high, total);
		}
		Reference.reachabilityFence(store);
		return "| %s (%,d) | %,d | %,d | %+.1f%% to %+.1f%% | %.1f ms |".formatted(label, count, jsonBytes / count,
				retained / count, 100.0 * (low - retained) / retained, 100.0 * (high - retained) / retained,
				nanos / 20 / 1e6);
	}

	private String time(String label, Class<? extends KubernetesObject> type, int count, IntFunction<String> json) {
		MetadataDeduplicator deduplicator = new MetadataDeduplicator();
		InformerKey key = new InformerKey(type, null, null);
		StoreTransform<KubernetesObject> transform = new StoreTransform<>(key, KubernetesObject.class, null, null, true,
				null, deduplicator);
		ObjectStore<KubernetesObject> store = new ObjectStore<>();
		for (int i = 0; i < count; i++) {
			store.add((KubernetesObject) transform.transform(JSON.deserialize(json.apply(i), type)));
		}
		HeapSampler sampler = new HeapSampler(new HeapEstimator(ObjectLayout.current()));
		List<Long> nanos = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			long start = System.nanoTime();
			sampler.estimate(store, this.random);
			nanos.add(System.nanoTime() - start);
		}
		nanos.remove(0); // the first compiles the walk
		nanos.sort(null);
		return "| %s | %.1f ms |".formatted(label, nanos.get(2) / 1e6);
	}

	/**
	 * The live heap, in bytes, after the full collection that HotSpot's class histogram
	 * runs.
	 */
	private static long liveHeap() throws Exception {
		String histogram = (String) ManagementFactory.getPlatformMBeanServer()
			.invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
					new Object[] { new String[0] }, new String[] { String[].class.getName() });
		String[] lines = histogram.trim().split("\n");
		String[] total = lines[lines.length - 1].trim().split("\\s+");
		return Long.parseLong(total[2]);
	}

	private String metadata(String kind, int i, boolean labelled) {
		return """
				"apiVersion": "v1", "kind": "%s", "metadata": {"name": "object-%s-%d", "namespace": "team-%d",
				 "uid": "%s", "resourceVersion": "%d", "creationTimestamp": "2026-11-01T10:%02d:%02dZ"%s,
				 "annotations": {"checksum/config": "%s"}}""".formatted(kind, text(6), i, i % 50, UUID.randomUUID(),
				100_000 + i, i % 60, (i / 60) % 60,
				labelled ? ", \"labels\": {\"app.kubernetes.io/name\": \"shop\", \"app.kubernetes.io/instance\": "
						+ "\"shop-" + (i % 20) + "\"}" : "",
				text(64));
	}

	private String configMap(int i) {
		return "{" + metadata("ConfigMap", i, true) + ", \"data\": {\"application.properties\": \"" + text(300)
				+ "\", \"LOG_LEVEL\": \"info\", \"FEATURE\": \"" + text(20) + "\"}}";
	}

	private String tokenSecret(int i) {
		return "{" + metadata("Secret", i, true) + ", \"type\": \"kubernetes.io/service-account-token\", \"data\": "
				+ "{\"ca.crt\": \"" + base64(1100) + "\", \"namespace\": \"" + base64(10) + "\", \"token\": \""
				+ base64(900) + "\"}}";
	}

	private String statefulPod(int i) {
		return "{" + metadata("Pod", i, true).replace("\"labels\": {",
				"\"labels\": {\"statefulset.kubernetes.io/pod-name\": " + "\"shop-" + i
						+ "\", \"apps.kubernetes.io/pod-index\": \"" + i + "\", \"controller-revision-hash\": "
						+ "\"shop-" + text(10) + "\", ")
				+ "}";
	}

	private String spreadStatefulPod(int i) {
		return statefulPod(i).replace("\"namespace\": \"team-" + (i % 50) + "\"",
				"\"namespace\": \"team-" + (i % 500) + "\"");
	}

	private String sizedConfigMap(int i, int bytes) {
		return "{" + metadata("ConfigMap", i, true) + ", \"data\": {\"value\": \"" + text(bytes) + "\"}}";
	}

	private String sizedSecret(int i, int bytes) {
		return "{" + metadata("Secret", i, true) + ", \"type\": \"helm.sh/release.v1\", \"data\": {\"release\": \""
				+ base64(bytes) + "\"}}";
	}

	private String tlsSecret(int i) {
		return "{" + metadata("Secret", i, true) + ", \"type\": \"kubernetes.io/tls\", \"data\": {\"tls.crt\": \""
				+ base64(2000) + "\", \"tls.key\": \"" + base64(1700) + "\"}}";
	}

	private String mixedSecret(int i) {
		if (i % 100 < 2) {
			return "{" + metadata("Secret", i, true) + ", \"type\": \"helm.sh/release.v1\", \"data\": {\"release\": \""
					+ base64(150_000) + "\"}}";
		}
		return (i % 100 < 40) ? tlsSecret(i) : tokenSecret(i);
	}

	private String pod(int i) {
		return "{" + metadata("Pod", i, true) + ", \"spec\": {\"nodeName\": \"node-" + (i % 30)
				+ "\", \"serviceAccountName\": \"shop\", \"restartPolicy\": \"Always\", "
				+ "\"terminationGracePeriodSeconds\": 30, \"containers\": [" + container("app", i) + ", "
				+ container("sidecar", i) + "], \"volumes\": [{\"name\": \"config\", \"configMap\": {\"name\": "
				+ "\"shop-config\", \"defaultMode\": 420}}, {\"name\": \"kube-api-access-" + text(5)
				+ "\", \"projected\": {\"defaultMode\": 420, \"sources\": [{\"serviceAccountToken\": "
				+ "{\"expirationSeconds\": 3607, \"path\": \"token\"}}, {\"configMap\": {\"name\": "
				+ "\"kube-root-ca.crt\", "
				+ "\"items\": [{\"key\": \"ca.crt\", \"path\": \"ca.crt\"}]}}]}}], \"tolerations\": [{\"key\": "
				+ "\"node.kubernetes.io/not-ready\", \"operator\": \"Exists\", \"effect\": \"NoExecute\", "
				+ "\"tolerationSeconds\": 300}]}, \"status\": {\"phase\": \"Running\", \"podIP\": \"10.1." + (i % 250)
				+ "." + (i % 200) + "\", \"hostIP\": \"192.168.0." + (i % 30) + "\", \"startTime\": "
				+ "\"2026-11-01T10:00:05Z\", \"qosClass\": \"Burstable\", \"conditions\": [" + condition("Initialized")
				+ ", " + condition("Ready") + ", " + condition("ContainersReady") + ", " + condition("PodScheduled")
				+ "], \"containerStatuses\": [" + containerStatus("app") + ", " + containerStatus("sidecar") + "]}}";
	}

	private String container(String name, int i) {
		return "{\"name\": \"" + name + "\", \"image\": \"registry.example.com/shop/" + name + ":1." + (i % 10)
				+ ".0\", \"imagePullPolicy\": \"IfNotPresent\", \"ports\": [{\"containerPort\": 8080, "
				+ "\"name\": \"http\", "
				+ "\"protocol\": \"TCP\"}], \"env\": [{\"name\": \"JAVA_OPTS\", \"value\": \"-Xmx512m\"}, "
				+ "{\"name\": \"POD_NAME\", \"valueFrom\": {\"fieldRef\": {\"apiVersion\": \"v1\", \"fieldPath\": "
				+ "\"metadata.name\"}}}], \"resources\": {\"limits\": {\"cpu\": \"500m\", \"memory\": \"512Mi\"}, "
				+ "\"requests\": {\"cpu\": \"100m\", \"memory\": \"256Mi\"}}, \"volumeMounts\": "
				+ "[{\"name\": \"config\", "
				+ "\"mountPath\": \"/config\"}], \"readinessProbe\": {\"httpGet\": {\"path\": \"/readyz\", "
				+ "\"port\": 8080, "
				+ "\"scheme\": \"HTTP\"}, \"periodSeconds\": 5, \"timeoutSeconds\": 1, \"successThreshold\": 1, "
				+ "\"failureThreshold\": 3}, \"terminationMessagePath\": \"/dev/termination-log\", "
				+ "\"terminationMessagePolicy\": \"File\"}";
	}

	private static String condition(String type) {
		return "{\"type\": \"" + type + "\", \"status\": \"True\", \"lastProbeTime\": null, "
				+ "\"lastTransitionTime\": \"2026-11-01T10:00:06Z\"}";
	}

	private String containerStatus(String name) {
		return "{\"name\": \"" + name + "\", \"ready\": true, \"restartCount\": 0, \"started\": true, \"image\": "
				+ "\"registry.example.com/shop/" + name + ":1.0.0\", \"imageID\": \"registry.example.com/shop/" + name
				+ "@sha256:" + text(64) + "\", \"containerID\": \"containerd://" + text(64) + "\", \"state\": "
				+ "{\"running\": {\"startedAt\": \"2026-11-01T10:00:06Z\"}}}";
	}

	private String event(int i) {
		return "{" + metadata("Event", i, false) + ", \"involvedObject\": {\"kind\": \"Pod\", \"namespace\": \"team-"
				+ (i % 50) + "\", \"name\": \"shop-" + text(10) + "\", \"uid\": \"" + UUID.randomUUID()
				+ "\", \"apiVersion\": \"v1\", \"resourceVersion\": \"" + i + "\", \"fieldPath\": "
				+ "\"spec.containers{app}\"}, \"reason\": \"Pulled\", \"message\": \"Container image "
				+ "\\\"registry.example.com/shop/app:1.0.0\\\" already present on machine\", "
				+ "\"source\": {\"component\": " + "\"kubelet\", \"host\": \"node-" + (i % 30)
				+ "\"}, \"firstTimestamp\": \"2026-11-01T10:00:05Z\", "
				+ "\"lastTimestamp\": \"2026-11-01T10:00:05Z\", \"count\": 1, \"type\": \"Normal\", "
				+ "\"reportingComponent\": \"kubelet\", \"reportingInstance\": \"node-" + (i % 30) + "\"}";
	}

	private String text(int length) {
		String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
		StringBuilder text = new StringBuilder(length);
		for (int i = 0; i < length; i++) {
			text.append(alphabet.charAt(this.random.nextInt(alphabet.length())));
		}
		return text.toString();
	}

	private String base64(int bytes) {
		byte[] raw = new byte[bytes];
		this.random.nextBytes(raw);
		return Base64.getEncoder().encodeToString(raw);
	}

}
