package io.kubeboot.operator.benchmarks.harness;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubeboot.operator.benchmarks.model.Widget;
import io.kubeboot.operator.benchmarks.model.WidgetList;
import io.kubeboot.operator.test.ControlPlane;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.ApiextensionsV1Api;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.apis.VersionApi;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinition;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.PatchUtils;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;

/**
 * The harness's side of the control plane: installs the Widget CRD, creates namespaces
 * and widgets in parallel (setup, not measured), and checks and deletes them.
 */
final class Cluster {

	/**
	 * Threads creating objects in parallel.
	 */
	static final int SETUP_THREADS = 8;

	private static final String CRD_NAME = Widget.PLURAL + "." + Widget.GROUP;

	private static final String PAYLOAD = payload(256);

	private final ControlPlane controlPlane;

	private final ApiClient admin;

	private final GenericKubernetesApi<Widget, WidgetList> widgets;

	private final CustomObjectsApi customObjects;

	Cluster(ControlPlane controlPlane) {
		this(controlPlane, Duration.ZERO);
	}

	/**
	 * Creates the harness's side with a read timeout on every request, so that no request
	 * hangs on an API server that goes away.
	 * @param controlPlane the control plane
	 * @param readTimeout the read timeout, {@code 0} for none
	 */
	Cluster(ControlPlane controlPlane, Duration readTimeout) {
		this.controlPlane = controlPlane;
		this.admin = controlPlane.adminClient();
		this.admin.setReadTimeout((int) readTimeout.toMillis());
		this.widgets = new GenericKubernetesApi<>(Widget.class, WidgetList.class, Widget.GROUP, Widget.VERSION,
				Widget.PLURAL, this.admin);
		this.customObjects = new CustomObjectsApi(this.admin);
	}

	ControlPlane controlPlane() {
		return this.controlPlane;
	}

	/**
	 * Returns the environment an operator process needs to reach the cluster.
	 * @return {@code KUBECONFIG}
	 */
	Map<String, String> clientEnvironment() {
		return Map.of("KUBECONFIG", this.controlPlane.kubeconfig().toString());
	}

	String serverVersion() throws ApiException {
		return new VersionApi(this.admin).getCode().execute().getGitVersion();
	}

