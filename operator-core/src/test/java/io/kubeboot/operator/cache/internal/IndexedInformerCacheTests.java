package io.kubeboot.operator.cache.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubeboot.operator.cache.CacheIndex;
import io.kubeboot.operator.cache.ObjectBudgets;
import io.kubeboot.operator.handler.MapFunction;
import io.kubeboot.operator.handler.MapFunctions;
import io.kubeboot.operator.reconcile.Request;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.kubeboot.operator.cache.internal.ObjectDecoderTests.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Tests that the cache's indexes follow an informer's objects through watch events, the
 * watchdog's restart and a pause, and are built from what a running informer holds when
 * declared late, and that a relist of the watchdog is checked against the object budget:
 * against a scripted API server whose gadgets name a Secret in their label
 * {@code secret}.
 */
class IndexedInformerCacheTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static final String GADGETS = "/apis/test.kubeboot.io/v1/namespaces/ns/gadgets";

	private static final CacheIndex<Gadget> BY_SECRET = CacheIndex.of(Gadget.class, "secretRef",
			(gadget) -> List.of(gadget.getMetadata().getLabels().get("secret")));

	/** What a list returns: gadget JSON. */
	private volatile List<String> listed = List.of();

	/** The events of each watch opened, in order: the test feeds the last. */
	private final List<BlockingQueue<String>> watches = new CopyOnWriteArrayList<>();

	private final CountDownLatch done = new CountDownLatch(1);

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private HttpServer server;

	private InformerCache cache;

	@BeforeEach
	void serve() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
		this.server.setExecutor(this.executor);
		this.server.createContext("/", this::answer);
		this.server.start();
		ApiClient client = new ApiClient().setBasePath("http://127.0.0.1:" + this.server.getAddress().getPort());
		this.cache = new InformerCache(client, Duration.ZERO, true, Duration.ofMinutes(1), Duration.ofMinutes(3), 500,
				false, Map.of());
	}

	@AfterEach
	void stop() {
		this.done.countDown();
		if (this.cache != null) {
			this.cache.stop();
		}
		if (this.server != null) {
			this.server.stop(0);
		}
		this.executor.shutdownNow();
	}

	@Test
	void anIndexFollowsWatchEventsTheWatchdogsRestartAndAPause() throws Exception {
		this.listed = List.of(gadget("a", "1", "db"), gadget("b", "2", "db"), gadget("c", "3", "cache"));
		this.cache.addIndex(BY_SECRET);
		ScopedInformer<Gadget> informer = (ScopedInformer<Gadget>) this.cache.informer(Gadget.class, "ns", null);
		start();
		assertThat(names("ns", "db")).containsExactlyInAnyOrder("a", "b");
		assertThat(names(null, "db")).containsExactlyInAnyOrder("a", "b");
		assertThat(names("other", "db")).isEmpty();
		assertThat(this.cache.list(Gadget.class, "ns", "secret=db")).hasSize(2);

		// b moves to another Secret, a goes, d comes
		feed(event("MODIFIED", gadget("b", "50", "cache")), event("DELETED", gadget("a", "51", "db")),
				event("ADDED", gadget("d", "52", "db")));
		await().atMost(WAIT).until(() -> names("ns", "db").equals(List.of("d")));
		assertThat(names("ns", "cache")).containsExactlyInAnyOrder("b", "c");

		// the watchdog's replacement lists afresh and builds its own index
		this.listed = List.of(gadget("b", "60", "cache"), gadget("d", "61", "db"), gadget("e", "62", "db"));
		int watchesBefore = this.watches.size();
		assertThat(informer.beginRestart()).isTrue();
		await().atMost(WAIT).until(informer::completeRestart);
		assertThat(names("ns", "db")).containsExactlyInAnyOrder("d", "e");
		assertThat(names("ns", "cache")).containsExactly("b");
		await().atMost(WAIT).until(() -> this.watches.size() > watchesBefore);
		feed(event("MODIFIED", gadget("e", "70", "cache")));
		await().atMost(WAIT).until(() -> names("ns", "cache").size() == 2);
		assertThat(names("ns", "db")).containsExactly("d");

		// given back, it holds nothing; asked for again, it lists and indexes again
		this.cache.release(informer);
		assertThat(names("ns", "db")).isEmpty();
		this.listed = List.of(gadget("d", "80", "db"));
		assertThat(this.cache.informer(Gadget.class, "ns", null)).isSameAs(informer);
		await().atMost(WAIT).until(informer::hasSynced);
		assertThat(names("ns", "db")).containsExactly("d");
	}

	@Test
	void anIndexDeclaredWhileTheInformerRunsIsBuiltFromWhatItHolds() throws Exception {
		this.listed = List.of(gadget("a", "1", "db"), gadget("b", "2", "cache"));
		this.cache.informer(Gadget.class, "ns", null);
		start();
		assertThatIllegalStateException().isThrownBy(() -> names("ns", "db"))
			.withMessage("No index 'secretRef' of Gadget (it has none): declare it with "
					+ "cache.addIndex(CacheIndex.of(Gadget.class, \"secretRef\", ...)), or with Spring as a "
					+ "CacheIndex bean");
		this.cache.addIndex(BY_SECRET);
		assertThat(names("ns", "db")).containsExactly("a");
		this.cache.addIndex(BY_SECRET);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.cache.addIndex(CacheIndex.of(Gadget.class, "secretRef", (gadget) -> List.of())))
			.withMessage("Gadget has an index named 'secretRef' already: give this one another name, or declare "
					+ "one CacheIndex and share it");
		feed(event("ADDED", gadget("c", "10", "db")));
		await().atMost(WAIT).until(() -> names("ns", "db").size() == 2);
	}

	@Test
	void aMapFunctionByIndexMapsAChangedObjectToTheObjectsReferringToIt() throws Exception {
		this.listed = List.of(gadget("a", "1", "db"), gadget("b", "2", "db"), gadget("c", "3", "cache"));
		this.cache.addIndex(BY_SECRET);
		this.cache.informer(Gadget.class, "ns", null);
		start();
		MapFunction<V1Secret> usersOf = MapFunctions.byIndex(this.cache, BY_SECRET,
				(secret) -> secret.getMetadata().getName());
		assertThat(usersOf.map(secret("ns", "db"))).containsExactlyInAnyOrder(Request.of("ns", "a"),
				Request.of("ns", "b"));
		assertThat(usersOf.map(secret("ns", "cache"))).containsExactly(Request.of("ns", "c"));
		assertThat(usersOf.map(secret("other", "db"))).isEmpty();
		MapFunction<V1Secret> unnamed = MapFunctions.byIndex(this.cache, BY_SECRET, (secret) -> null);
		assertThat(unnamed.map(secret("ns", "db"))).isEmpty();
	}

	@Test
	@SuppressWarnings("unchecked")
	void theWatchdogsReplacementIsCheckedAgainstTheObjectBudgetAsItIsSwappedIn() throws Exception {
		this.cache.objectBudgets(new ObjectBudgets(2, Map.of()));
		this.listed = List.of(gadget("a", "1", "db"), gadget("b", "2", "db"));
		ScopedInformer<Gadget> informer = (ScopedInformer<Gadget>) this.cache.informer(Gadget.class, "ns", null);
		start();
		assertThat(informer.cost().budgetCrossings()).isZero();
		// objects piled up while the watch was silent: the relist finds four
		this.listed = List.of(gadget("a", "1", "db"), gadget("b", "2", "db"), gadget("c", "3", "db"),
				gadget("d", "4", "db"));
		assertThat(informer.beginRestart()).isTrue();
		await().atMost(WAIT).until(informer::completeRestart);
		// no event since: the swap itself checked the count
		assertThat(informer.cost().objects()).isEqualTo(4);
		assertThat(informer.cost().overBudget()).isTrue();
		assertThat(informer.cost().budgetCrossings()).isOne();
	}

	private List<String> names(String namespace, String secret) {
		return this.cache.list(Gadget.class, namespace, BY_SECRET.matching(secret))
			.stream()
			.map((gadget) -> gadget.getMetadata().getName())
			.sorted()
			.toList();
	}

	private void start() throws Exception {
		this.cache.resolveAll(WAIT);
		this.cache.start(null);
		this.cache.waitForSync(WAIT);
		await().atMost(WAIT).until(() -> !this.watches.isEmpty());
	}

	private void feed(String... events) {
		BlockingQueue<String> watch = this.watches.get(this.watches.size() - 1);
		for (String event : events) {
			watch.add(event);
		}
	}

	private static V1Secret secret(String namespace, String name) {
		return new V1Secret().metadata(new V1ObjectMeta().namespace(namespace).name(name));
	}

	private static String gadget(String name, String resourceVersion, String secret) {
		return """
				{"apiVersion": "test.kubeboot.io/v1", "kind": "Gadget",
				 "metadata": {"name": "%s", "namespace": "ns", "uid": "u-%s", "resourceVersion": "%s",
				  "labels": {"secret": "%s"}}}""".formatted(name, name, resourceVersion, secret).replace("\n", "");
	}

	private void answer(HttpExchange exchange) throws IOException {
		try (exchange) {
			String path = exchange.getRequestURI().getPath();
			String query = exchange.getRequestURI().getRawQuery();
			if (path.equals("/apis/test.kubeboot.io/v1")) {
				send(exchange, """
						{"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": "test.kubeboot.io/v1",
						 "resources": [{"name": "gadgets", "singularName": "gadget", "namespaced": true,
						  "kind": "Gadget", "verbs": ["get", "list", "watch"]}]}""");
			}
			else if (path.equals(GADGETS) && query != null && query.contains("watch=true")) {
				watch(exchange);
			}
			else if (path.equals(GADGETS)) {
				send(exchange,
						"{\"kind\": \"GadgetList\", \"apiVersion\": \"test.kubeboot.io/v1\", "
								+ "\"metadata\": {\"resourceVersion\": \"42\"}, \"items\": ["
								+ String.join(", ", this.listed) + "]}");
			}
			else {
				byte[] body = "{\"kind\": \"Status\", \"apiVersion\": \"v1\", \"code\": 404}"
					.getBytes(StandardCharsets.UTF_8);
				exchange.sendResponseHeaders(404, body.length);
				exchange.getResponseBody().write(body);
			}
		}
	}

	/**
	 * Streams the events the test feeds this watch until the test ends.
	 */
	private void watch(HttpExchange exchange) throws IOException {
		BlockingQueue<String> events = new LinkedBlockingQueue<>();
		this.watches.add(events);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(200, 0);
		OutputStream out = exchange.getResponseBody();
		out.flush();
		try {
			while (this.done.getCount() > 0) {
				String event = events.poll(100, TimeUnit.MILLISECONDS);
				if (event != null) {
					out.write((event + "\n").getBytes(StandardCharsets.UTF_8));
					out.flush();
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static void send(HttpExchange exchange, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(200, bytes.length);
		exchange.getResponseBody().write(bytes);
	}

}
