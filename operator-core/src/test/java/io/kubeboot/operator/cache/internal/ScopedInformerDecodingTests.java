package io.kubeboot.operator.cache.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.client.ApiClients;
import io.kubeboot.operator.client.internal.ResourceKind;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.kubeboot.operator.cache.internal.ObjectDecoderTests.event;
import static io.kubeboot.operator.cache.internal.ObjectDecoderTests.gadget;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that objects that do not decode into the model class neither stall an informer's
 * list nor its watch, and that a built-in kind's fields client-java lacks are ignored:
 * client-java's reflector reading from a scripted API server.
 */
class ScopedInformerDecodingTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static final String PATH = "/apis/test.kubeboot.io/v1/namespaces/ns/gadgets";

	private final List<String> watchedFrom = new CopyOnWriteArrayList<>();

	private final CountDownLatch secondWatch = new CountDownLatch(1);

	private final CountDownLatch done = new CountDownLatch(1);

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private HttpServer server;

	private ScopedInformer<Gadget> informer;

	@AfterEach
	void stop() {
		this.done.countDown();
		if (this.informer != null) {
			this.informer.stop();
		}
		if (this.server != null) {
			this.server.stop(0);
		}
		this.executor.shutdownNow();
	}

	@Test
	void objectsThatDoNotDecodeAreSkippedAndTheInformerKeepsListingAndWatching() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.setExecutor(this.executor);
		this.server.createContext(PATH, this::serve);
		this.server.start();
		ApiClient client = new ApiClient().setBasePath("http://127.0.0.1:" + this.server.getAddress().getPort());
		this.informer = TestCostTrackers.informer(new InformerKey(Gadget.class, "ns", null),
				new ScopedInformer.Settings(ApiClients.forWatches(client, Duration.ofMinutes(1)), Duration.ZERO,
						Duration.ofMinutes(1), ListPager.DEFAULT_PAGE_SIZE, false));
		List<String> events = new CopyOnWriteArrayList<>();
		this.informer.addEventHandler(new ResourceEventHandler<>() {

			@Override
			public void onAdd(Gadget gadget) {
				events.add("add " + describe(gadget));
			}

			@Override
			public void onUpdate(Gadget old, Gadget gadget) {
				events.add("update " + describe(gadget));
			}

			@Override
			public void onDelete(Gadget gadget, boolean finalStateUnknown) {
				events.add("delete " + describe(gadget));
			}

		});
		this.informer.start(
				new ResourceKind<>(Gadget.class, Gadget.class, "test.kubeboot.io", "v1", "Gadget", "gadgets", true),
				Gadget.class, new StoreTransform<>(this.informer.key(), Gadget.class, null, null, false, null,
						new MetadataDeduplicator()));

		// the list: a decodes, b does not; the watch starts from the list's version
		await().atMost(WAIT).until(this.informer::hasSynced);
		await().atMost(WAIT).until(() -> this.watchedFrom.size() == 2);
		// the first watch: c does not decode, d does, a changes into a version that does
		// not decode; the second watch resumes after the last event, skipped or not
		assertThat(this.watchedFrom).containsExactly("20", "23");
		await().atMost(WAIT).until(() -> this.informer.get("ns", "d").isPresent());
		assertThat(names()).containsExactlyInAnyOrder("a", "d");
		assertThat(this.informer.get("ns", "a")).hasValueSatisfying((a) -> assertThat(describe(a)).isEqualTo("a@10=1"));
		assertThat(this.informer.undecodableObjects()).isEqualTo(3);

		// the second watch: b is fixed, a is deleted while it does not decode
		this.secondWatch.countDown();
		await().atMost(WAIT).until(() -> names().equals(List.of("b", "d")));
		await().atMost(WAIT).until(() -> events.contains("delete a@25=1"));
		assertThat(events).containsExactly("add a@10=1", "add d@22=2", "add b@24=4", "delete a@25=1");
		assertThat(this.informer.undecodableObjects()).isEqualTo(3);
		assertThat(this.informer.lastError()).isNull();
	}

	@Test
	void aBuiltInObjectWithFieldsClientJavaDoesNotKnowIsCached() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.setExecutor(this.executor);
		this.server.createContext("/api/v1/namespaces/ns/configmaps", this::serveConfigMaps);
		this.server.start();
		ApiClient client = new ApiClient().setBasePath("http://127.0.0.1:" + this.server.getAddress().getPort());
		ScopedInformer<V1ConfigMap> configMaps = TestCostTrackers.informer(
				new InformerKey(V1ConfigMap.class, "ns", null),
				new ScopedInformer.Settings(ApiClients.forWatches(client, Duration.ofMinutes(1)), Duration.ZERO,
						Duration.ofMinutes(1), ListPager.DEFAULT_PAGE_SIZE, false));
		try {
			configMaps.start(
					new ResourceKind<>(V1ConfigMap.class, V1ConfigMapList.class, "", "v1", "ConfigMap", "configmaps",
							true),
					V1ConfigMap.class, new StoreTransform<>(configMaps.key(), V1ConfigMap.class, null, null, false,
							null, new MetadataDeduplicator()));
			await().atMost(WAIT).until(configMaps::hasSynced);
			assertThat(configMaps.get("ns", "settings"))
				.hasValueSatisfying((settings) -> assertThat(settings.getData()).containsEntry("mode", "fast"));
			assertThat(configMaps.undecodableObjects()).isZero();
		}
		finally {
			configMaps.stop();
		}
	}

	private void serveConfigMaps(HttpExchange exchange) throws IOException {
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(200, 0);
		try (OutputStream out = exchange.getResponseBody()) {
			if (exchange.getRequestURI().getQuery() == null
					|| !exchange.getRequestURI().getQuery().contains("watch=true")) {
				write(out, """
						{"kind": "ConfigMapList", "apiVersion": "v1", "metadata": {"resourceVersion": "20"},
						 "items": [{"metadata": {"name": "settings", "namespace": "ns", "uid": "u1",
						 "resourceVersion": "10", "fieldOfANewerRelease": "x"}, "data": {"mode": "fast"},
						 "fieldOfANewerRelease": {"a": 1}}]}""");
				return;
			}
			// a watch without events, held open until the test ends
			released(this.done);
		}
	}

	private List<String> names() {
		return this.informer.list().stream().map((gadget) -> gadget.getMetadata().getName()).sorted().toList();
	}

	private static String describe(Gadget gadget) {
		return gadget.getMetadata().getName() + "@" + gadget.getMetadata().getResourceVersion() + "="
				+ ((gadget.getSpec() != null) ? gadget.getSpec().getReplicas() : null);
	}

	private void serve(HttpExchange exchange) throws IOException {
		Map<String, String> query = new HashMap<>();
		String raw = exchange.getRequestURI().getQuery();
		if (raw != null) {
			for (String pair : raw.split("&")) {
				String[] parts = pair.split("=", 2);
				query.put(parts[0], (parts.length > 1) ? parts[1] : "");
			}
		}
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(200, 0);
		try (OutputStream out = exchange.getResponseBody()) {
			if (!"true".equals(query.get("watch"))) {
				write(out,
						"{\"kind\": \"GadgetList\", \"apiVersion\": \"test.kubeboot.io/v1\", "
								+ "\"metadata\": {\"resourceVersion\": \"20\"}, \"items\": ["
								+ gadget("a", "ua", "10", "1") + ", " + gadget("b", "ub", "11", "\"many\"") + "]}");
				return;
			}
			this.watchedFrom.add(query.get("resourceVersion"));
			if (this.watchedFrom.size() == 1) {
				write(out, event("ADDED", gadget("c", "uc", "21", "\"lots\"")) + "\n");
				write(out, event("ADDED", gadget("d", "ud", "22", "2")) + "\n");
				write(out, event("MODIFIED", gadget("a", "ua", "23", "\"many\"")) + "\n");
				return; // the watch ends, as the API server ends it after its timeout
			}
			if (this.watchedFrom.size() == 2 && released(this.secondWatch)) {
				write(out, event("MODIFIED", gadget("b", "ub", "24", "4")) + "\n");
				write(out, event("DELETED", gadget("a", "ua", "25", "\"many\"")) + "\n");
			}
			released(this.done);
		}
	}

	private static void write(OutputStream out, String text) throws IOException {
		out.write(text.getBytes(StandardCharsets.UTF_8));
		out.flush();
	}

	private static boolean released(CountDownLatch latch) {
		try {
			return latch.await(WAIT.toSeconds(), TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

}