	/**
	 * Installs the Widget CRD (structural schema, status subresource) and waits until it
	 * is established and served.
	 * @throws Exception if it cannot be installed
	 */
	void installCrd() throws Exception {
		String crd = """
				{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
				 "metadata": {"name": "%s"},
				 "spec": {"group": "%s", "scope": "Namespaced",
				  "names": {"plural": "%s", "singular": "widget", "kind": "%s", "listKind": "%sList"},
				  "versions": [{"name": "%s", "served": true, "storage": true,
				   "subresources": {"status": {}},
				   "schema": {"openAPIV3Schema": {"type": "object", "properties": {
				    "spec": {"type": "object", "properties": {
				     "payload": {"type": "string"},
				     "replicas": {"type": "integer"},
				     "createdAt": {"type": "integer", "format": "int64"},
				     "value": {"type": "integer", "format": "int64"}}},
				    "status": {"type": "object", "properties": {
				     "observedGeneration": {"type": "integer", "format": "int64"},
				     "observedValue": {"type": "integer", "format": "int64"}}}}}}}]}}
				""".formatted(CRD_NAME, Widget.GROUP, Widget.PLURAL, Widget.KIND, Widget.KIND, Widget.VERSION);
		KubernetesApiResponse<DynamicKubernetesObject> created = new DynamicKubernetesApi("apiextensions.k8s.io", "v1",
				"customresourcedefinitions", this.admin)
			.create(new DynamicKubernetesObject(JsonParser.parseString(crd).getAsJsonObject()));
		if (!created.isSuccess() && created.getHttpStatusCode() != 409) {
			throw new IllegalStateException("Cannot create the Widget CRD: " + created.getStatus());
		}
		ApiextensionsV1Api extensions = new ApiextensionsV1Api(this.admin);
		long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
		while (true) {
			V1CustomResourceDefinition current = extensions.readCustomResourceDefinition(CRD_NAME).execute();
			boolean established = current.getStatus() != null && current.getStatus().getConditions() != null
					&& current.getStatus()
						.getConditions()
						.stream()
						.anyMatch((condition) -> "Established".equals(condition.getType())
								&& "True".equals(condition.getStatus()));
			if (established && this.widgets.list("default").isSuccess()) {
				return;
			}
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("The Widget CRD was not established within 60 s");
			}
			Thread.sleep(100);
		}
	}

	void createNamespace(String namespace) throws ApiException {
		new CoreV1Api(this.admin).createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace)))
			.execute();
	}

	/**
	 * Creates widgets named {@code widget-00000} ... in parallel with
	 * {@value #SETUP_THREADS} threads; each carries the time its create request was sent
	 * in {@code spec.createdAt}.
	 * @param namespace the namespace
	 * @param count how many
	 * @throws Exception if one cannot be created
	 */
	void createWidgets(String namespace, int count) throws Exception {
		inParallel(count, (index) -> createWidget(namespace, "widget-%05d".formatted(index)));
	}

	/**
	 * Creates one widget, carrying the time its create request was sent in
	 * {@code spec.createdAt}.
	 * @param namespace the namespace
	 * @param name the name
	 * @throws ApiException if it cannot be created
	 */
	void createWidget(String namespace, String name) throws ApiException {
		Widget widget = new Widget();
		widget.setMetadata(new V1ObjectMeta().namespace(namespace)
			.name(name)
			.labels(Map.of("app.kubernetes.io/name", "widget", "benchmark", "operator")));
		Widget.Spec spec = new Widget.Spec();
		spec.setPayload(PAYLOAD);
		spec.setReplicas(3);
		spec.setCreatedAt(System.currentTimeMillis());
		widget.setSpec(spec);
		this.widgets.create(widget).throwsApiException();
	}

	/**
	 * Writes {@code status.observedGeneration} of every widget, as an operator would, so
	 * that the objects are in their steady state.
	 * @param namespace the namespace
	 * @throws Exception if a patch fails
	 */
	void observeAll(String namespace) throws Exception {
		List<Widget> items = list(namespace);
		inParallel(items.size(), (index) -> {
			Widget widget = items.get(index);
			V1Patch patch = new V1Patch(
					"{\"status\":{\"observedGeneration\":" + widget.getMetadata().getGeneration() + "}}");
			PatchUtils.patch(Widget.class,
					() -> this.customObjects
						.patchNamespacedCustomObjectStatus(Widget.GROUP, Widget.VERSION, namespace, Widget.PLURAL,
								widget.getMetadata().getName(), patch)
						.buildCall(null),
					V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, this.admin);
		});
	}

	/**
	 * Counts the widgets whose status is up to date.
	 * @param namespace the namespace
	 * @return widgets with {@code status.observedGeneration == metadata.generation}
	 * @throws ApiException if the list fails
	 */
	int countObserved(String namespace) throws ApiException {
		return (int) list(namespace).stream()
			.filter((widget) -> widget.getStatus() != null
					&& Objects.equals(widget.getStatus().getObservedGeneration(), widget.getMetadata().getGeneration()))
			.count();
	}

	/**
	 * Sets {@code spec.value} of a widget with a merge patch, which is idempotent: sent
	 * again, it leaves the same object.
	 * @param namespace the namespace
	 * @param name the name
	 * @param value the value
	 * @throws ApiException if the patch fails
	 */
	void setValue(String namespace, String name, long value) throws ApiException {
		V1Patch patch = new V1Patch("{\"spec\":{\"value\":" + value + "}}");
		PatchUtils.patch(Widget.class,
				() -> this.customObjects
					.patchNamespacedCustomObject(Widget.GROUP, Widget.VERSION, namespace, Widget.PLURAL, name, patch)
					.buildCall(null),
				V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, this.admin);
	}

	/**
	 * Reads a Lease.
	 * @param namespace the namespace
	 * @param name the name
	 * @return the Lease
	 * @throws ApiException if it cannot be read (404 if it does not exist)
	 */
	V1Lease lease(String namespace, String name) throws ApiException {
		return new CoordinationV1Api(this.admin).readNamespacedLease(name, namespace).execute();
	}

	/**
	 * Lists the Leases of a namespace that carry a label.
	 * @param namespace the namespace
	 * @param labelSelector the label selector, e.g. {@code ring=widgets}
	 * @return the Leases
	 * @throws ApiException if they cannot be listed
	 */
	List<V1Lease> leases(String namespace, String labelSelector) throws ApiException {
		return new CoordinationV1Api(this.admin).listNamespacedLease(namespace)
			.labelSelector(labelSelector)
			.execute()
			.getItems();
	}

	List<Widget> list(String namespace) throws ApiException {
		return this.widgets.list(namespace).throwsApiException().getObject().getItems();
	}

	/**
	 * Reads a widget as the API server serves it, without a model class in between
	 * (client-java's models drop {@code metadata.managedFields} when they parse).
	 * @param namespace the namespace
	 * @param name the name
	 * @return the JSON object
	 */
	JsonObject rawWidget(String namespace, String name) {
		return new DynamicKubernetesApi(Widget.GROUP, Widget.VERSION, Widget.PLURAL, this.admin).get(namespace, name)
			.getObject()
			.getRaw();
	}

	/**
	 * Deletes every widget of a namespace (the namespace itself stays: without a
	 * controller manager it would never finish terminating).
	 * @param namespace the namespace
	 * @throws ApiException if the deletion fails
	 */
	void deleteWidgets(String namespace) throws ApiException {
		this.customObjects
			.deleteCollectionNamespacedCustomObject(Widget.GROUP, Widget.VERSION, namespace, Widget.PLURAL)
			.execute();
	}

	private static void inParallel(int count, IndexTask task) throws Exception {
		ExecutorService threads = Executors.newFixedThreadPool(SETUP_THREADS);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int thread = 0; thread < SETUP_THREADS; thread++) {
				int first = thread;
				futures.add(threads.submit(() -> {
					for (int index = first; index < count; index += SETUP_THREADS) {
						withRetries(task, index);
					}
					return null;
				}));
			}
			for (Future<?> future : futures) {
				future.get();
			}
		}
		finally {
			threads.shutdownNow();
		}
	}

	private static void withRetries(IndexTask task, int index) throws Exception {
		for (int attempt = 1;; attempt++) {
			try {
				task.run(index);
				return;
			}
			catch (ApiException ex) {
				boolean retriable = ex.getCode() == 0 || ex.getCode() == 429 || ex.getCode() >= 500;
				if (!retriable || attempt == 5) {
					throw ex;
				}
				Thread.sleep(100L * attempt);
			}
		}
	}

	private static String payload(int length) {
		StringBuilder payload = new StringBuilder(length);
		String words = "the quick brown fox jumps over the lazy dog ";
		while (payload.length() < length) {
			payload.append(words);
		}
		return payload.substring(0, length);
	}

	@FunctionalInterface
	private interface IndexTask {

		void run(int index) throws Exception;

	}

}
