package io.kubeboot.operator.cache.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubeboot.operator.cache.CacheIndex;
import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.cache.InformerEventHandler;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.reconcile.Request;
import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.kubeboot.operator.cache.internal.ObjectDecoderTests.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Tests that an informer asked for without a namespace follows the cache's namespace set:
 * one informer per namespace, started and stopped as namespaces are added and removed,
 * read as one (indexes included), its handlers told of an added namespace's objects as an
 * initial list and of a removed one's not at all; against a scripted API server that
 * serves gadgets per namespace.
 */
class NamespaceSetInformerTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static final Pattern NAMESPACED = Pattern.compile("/apis/test\\.kubeboot\\.io/v1/namespaces/([^/]+)/gadgets");

	private static final String ALL = "/apis/test.kubeboot.io/v1/gadgets";

	private static final CacheIndex<Gadget> BY_OWNER = CacheIndex.of(Gadget.class, "owner",
			(gadget) -> List.of(gadget.getMetadata().getLabels().get("owner")));

	/** What a list of each namespace returns ("" for all namespaces): gadget JSON. */
	private final Map<String, List<String>> listed = new ConcurrentHashMap<>();

	/** The watches opened, by namespace ("" for all namespaces): the test feeds the last. */
	private final Map<String, List<BlockingQueue<String>>> watches = new ConcurrentHashMap<>();

	private volatile boolean namespaced = true;

	private final CountDownLatch done = new CountDownLatch(1);

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final List<String> events = new CopyOnWriteArrayList<>();

	private final List<InformerKey> removed = new CopyOnWriteArrayList<>();

	private HttpServer server;

	private InformerCache cache;

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
	void anInformerWithoutANamespaceListsAndWatchesEachNamespaceOfTheSetAndReadsThemAsOne() throws Exception {
		cache("a", "b");
		this.listed.put("a", List.of(gadget("a", "one", "1", "x")));
		this.listed.put("b", List.of(gadget("b", "two", "2", "x"), gadget("b", "three", "3", "y")));
		Informer<Gadget> informer = this.cache.informer(Gadget.class, null, null);
		start();
		assertThat(informer.key()).isEqualTo(new InformerKey(Gadget.class, null, null));
		assertThat(keys()).containsExactlyInAnyOrder(new InformerKey(Gadget.class, "a", null),
				new InformerKey(Gadget.class, "b", null));
		assertThat(informer.keys()).containsExactly(new InformerKey(Gadget.class, "a", null),
				new InformerKey(Gadget.class, "b", null));
		assertThat(names(informer.list())).containsExactlyInAnyOrder("a/one", "b/two", "b/three");
		assertThat(names(informer.list("b"))).containsExactlyInAnyOrder("b/two", "b/three");
		assertThat(names(this.cache.list(Gadget.class, null))).containsExactlyInAnyOrder("a/one", "b/two", "b/three");
		assertThat(this.cache.get(Gadget.class, Request.of("a", "one"))).isPresent();
		assertThat(informer.hasSynced("a")).isTrue();
		assertThat(informer.hasSynced("c")).isFalse();
		assertThat(this.cache.namespaces().current()).containsExactly("a", "b");
		assertThat(this.cache.namespaces().unsynced()).isEmpty();
		// the same informer for the same question
		assertThat(this.cache.informer(Gadget.class, null, null)).isSameAs(informer);
	}

	@Test
	void aNamespaceAddedWhileRunningIsListedAndItsObjectsReachTheHandlersAsAnInitialList() throws Exception {
		cache("a");
		this.listed.put("a", List.of(gadget("a", "one", "1", "x")));
		this.listed.put("c", List.of(gadget("c", "seven", "7", "x")));
		Informer<Gadget> informer = this.cache.informer(Gadget.class, null, null);
		informer.addEventHandler(recorder());
		start();
		await().atMost(WAIT).until(() -> this.events.contains("add a/one initial"));

		this.cache.namespaces().add("c");
		assertThat(this.cache.namespaces().current()).containsExactly("a", "c");
		assertThat(this.cache.namespaces().awaitSynced(WAIT)).isTrue();
		await().atMost(WAIT).until(() -> this.events.contains("add c/seven initial"));
		assertThat(names(informer.list())).containsExactlyInAnyOrder("a/one", "c/seven");
		ScopedInformer<?> added = member(new InformerKey(Gadget.class, "c", null));
		assertThat(this.cache.joinedNamespaceSet(added)).isTrue();
		assertThat(this.cache.joinedNamespaceSet(member(new InformerKey(Gadget.class, "a", null)))).isFalse();

		// its watch goes on like any other
		await().atMost(WAIT).until(() -> this.watches.containsKey("c"));
		feed("c", event("ADDED", gadget("c", "eight", "8", "x")));
		await().atMost(WAIT).until(() -> this.events.contains("add c/eight change"));
	}

	@Test
	void aNamespaceRemovedStopsItsInformerAndDropsItsObjectsWithoutTellingOfDeletions() throws Exception {
		cache("a", "b");
		this.listed.put("a", List.of(gadget("a", "one", "1", "x")));
		this.listed.put("b", List.of(gadget("b", "two", "2", "x")));
		this.cache.onInformerRemoved((informer) -> this.removed.add(informer.key()));
		Informer<Gadget> informer = this.cache.informer(Gadget.class, null, null);
		informer.addEventHandler(recorder());
		start();
		await().atMost(WAIT).until(() -> this.events.contains("add b/two initial"));

		this.cache.namespaces().remove("b");
		assertThat(this.cache.namespaces().current()).containsExactly("a");
		assertThat(keys()).containsExactly(new InformerKey(Gadget.class, "a", null));
		assertThat(this.removed).containsExactly(new InformerKey(Gadget.class, "b", null));
		assertThat(names(informer.list())).containsExactly("a/one");
		assertThat(this.cache.get(Gadget.class, Request.of("b", "two"))).isEmpty();
		assertThat(informer.hasSynced("b")).isFalse();
		// what the stopped informer's watch still brings reaches nobody
		feed("b", event("MODIFIED", gadget("b", "two", "20", "y")));
		feed("a", event("MODIFIED", gadget("a", "one", "10", "y")));
		await().atMost(WAIT).until(() -> this.events.contains("update a/one"));
		assertThat(this.events).noneMatch((event) -> event.startsWith("delete")).doesNotContain("update b/two");
	}

	@Test
	void aNamespaceRemovedAndAddedAgainIsListedAgain() throws Exception {
		cache("a", "b");
		this.listed.put("a", List.of());
		this.listed.put("b", List.of(gadget("b", "two", "2", "x")));
		Informer<Gadget> informer = this.cache.informer(Gadget.class, null, null);
		informer.addEventHandler(recorder());
		start();
		await().atMost(WAIT).until(() -> this.events.contains("add b/two initial"));
		this.cache.namespaces().remove("b");
		this.listed.put("b", List.of(gadget("b", "two", "5", "x"), gadget("b", "four", "6", "x")));
		this.cache.namespaces().set(List.of("a", "b"));
		assertThat(this.cache.namespaces().awaitSynced(WAIT)).isTrue();
		await().atMost(WAIT).until(() -> this.events.contains("add b/four initial"));
		assertThat(names(informer.list())).containsExactlyInAnyOrder("b/two", "b/four");
		assertThat(this.events).filteredOn((event) -> event.equals("add b/two initial")).hasSize(2);
	}

	@Test
	void anIndexFindsTheObjectsOfEveryNamespaceOfTheSetAsItChanges() throws Exception {
		cache("a", "b");
		this.cache.addIndex(BY_OWNER);
		this.listed.put("a", List.of(gadget("a", "one", "1", "x")));
		this.listed.put("b", List.of(gadget("b", "two", "2", "x"), gadget("b", "three", "3", "y")));
		this.listed.put("c", List.of(gadget("c", "four", "4", "x")));
		this.cache.informer(Gadget.class, null, null);
		start();
		assertThat(names(this.cache.list(Gadget.class, null, BY_OWNER.matching("x"))))
			.containsExactlyInAnyOrder("a/one", "b/two");
		assertThat(names(this.cache.list(Gadget.class, "b", BY_OWNER.matching("x")))).containsExactly("b/two");
		this.cache.namespaces().set(List.of("a", "c"));
		assertThat(this.cache.namespaces().awaitSynced(WAIT)).isTrue();
		assertThat(names(this.cache.list(Gadget.class, null, BY_OWNER.matching("x"))))
			.containsExactlyInAnyOrder("a/one", "c/four");
	}

	@Test
	void anEmptySetCachesNothingAndReadsFindNothing() throws Exception {
		cache("a");
		this.listed.put("a", List.of(gadget("a", "one", "1", "x")));
		Informer<Gadget> informer = this.cache.informer(Gadget.class, null, null);
		start();
		this.cache.namespaces().set(List.of());
		assertThat(keys()).isEmpty();
		assertThat(informer.list()).isEmpty();
		assertThat(this.cache.list(Gadget.class, null)).isEmpty();
		assertThat(this.cache.get(Gadget.class, Request.of("a", "one"))).isEmpty();
		assertThat(this.cache.namespaces().awaitSynced(Duration.ZERO)).isTrue();
	}

	@Test
	void anInformerOfANamespaceAskedForByNameKeepsServingWhenTheNamespaceLeavesTheSet() throws Exception {
		cache("a", "b");
		this.listed.put("a", List.of(gadget("a", "one", "1", "x")));
		this.listed.put("b", List.of());
		Informer<Gadget> named = this.cache.informer(Gadget.class, "a", null);
		Informer<Gadget> following = this.cache.informer(Gadget.class, null, null);
		following.addEventHandler(recorder());
		start();
		assertThat(keys()).hasSize(2);
		await().atMost(WAIT).until(() -> this.events.contains("add a/one initial"));
		this.cache.namespaces().remove("a");
		// still registered: asked for by name
		assertThat(keys()).containsExactlyInAnyOrder(new InformerKey(Gadget.class, "a", null),
				new InformerKey(Gadget.class, "b", null));
		assertThat(names(named.list())).containsExactly("a/one");
		assertThat(following.list()).isEmpty();
		feed("a", event("MODIFIED", gadget("a", "one", "10", "y")));
		await().atMost(WAIT).until(() -> named.get("a", "one").orElseThrow().getMetadata().getResourceVersion()
			.equals("10"));
		assertThat(this.events).doesNotContain("update a/one");
	}

	@Test
	void aClusterScopedKindHasOneInformerOfAllNamespacesWhateverTheSet() throws Exception {
		this.namespaced = false;
		cache("a", "b");
		this.listed.put("", List.of(gadget(null, "one", "1", "x")));
		Informer<Gadget> informer = this.cache.informer(Gadget.class, null, null);
		// before the kind is resolved, its informers are those of a namespaced kind
		assertThat(keys()).hasSize(2);
		start();
		assertThat(keys()).containsExactly(new InformerKey(Gadget.class, null, null));
		assertThat(names(informer.list())).containsExactly("one");
		assertThat(informer.hasSynced("b")).isTrue();
		this.cache.namespaces().add("c");
		assertThat(keys()).containsExactly(new InformerKey(Gadget.class, null, null));
		assertThat(this.cache.namespaceSetInformerOf(new InformerKey(Gadget.class, null, null)))
			.isEqualTo(new InformerKey(Gadget.class, null, null));
	}

	@Test
	void aClusterScopedKindOfASetEmptiedBeforeTheStartIsWatchedOnceFromTheStart() throws Exception {
		this.namespaced = false;
		cache("a");
		this.listed.put("", List.of(gadget(null, "one", "1", "x")));
		this.cache.namespaces().set(List.of());
		Informer<Gadget> informer = this.cache.informer(Gadget.class, null, null);
		assertThat(keys()).isEmpty();
		start();
		assertThat(keys()).containsExactly(new InformerKey(Gadget.class, null, null));
		assertThat(names(informer.list())).containsExactly("one");
		this.cache.namespaces().add("b");
		assertThat(keys()).containsExactly(new InformerKey(Gadget.class, null, null));
	}

	@Test
	void concurrentChangesAreAppliedOneAtATimeAndNoneIsLost() throws Exception {
		cache("a");
		this.cache.informer(Gadget.class, null, null);
		List<Thread> changes = new ArrayList<>();
		CountDownLatch go = new CountDownLatch(1);
		for (int i = 0; i < 8; i++) {
			String namespace = "n" + i;
			changes.add(new Thread(() -> {
				try {
					go.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				this.cache.namespaces().add(namespace);
				if (namespace.equals("n0")) {
					this.cache.namespaces().remove("a");
				}
			}));
		}
		changes.forEach(Thread::start);
		go.countDown();
		for (Thread change : changes) {
			change.join(WAIT.toMillis());
		}
		assertThat(this.cache.namespaces().current()).containsExactly("n0", "n1", "n2", "n3", "n4", "n5", "n6",
				"n7");
		assertThat(keys()).extracting(InformerKey::namespace)
			.containsExactlyInAnyOrder("n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7");
	}

	@Test
	void aCacheOfAllNamespacesRefusesToChangeThem() throws Exception {
		cache();
		Informer<Gadget> informer = this.cache.informer(Gadget.class, null, null);
		assertThat(informer).isInstanceOf(ScopedInformer.class);
		assertThat(this.cache.namespaces().all()).isTrue();
		assertThatIllegalStateException().isThrownBy(() -> this.cache.namespaces().add("a"))
			.withMessageStartingWith("The manager watches all namespaces, which cannot change while it runs");
	}

	@Test
	void aNameThatIsNoNamespaceIsRefusedNamingIt() throws Exception {
		cache("a");
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> this.cache.namespaces().set(List.of("a", "Not_A_Namespace")))
			.satisfies((ex) -> assertThat(ex.violations()).singleElement()
				.satisfies((violation) -> assertThat(violation.setting()).isEqualTo("namespaces[1]")));
		assertThat(this.cache.namespaces().current()).containsExactly("a");
	}

	@Test
	void noChangeIsAcceptedOnceTheCacheStopped() throws Exception {
		cache("a");
		this.cache.stop();
		assertThatIllegalStateException().isThrownBy(() -> this.cache.namespaces().add("b"))
			.withMessage("The manager stopped: its namespaces no longer change");
	}

	private void cache(String... namespaces) throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
		this.server.setExecutor(this.executor);
		this.server.createContext("/", this::answer);
		this.server.start();
		ApiClient client = new ApiClient().setBasePath("http://127.0.0.1:" + this.server.getAddress().getPort());
		this.cache = new InformerCache(client, Duration.ZERO, true, Duration.ofMinutes(1), Duration.ofMinutes(3), 500,
				false, Map.of(), List.of(namespaces));
	}

	private void start() throws Exception {
		this.cache.resolveAll(WAIT);
		this.cache.start(null);
		this.cache.waitForSync(WAIT);
	}

	private List<InformerKey> keys() {
		return this.cache.informers().stream().map(Informer::key).toList();
	}

	private ScopedInformer<?> member(InformerKey key) {
		return (ScopedInformer<?>) this.cache.informers()
			.stream()
			.filter((informer) -> informer.key().equals(key))
			.findFirst()
			.orElseThrow();
	}

	private InformerEventHandler<Gadget> recorder() {
		return new InformerEventHandler<>() {

			@Override
			public void onAdd(Gadget gadget, boolean inInitialList) {
				NamespaceSetInformerTests.this.events
					.add("add " + name(gadget) + (inInitialList ? " initial" : " change"));
			}

			@Override
			public void onUpdate(Gadget oldGadget, Gadget gadget) {
				NamespaceSetInformerTests.this.events.add("update " + name(gadget));
			}

			@Override
			public void onDelete(Gadget gadget, boolean finalStateUnknown) {
				NamespaceSetInformerTests.this.events.add("delete " + name(gadget));
			}

		};
	}

	private void feed(String namespace, String event) {
		await().atMost(WAIT).until(() -> this.watches.containsKey(namespace));
		List<BlockingQueue<String>> opened = this.watches.get(namespace);
		opened.get(opened.size() - 1).add(event);
	}

	private static List<String> names(List<Gadget> gadgets) {
		return gadgets.stream().map(NamespaceSetInformerTests::name).toList();
	}

	private static String name(Gadget gadget) {
		String namespace = gadget.getMetadata().getNamespace();
		return ((namespace != null) ? namespace + "/" : "") + gadget.getMetadata().getName();
	}

	private static String gadget(String namespace, String name, String resourceVersion, String owner) {
		String inNamespace = (namespace != null) ? "\"namespace\": \"" + namespace + "\", " : "";
		return """
				{"apiVersion": "test.kubeboot.io/v1", "kind": "Gadget",
				 "metadata": {"name": "%s", %s"uid": "u-%s-%s", "resourceVersion": "%s",
				  "labels": {"owner": "%s"}}}""".formatted(name, inNamespace, namespace, name, resourceVersion, owner)
			.replace("\n", "");
	}

	private void answer(HttpExchange exchange) throws IOException {
		try (exchange) {
			String path = exchange.getRequestURI().getPath();
			String query = exchange.getRequestURI().getRawQuery();
			Matcher inNamespace = NAMESPACED.matcher(path);
			String namespace = inNamespace.matches() ? inNamespace.group(1) : path.equals(ALL) ? "" : null;
			if (path.equals("/apis/test.kubeboot.io/v1")) {
				send(exchange, """
						{"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": "test.kubeboot.io/v1",
						 "resources": [{"name": "gadgets", "singularName": "gadget", "namespaced": %s,
						  "kind": "Gadget", "verbs": ["get", "list", "watch"]}]}""".formatted(this.namespaced));
			}
			else if (namespace != null && query != null && query.contains("watch=true")) {
				watch(exchange, namespace);
			}
			else if (namespace != null) {
				send(exchange,
						"{\"kind\": \"GadgetList\", \"apiVersion\": \"test.kubeboot.io/v1\", "
								+ "\"metadata\": {\"resourceVersion\": \"42\"}, \"items\": ["
								+ String.join(", ", this.listed.getOrDefault(namespace, List.of())) + "]}");
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
	private void watch(HttpExchange exchange, String namespace) throws IOException {
		BlockingQueue<String> events = new LinkedBlockingQueue<>();
		this.watches.computeIfAbsent(namespace, (key) -> new CopyOnWriteArrayList<>()).add(events);
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
		catch (IOException ex) {
			// the informer closed its watch: it was stopped
		}
	}

	private static void send(HttpExchange exchange, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(200, bytes.length);
		exchange.getResponseBody().write(bytes);
	}

}
