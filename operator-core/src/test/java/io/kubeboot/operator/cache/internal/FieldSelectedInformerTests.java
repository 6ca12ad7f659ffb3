package io.kubeboot.operator.cache.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubeboot.operator.cache.FieldSelectorNotSupportedException;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerState;
import io.kubeboot.operator.reconcile.Result;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.kubeboot.operator.cache.internal.ObjectDecoderTests.event;
import static io.kubeboot.operator.cache.internal.ObjectDecoderTests.gadget;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests that an informer with a field selector sends it with every list and watch, and
 * that the API server refusing it fails start-up at once, naming the field selector, the
 * kind and the controller: against a scripted API server.
 */
class FieldSelectedInformerTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static final String GADGETS = "/apis/test.kubeboot.io/v1/namespaces/ns/gadgets";

	private static final String END = "{\"type\": \"BOOKMARK\", \"object\": {\"apiVersion\": \"test.kubeboot.io/v1\", "
			+ "\"kind\": \"Gadget\", \"metadata\": {\"resourceVersion\": \"42\", \"annotations\": "
			+ "{\"k8s.io/initial-events-end\": \"true\"}}}}";

	private static final String REFUSED = "{\"kind\": \"Status\", \"apiVersion\": \"v1\", \"status\": \"Failure\", "
			+ "\"message\": \"field label not supported: spec.shape\", \"reason\": \"BadRequest\", \"code\": 400}";

	/** The query of every request for gadgets, in order. */
	private final List<Map<String, String>> requests = new CopyOnWriteArrayList<>();

	private final CountDownLatch done = new CountDownLatch(1);

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private HttpServer server;

	private InformerCache cache;

	private Manager manager;

	@AfterEach
	void stop() {
		this.done.countDown();
		if (this.cache != null) {
			this.cache.stop();
		}
		if (this.manager != null) {
			this.manager.stop();
		}
		if (this.server != null) {
			this.server.stop(0);
		}
		this.executor.shutdownNow();
	}

	@Test
	void aStreamedListAndTheWatchAskForTheFieldSelector() throws Exception {
		InformerCache cache = startCache(true);
		ScopedInformer<Gadget> informer = (ScopedInformer<Gadget>) cache.informer(Gadget.class, "ns", "app=x",
				"spec.color=blue");
		assertThat(informer.key()).isEqualTo(new InformerKey(Gadget.class, "ns", "app=x", "spec.color=blue", false));
		syncAndWatch(cache);
		assertThat(this.requests.get(0)).containsEntry("sendInitialEvents", "true")
			.containsEntry("labelSelector", "app=x")
			.containsEntry("fieldSelector", "spec.color=blue");
		assertThat(this.requests.get(1)).containsEntry("watch", "true")
			.containsEntry("resourceVersion", "42")
			.containsEntry("labelSelector", "app=x")
			.containsEntry("fieldSelector", "spec.color=blue")
			.doesNotContainKey("sendInitialEvents");
		assertThat(informer.list()).extracting((gadget) -> gadget.getMetadata().getName()).containsExactly("blue");
	}

	@Test
	void aListInPagesAndTheWatchAskForTheFieldSelector() throws Exception {
		InformerCache cache = startCache(false);
		ScopedInformer<Gadget> informer = (ScopedInformer<Gadget>) cache.informer(Gadget.class, "ns", null,
				"spec.color=blue");
		syncAndWatch(cache);
		assertThat(this.requests.get(0)).doesNotContainKey("watch")
			.doesNotContainKey("labelSelector")
			.containsEntry("fieldSelector", "spec.color=blue");
		assertThat(this.requests.get(1)).containsEntry("watch", "true")
			.containsEntry("fieldSelector", "spec.color=blue");
		assertThat(informer.list()).hasSize(1);
	}

	@Test
	void aMetadataOnlyInformerAsksForTheFieldSelectorToo() throws Exception {
		InformerCache cache = startCache(true);
		cache.metadataInformer(Gadget.class, "ns", null, "spec.color=blue");
		syncAndWatch(cache);
		assertThat(this.requests)
			.allSatisfy((query) -> assertThat(query).containsEntry("fieldSelector", "spec.color=blue"));
	}

	@Test
	void aMalformedFieldSelectorFailsWhereTheInformerIsAskedFor() throws Exception {
		InformerCache cache = startCache(true);
		assertThat(cache.informers()).isEmpty();
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> cache.informer(Gadget.class, "ns", null, "spec.color"))
			.withMessage("Cannot parse field selector 'spec.color' at 'spec.color': it has no operator (=, == or !=)");
		assertThat(cache.informers()).isEmpty();
	}

	@Test
	void aRefusedFieldSelectorFailsStartUpAtOnceNamingItTheKindAndTheController() throws Exception {
		serve();
		this.manager = Manager.builder(client())
			.namespace("ns")
			.cacheSyncTimeout(Duration.ofMinutes(1))
			.gracefulShutdownTimeout(Duration.ofMillis(500))
			.build();
		Controller.builder(this.manager, Gadget.class)
			.fieldSelector("spec.shape=round")
			.complete((request) -> Result.done());
		long started = System.nanoTime();
		assertThatExceptionOfType(FieldSelectorNotSupportedException.class).isThrownBy(this.manager::start)
			.withMessage("The API server does not support the field selector 'spec.shape=round' of Gadget "
					+ "(test.kubeboot.io/v1), asked for by controller-gadget (informer Gadget[namespace=ns, "
					+ "fieldSelector=spec.shape=round]): 400 Bad Request: field label not supported: spec.shape. A "
					+ "custom resource can be selected by metadata.name, metadata.namespace and the fields its "
					+ "CustomResourceDefinition declares in selectableFields; a built-in kind by metadata.name, "
					+ "metadata.namespace and the fields the API server supports for it")
			.satisfies((ex) -> {
				assertThat(ex.users()).containsExactly("controller-gadget");
				assertThat(ex.informer())
					.isEqualTo(new InformerKey(Gadget.class, "ns", null, "spec.shape=round", false));
			});
		// long before the sync timeout
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(30));
		assertThat(this.manager.state()).isEqualTo(ManagerState.FAILED);
		// the refusal did not turn streaming off, nor was it asked again in pages
		assertThat(this.requests).isNotEmpty()
			.allSatisfy((query) -> assertThat(query).containsEntry("sendInitialEvents", "true")
				.containsEntry("fieldSelector", "spec.shape=round"));
	}

	@Test
	void anInformerHoldsAWriteOnlyIfItMatchesTheFieldSelector() {
		ScopedInformer<V1Pod> informer = TestCostTrackers.informer(
				new InformerKey(V1Pod.class, "ns", "app=web", "spec.nodeName=node-1", false),
				new ScopedInformer.Settings(new ApiClient(), Duration.ZERO, Duration.ofMinutes(1), 500, true));
		assertThat(informer.holds(pod("ns", "web", "node-1"))).isTrue();
		// the cache would never see these: a read of them must not wait for it
		assertThat(informer.holds(pod("ns", "web", "node-2"))).isFalse();
		assertThat(informer.holds(pod("ns", "web", null))).isFalse();
		assertThat(informer.holds(pod("ns", "api", "node-1"))).isFalse();
		assertThat(informer.holds(pod("other", "web", "node-1"))).isFalse();
	}

	private InformerCache startCache(boolean streamingLists) throws IOException {
		serve();
		this.cache = new InformerCache(client(), Duration.ZERO, true, Duration.ofMinutes(1), Duration.ofMinutes(3), 500,
				streamingLists, Map.of());
		return this.cache;
	}

	private void syncAndWatch(InformerCache cache) throws InterruptedException {
		cache.resolveAll(WAIT);
		cache.start(null);
		cache.waitForSync(WAIT);
		await().atMost(WAIT).until(() -> this.requests.size() >= 2);
	}

	private ApiClient client() {
		return new ApiClient().setBasePath("http://127.0.0.1:" + this.server.getAddress().getPort());
	}

	private static V1Pod pod(String namespace, String app, String node) {
		return new V1Pod().metadata(new V1ObjectMeta().namespace(namespace).name(app).putLabelsItem("app", app))
			.spec(new V1PodSpec().nodeName(node));
	}

	/**
	 * Serves discovery, access reviews and the gadgets: a field selector on
	 * {@code spec.shape} is refused as kube-apiserver refuses a field the kind's CRD does
	 * not declare selectable; lists and streamed lists hold one gadget, and watches stay
	 * open without an event.
	 */
	private void serve() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
		this.server.setExecutor(this.executor);
		this.server.createContext("/", this::answer);
		this.server.start();
	}

	private void answer(HttpExchange exchange) throws IOException {
		try (exchange) {
			String path = exchange.getRequestURI().getPath();
			if (path.equals("/apis/test.kubeboot.io/v1")) {
				send(exchange, 200, """
						{"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": "test.kubeboot.io/v1",
						 "resources": [{"name": "gadgets", "singularName": "gadget", "namespaced": true,
						  "kind": "Gadget", "verbs": ["get", "list", "watch"]}]}""");
			}
			else if (path.endsWith("/selfsubjectaccessreviews")) {
				send(exchange, 201, """
						{"kind": "SelfSubjectAccessReview", "apiVersion": "authorization.k8s.io/v1",
						 "spec": {}, "status": {"allowed": true}}""");
			}
			else if (path.equals(GADGETS)) {
				answerGadgets(exchange);
			}
			else {
				send(exchange, 404, "{\"kind\": \"Status\", \"apiVersion\": \"v1\", \"code\": 404}");
			}
		}
	}

	private void answerGadgets(HttpExchange exchange) throws IOException {
		Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
		this.requests.add(query);
		if (query.getOrDefault("fieldSelector", "").contains("spec.shape")) {
			send(exchange, 400, REFUSED);
		}
		else if ("true".equals(query.get("sendInitialEvents"))) {
			send(exchange, 200, event("ADDED", gadget("blue", "ub", "41", "1")) + "\n" + END + "\n");
		}
		else if ("true".equals(query.get("watch"))) {
			exchange.getResponseHeaders().add("Content-Type", "application/json");
			exchange.sendResponseHeaders(200, 0);
			exchange.getResponseBody().flush();
			try {
				this.done.await(WAIT.toSeconds() * 3, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		else {
			send(exchange, 200,
					"{\"kind\": \"GadgetList\", \"apiVersion\": \"test.kubeboot.io/v1\", "
							+ "\"metadata\": {\"resourceVersion\": \"42\"}, \"items\": ["
							+ gadget("blue", "ub", "41", "1") + "]}");
		}
	}

	private static void send(HttpExchange exchange, int code, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(code, bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

	private static Map<String, String> query(String raw) {
		Map<String, String> query = new LinkedHashMap<>();
		if (raw == null) {
			return query;
		}
		for (String pair : raw.split("&")) {
			int equals = pair.indexOf('=');
			String name = URLDecoder.decode((equals >= 0) ? pair.substring(0, equals) : pair, StandardCharsets.UTF_8);
			String value = (equals >= 0) ? URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8) : "";
			query.put(name, value);
		}
		return query;
	}

}
