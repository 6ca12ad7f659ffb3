package io.kubeboot.operator.cache.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.client.ApiClients;
import io.kubeboot.operator.client.internal.ResourceKind;
import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.kubeboot.operator.cache.internal.ObjectDecoderTests.event;
import static io.kubeboot.operator.cache.internal.ObjectDecoderTests.gadget;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that an informer reads its lists in pages and resumes a broken watch from the
 * last resourceVersion it saw, a bookmark's, instead of listing again: client-java's
 * reflector reading from a scripted API server that breaks connections at will.
 */
class ScopedInformerPagingTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static final String PATH = "/apis/test.kubeboot.io/v1/namespaces/ns/gadgets";

	/** The gadgets the API server lists, at resourceVersion 20. */
	private static final int LISTED = 7;

	private final List<String> lists = new CopyOnWriteArrayList<>();

	private final List<String> watches = new CopyOnWriteArrayList<>();

	private final CountDownLatch done = new CountDownLatch(1);

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private ServerSocket server;

	private ScopedInformer<Gadget> informer;

	@AfterEach
	void stop() throws IOException {
		this.done.countDown();
		if (this.informer != null) {
			this.informer.stop();
		}
		if (this.server != null) {
			this.server.close();
		}
		this.executor.shutdownNow();
	}

	@Test
	void listsInPagesAndResumesABrokenWatchFromTheLastBookmarkWithoutListingAgain() throws IOException {
		start((watch, out) -> {
			if (watch == 1) {
				chunk(out, event("ADDED", gadget("late", "ul", "45", "1")));
				chunk(out, event("BOOKMARK", "{\"kind\": \"Gadget\", \"apiVersion\": \"test.kubeboot.io/v1\", "
						+ "\"metadata\": {\"resourceVersion\": \"50\"}}"));
				return false; // the connection breaks: no last chunk
			}
			return true;
		});
		await().atMost(WAIT).until(() -> this.watches.size() == 2);
		// three pages of at most 3 gadgets, the later ones by continue token alone
		assertThat(this.lists).containsExactly("allowWatchBookmarks=null limit=3 continue=null resourceVersion=0",
				"allowWatchBookmarks=null limit=3 continue=3 resourceVersion=null",
				"allowWatchBookmarks=null limit=3 continue=6 resourceVersion=null");
		assertThat(this.watches).containsExactly("allowWatchBookmarks=true limit=null continue=null resourceVersion=20",
				"allowWatchBookmarks=true limit=null continue=null resourceVersion=50");
		await().atMost(WAIT).until(() -> this.informer.list().size() == LISTED + 1);
		assertThat(this.informer.lastError()).isNull();
	}

	@Test
	void aWatchThatBreaksAtOnceWithoutAnEventListsAgain() throws IOException {
		start((watch, out) -> watch > 1);
		await().atMost(WAIT).until(() -> this.watches.size() == 2);
		// the reflector listed again, at the version it had, in pages: this server pages
		assertThat(this.lists).hasSize(6)
			.element(3)
			.isEqualTo("allowWatchBookmarks=null limit=3 continue=null resourceVersion=20");
		assertThat(this.watches).containsExactly("allowWatchBookmarks=true limit=null continue=null resourceVersion=20",
				"allowWatchBookmarks=true limit=null continue=null resourceVersion=20");
	}

	private void start(WatchScript script) throws IOException {
		this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		this.executor.execute(() -> accept(script));
		ApiClient client = new ApiClient().setBasePath("http://127.0.0.1:" + this.server.getLocalPort());
		this.informer = TestCostTrackers.informer(new InformerKey(Gadget.class, "ns", null),
				new ScopedInformer.Settings(ApiClients.forWatches(client, Duration.ofMinutes(1)), Duration.ZERO,
						Duration.ofMinutes(1), 3, false));
		this.informer.start(
				new ResourceKind<>(Gadget.class, Gadget.class, "test.kubeboot.io", "v1", "Gadget", "gadgets", true),
				Gadget.class, new StoreTransform<>(this.informer.key(), Gadget.class, null, null, false, null,
						new MetadataDeduplicator()));
	}

	private void accept(WatchScript script) {
		while (!this.server.isClosed()) {
			try {
				Socket socket = this.server.accept();
				this.executor.execute(() -> serve(socket, script));
			}
			catch (IOException ex) {
				return;
			}
		}
	}

	private void serve(Socket socket, WatchScript script) {
		try (socket) {
			BufferedReader in = new BufferedReader(
					new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
			String requestLine = in.readLine();
			while (true) {
				String header = in.readLine();
				if (header == null || header.isEmpty()) {
					break;
				}
			}
			URI uri = URI.create(requestLine.split(" ")[1]);
			if (!uri.getPath().equals(PATH)) {
				return;
			}
			Map<String, String> query = query(uri.getRawQuery());
			String request = describe(query);
			OutputStream out = socket.getOutputStream();
			if (!"true".equals(query.get("watch"))) {
				this.lists.add(request);
				respond(out, page(query.get("continue")));
				return;
			}
			this.watches.add(request);
			write(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
			if (script.watch(this.watches.size(), out)) {
				this.done.await(WAIT.toSeconds(), TimeUnit.SECONDS);
				write(out, "0\r\n\r\n");
			}
		}
		catch (IOException ex) {
			// the client went away
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Answers one page of the gadgets: three from the offset in the continue token.
	 */
	private static String page(String continueToken) {
		int from = (continueToken != null) ? Integer.parseInt(continueToken) : 0;
		int to = Math.min(from + 3, LISTED);
		List<String> items = new ArrayList<>();
		for (int i = from; i < to; i++) {
			items.add(gadget("g" + i, "u" + i, String.valueOf(10 + i), "1"));
		}
		String next = (to < LISTED) ? "\"" + to + "\"" : "null";
		return "{\"kind\": \"GadgetList\", \"apiVersion\": \"test.kubeboot.io/v1\", "
				+ "\"metadata\": {\"resourceVersion\": \"20\", \"continue\": " + next + "}, \"items\": ["
				+ String.join(", ", items) + "]}";
	}

	private static Map<String, String> query(String raw) {
		Map<String, String> query = new LinkedHashMap<>();
		if (raw != null) {
			for (String pair : raw.split("&")) {
				String[] parts = pair.split("=", 2);
				query.put(parts[0], (parts.length > 1) ? parts[1] : "");
			}
		}
		return query;
	}

	private static String describe(Map<String, String> query) {
		return List.of("allowWatchBookmarks", "limit", "continue", "resourceVersion")
			.stream()
			.map((name) -> name + "=" + query.get(name))
			.collect(Collectors.joining(" "));
	}

	private static void respond(OutputStream out, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		write(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: "
				+ bytes.length + "\r\n\r\n");
		out.write(bytes);
		out.flush();
	}

	private static void chunk(OutputStream out, String event) throws IOException {
		byte[] bytes = (event + "\n").getBytes(StandardCharsets.UTF_8);
		write(out, Integer.toHexString(bytes.length) + "\r\n");
		out.write(bytes);
		write(out, "\r\n");
	}

	private static void write(OutputStream out, String text) throws IOException {
		out.write(text.getBytes(StandardCharsets.UTF_8));
		out.flush();
	}

	/**
	 * What the scripted API server sends on a watch.
	 */
	@FunctionalInterface
	private interface WatchScript {

		/**
		 * Sends the events of one watch.
		 * @param watch which watch request this is, from 1
		 * @param out the response, its headers sent
		 * @return {@code true} to keep the watch open until the test ends and then end it
		 * properly, {@code false} to break the connection at once
		 * @throws IOException if the client went away
		 */
		boolean watch(int watch, OutputStream out) throws IOException;

	}

}
