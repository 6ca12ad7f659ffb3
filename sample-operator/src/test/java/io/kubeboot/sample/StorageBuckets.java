package io.kubeboot.sample;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.kubeboot.operator.model.Condition;
import io.kubeboot.operator.model.CustomResourceList;
import io.kubeboot.sample.storage.v1alpha1.StorageBucket;
import io.kubeboot.sample.storage.v1alpha1.StorageBucketSpec;
import io.kubeboot.sample.storage.v1alpha1.StorageBucketStatus;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.ApiextensionsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinition;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;

import static org.awaitility.Awaitility.await;

/**
 * StorageBuckets in tests: installs {@code deploy/crd.yaml} once per test JVM (the
 * control plane is shared by every test of the JVM), creates buckets and reads their
 * status and Events as a user would with {@code kubectl}.
 */
final class StorageBuckets {

	private static final String CRD = StorageBucket.PLURAL + "." + StorageBucket.GROUP;

	private static volatile boolean installed;

	private final ApiClient admin;

	private final String namespace;

	private final GenericKubernetesApi<StorageBucket, ?> api;

	StorageBuckets(ApiClient admin, String namespace) {
		this.admin = admin;
		this.namespace = namespace;
		this.api = new GenericKubernetesApi<>(StorageBucket.class, Listed.class, StorageBucket.GROUP,
				StorageBucket.VERSION, StorageBucket.PLURAL, admin);
	}

	/**
	 * Installs the CRD from {@code deploy/crd.yaml}, as {@code kubectl apply} would, and
	 * waits until the API server serves it.
	 */
	static synchronized void installCrd(ApiClient admin) throws Exception {
		if (installed) {
			return;
		}
		Manifests.create(admin, Manifests.load("crd.yaml").get(0));
		ApiextensionsV1Api api = new ApiextensionsV1Api(admin);
		await().atMost(Duration.ofSeconds(30)).until(() -> {
			V1CustomResourceDefinition crd = api.readCustomResourceDefinition(CRD).execute();
			return crd.getStatus() != null && crd.getStatus().getConditions() != null
					&& crd.getStatus()
						.getConditions()
						.stream()
						.anyMatch((condition) -> "Established".equals(condition.getType())
								&& "True".equals(condition.getStatus()));
		});
		installed = true;
	}

	StorageBucket create(String name, String endpoint) throws ApiException {
		StorageBucket bucket = new StorageBucket().metadata(new V1ObjectMeta().namespace(this.namespace).name(name))
			.spec(new StorageBucketSpec().bucketName(name)
				.region("test-1")
				.endpoint(endpoint)
				// short, as SampleArguments' probe timeout: the CRD's default is 5s
				.probeTimeoutSeconds(1));
		return this.api.create(bucket).throwsApiException().getObject();
	}

	/**
	 * Creates a bucket as {@code kubectl apply} would, returning the API server's answer
	 * whether it accepted the bucket or not.
	 */
	KubernetesApiResponse<StorageBucket> tryCreate(StorageBucket bucket) {
		bucket.getMetadata().setNamespace(this.namespace);
		return this.api.create(bucket);
	}

	/** Updates a bucket, returning the API server's answer. */
	KubernetesApiResponse<StorageBucket> tryUpdate(StorageBucket bucket) {
		return this.api.update(bucket);
	}

	StorageBucket get(String name) throws ApiException {
		return this.api.get(this.namespace, name).throwsApiException().getObject();
	}

	/** The bucket's {@code Available} condition, if it has one yet. */
	Optional<Condition> available(String name) throws ApiException {
		StorageBucket bucket = get(name);
		return (bucket.getStatus() != null) ? bucket.getStatus().condition(StorageBucketStatus.AVAILABLE)
				: Optional.empty();
	}

	/**
	 * The status of the bucket's {@code Available} condition, {@code "none"} without one.
	 */
	String availableStatus(String name) throws ApiException {
		return available(name).map(Condition::getStatus).orElse("none");
	}

	/**
	 * The Events about a bucket, as {@code kubectl describe storagebucket} lists them.
	 */
	List<CoreV1Event> events(String name) throws ApiException {
		return new CoreV1Api(this.admin).listNamespacedEvent(this.namespace)
			.fieldSelector("involvedObject.name=" + name)
			.execute()
			.getItems();
	}

	/** How often an Event of the type and reason was recorded about a bucket. */
	int eventCount(String name, String type, String reason) throws ApiException {
		return events(name).stream()
			.filter((event) -> type.equals(event.getType()) && reason.equals(event.getReason()))
			.mapToInt(StorageBuckets::occurrences)
			.sum();
	}

	/**
	 * How often an Event tells its event happened, as {@code kubectl describe} counts:
	 * the series of an {@code events.k8s.io/v1} Event, else the count of a
	 * {@code core/v1} one.
	 */
	static int occurrences(CoreV1Event event) {
		if (event.getSeries() != null && event.getSeries().getCount() != null) {
			return event.getSeries().getCount();
		}
		return (event.getCount() != null) ? event.getCount() : 1;
	}

	/** Deletes a bucket, as {@code kubectl delete storagebucket} does. */
	void delete(String name) throws ApiException {
		this.api.delete(this.namespace, name).throwsApiException();
	}

	/**
	 * Deletes a bucket, returning the API server's answer whether it deleted the bucket
	 * or not.
	 */
	KubernetesApiResponse<StorageBucket> tryDelete(String name) {
		return this.api.delete(this.namespace, name);
	}

	/** Whether the bucket exists, being deleted or not. */
	boolean exists(String name) throws ApiException {
		return this.api.get(this.namespace, name).isSuccess();
	}

	/** Changes a bucket's endpoint. */
	void changeEndpoint(String name, String endpoint) throws ApiException {
		StorageBucket bucket = get(name);
		bucket.getSpec().endpoint(endpoint);
		this.api.update(bucket).throwsApiException();
	}

	/** The ConfigMap of a bucket's connection details, if it exists. */
	Optional<V1ConfigMap> connection(String name) throws ApiException {
		try {
			return Optional
				.of(new CoreV1Api(this.admin).readNamespacedConfigMap(name + "-connection", this.namespace).execute());
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return Optional.empty();
			}
			throw ex;
		}
	}

	/** Replaces the data of a bucket's ConfigMap, as someone editing it would. */
	void tamperWithConnection(String name) throws ApiException {
		V1ConfigMap configMap = connection(name).orElseThrow();
		configMap.setData(Map.of("endpoint", "http://elsewhere"));
		new CoreV1Api(this.admin).replaceNamespacedConfigMap(name + "-connection", this.namespace, configMap).execute();
	}

	/**
	 * The list class client-java's {@code GenericKubernetesApi} needs; the operator
	 * itself has none.
	 */
	private static final class Listed extends CustomResourceList<StorageBucket> {

	}

}
