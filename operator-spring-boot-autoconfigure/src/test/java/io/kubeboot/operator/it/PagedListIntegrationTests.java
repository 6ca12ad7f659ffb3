package io.kubeboot.operator.it;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TcpProxy;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.ForwardingSource;
import okio.Okio;
import okio.Source;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Big lists are read in pages, and a watch that breaks resumes from the resourceVersion
 * of the last bookmark instead of listing again: the requests the caches send to a real
 * kube-apiserver, counted on the wire.
 */
@WithControlPlane
class PagedListIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(60);

	private static final int OBJECTS = 20_000;

	private static final int PAGE_SIZE = 500;

	private final List<Manager> managers = new CopyOnWriteArrayList<>();

	private TcpProxy proxy;

	@AfterEach
	void stop() {
		this.managers.forEach(Manager::stop);
		if (this.proxy != null) {
			this.proxy.close();
		}
	}

	/**
	 * On an API server without a watch cache (as for a kind whose watch cache is turned
	 * off) every list is read from etcd, so even the first one, at resourceVersion 0, is
	 * paged. So is a relist after the watched resourceVersion was compacted away, and a
	 * continue token that expires mid-list makes the cache read the list again in one
	 * request.
	 */
	@Test
	void everyListOfABigCollectionIsReadInPages() throws Exception {
		try (ControlPlane uncached = ControlPlane.builder().apiServerFlag("--watch-cache=false").start()) {
			CoreV1Api admin = new CoreV1Api(uncached.adminClient());
			String namespace = "paged";
			admin.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace))).execute();
			createConfigMaps(admin, namespace, OBJECTS);
			Traffic traffic = new Traffic("/api/v1/namespaces/" + namespace + "/configmaps");
			Manager manager = Manager.builder(traffic.client(uncached.adminClient()))
				.namespace(namespace)
				.watchTimeout(Duration.ofSeconds(4))
				.build();
			try {
				manager.cache().informer(V1ConfigMap.class, namespace, null);

				// the first list: 40 pages of 500, the later ones by continue token alone
				manager.start();
				assertThat(manager.cache().list(V1ConfigMap.class, namespace)).hasSize(OBJECTS);
				List<HttpUrl> firstList = List.copyOf(traffic.lists);
				assertThat(firstList).hasSize(OBJECTS / PAGE_SIZE);
				assertThat(firstList).allSatisfy((page) -> assertThat(page.queryParameter("limit")).isEqualTo("500"));
				assertThat(firstList.get(0).queryParameter("resourceVersion")).isEqualTo("0");
				assertThat(firstList.get(0).queryParameter("continue")).isNull();
				assertThat(firstList.subList(1, firstList.size())).allSatisfy((page) -> {
					assertThat(page.queryParameter("continue")).isNotEmpty();
					assertThat(page.queryParameter("resourceVersion")).isNull();
				});

				// the watch resumes from a version etcd compacted away meanwhile (two
				// changes: etcd keeps the revision it compacts at): 410 Gone, and the
				// relist at the latest version is paged as well
				Hold watch = traffic.holdNext(Traffic::isWatch);
				watch.awaitHeld();
				admin.replaceNamespacedConfigMap("cm-0", namespace, configMap("cm-0", "changed")).execute();
				admin.deleteNamespacedConfigMap("cm-1", namespace).execute();
				Etcd.compact(uncached.etcdEndpoint());
				watch.release();
				await().atMost(WAIT).until(() -> traffic.lists.size() == 2 * OBJECTS / PAGE_SIZE);
				await().atMost(WAIT)
					.until(() -> manager.cache().list(V1ConfigMap.class, namespace).size() == OBJECTS - 1
							&& changed(manager, namespace, "cm-0"));
				List<HttpUrl> relist = List.copyOf(traffic.lists.subList(firstList.size(), traffic.lists.size()));
				assertThat(relist).allSatisfy((page) -> assertThat(page.queryParameter("limit")).isEqualTo("500"));
				assertThat(relist.get(0).queryParameter("resourceVersion")).isNull();
				assertThat(relist.get(0).queryParameter("continue")).isNull();

				// the same, and etcd compacts the relist's snapshot after its first
				// page: its continue token expires, and the list is read again in one
				// request
				int listed = traffic.lists.size();
				watch = traffic.holdNext(Traffic::isWatch);
				watch.awaitHeld();
				admin.replaceNamespacedConfigMap("cm-2", namespace, configMap("cm-2", "changed")).execute();
				admin.deleteNamespacedConfigMap("cm-4", namespace).execute();
				Etcd.compact(uncached.etcdEndpoint());
				Hold secondPage = traffic.holdNext((url) -> url.queryParameter("continue") != null);
				watch.release();
				secondPage.awaitHeld();
				admin.replaceNamespacedConfigMap("cm-3", namespace, configMap("cm-3", "changed")).execute();
				Etcd.compact(uncached.etcdEndpoint());
				secondPage.release();
				await().atMost(WAIT)
					.until(() -> changed(manager, namespace, "cm-2") && changed(manager, namespace, "cm-3"));
				assertThat(traffic.lists.subList(listed, traffic.lists.size())).satisfiesExactly(
						(first) -> assertThat(first.queryParameter("limit")).isEqualTo("500"),
						(second) -> assertThat(second.queryParameter("continue")).isNotEmpty(), (whole) -> {
							assertThat(whole.queryParameter("limit")).isNull();
							assertThat(whole.queryParameter("continue")).isNull();
						});
				// the deletion the whole list shows reaches the cache after its objects
				await().atMost(WAIT)
					.until(() -> manager.cache().list(V1ConfigMap.class, namespace).size() == OBJECTS - 2);
			}
			finally {
				// before its API server goes
				manager.stop();
			}
		}
	}

	/**
	 * A quiet namespace whose watch receives a bookmark, because ConfigMaps changed in
	 * another namespace, and whose connection then breaks: the watch resumes from the
	 * bookmark's resourceVersion, without a list.
	 */
	@Test
	void aBrokenWatchResumesFromTheLastBookmarkWithoutListingAgain(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		CoreV1Api admin = new CoreV1Api(controlPlane.adminClient());
		for (int i = 0; i < 3; i++) {
			admin.createNamespacedConfigMap(namespace.name(), configMap("cm-" + i, "0")).execute();
		}
		this.proxy = TcpProxy.to(controlPlane.apiServerUrl());
		Traffic traffic = new Traffic("/api/v1/namespaces/" + namespace.name() + "/configmaps");
		ApiClient client = controlPlane.adminClient();
		client.setBasePath(this.proxy.url("https"));
		// the API server sends a bookmark 2s before a watch's timeout, if the version
		// advanced since the watch started
		Manager manager = Manager.builder(traffic.client(client))
			.namespace(namespace.name())
			.watchTimeout(Duration.ofSeconds(10))
			.listPageSize(2)
			.build();
		this.managers.add(manager);
		manager.cache().informer(V1ConfigMap.class, namespace.name(), null);
		AtomicReference<String> bookmark = new AtomicReference<>();
		AtomicInteger watchesBeforeBreak = new AtomicInteger();
		traffic.onBookmark((resourceVersion) -> {
			// the connection breaks right after the first bookmark arrived
			if (bookmark.compareAndSet(null, resourceVersion)) {
				watchesBeforeBreak.set(traffic.watches.size());
				this.proxy.cut();
				this.proxy.restore();
			}
		});
		manager.start();
		// the first list, at resourceVersion 0, is served whole from the watch cache,
		// whatever the page size
		assertThat(traffic.lists).singleElement().satisfies((list) -> {
			assertThat(list.queryParameter("resourceVersion")).isEqualTo("0");
			assertThat(list.queryParameter("limit")).isEqualTo("2");
		});
		assertThat(manager.cache().list(V1ConfigMap.class, namespace.name())).hasSize(3);

		String elsewhere = "bookmark-" + namespace.name();
		long changedElsewhere = Long.parseLong(admin.createNamespacedConfigMap("default", configMap(elsewhere, "1"))
			.execute()
			.getMetadata()
			.getResourceVersion());
		try {
			await().atMost(WAIT).until(() -> bookmark.get() != null);
			await().atMost(WAIT).until(() -> traffic.watches.size() > watchesBeforeBreak.get());
		}
		finally {
			admin.deleteNamespacedConfigMap(elsewhere, "default").execute();
		}
		assertThat(Long.parseLong(bookmark.get())).isGreaterThanOrEqualTo(changedElsewhere);
		// the cut usually breaks the read, but the API server may end the watch on its
		// own
		// first: either way the next watch must resume from the bookmark (the broken read
		// itself is pinned down by ScopedInformerPagingTests against a scripted server)
		HttpUrl resumed = traffic.watches.get(watchesBeforeBreak.get());
		assertThat(resumed.queryParameter("resourceVersion")).isEqualTo(bookmark.get());
		assertThat(traffic.watches)
			.allSatisfy((watch) -> assertThat(watch.queryParameter("allowWatchBookmarks")).isEqualTo("true"));

		// the resumed watch delivers, and there was still only the one list
		admin.createNamespacedConfigMap(namespace.name(), configMap("after", "1")).execute();
		await().atMost(WAIT).until(() -> manager.cache().list(V1ConfigMap.class, namespace.name()).size() == 4);
		assertThat(traffic.lists).hasSize(1);
	}

	private static boolean changed(Manager manager, String namespace, String name) {
		return manager.cache()
			.list(V1ConfigMap.class, namespace)
			.stream()
			.anyMatch((cm) -> cm.getMetadata().getName().equals(name) && "changed".equals(cm.getData().get("v")));
	}

	/**
	 * Creates ConfigMaps {@code cm-0} to {@code cm-<count - 1>}, 16 requests at a time.
	 */
	private static void createConfigMaps(CoreV1Api admin, String namespace, int count) throws Exception {
		int threads = 16;
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Callable<Void>> tasks = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				int first = t;
				tasks.add(() -> {
					for (int i = first; i < count; i += threads) {
						admin.createNamespacedConfigMap(namespace, configMap("cm-" + i, "0")).execute();
					}
					return null;
				});
			}
			for (Future<Void> done : executor.invokeAll(tasks)) {
				done.get();
			}
		}
		finally {
			executor.shutdownNow();
		}
	}

	private static V1ConfigMap configMap(String name, String value) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("v", value));
	}

	/**
	 * Records the list and watch requests of one collection on the wire, can hold one of
	 * them back until released, and reads the bookmarks of the watches as they arrive.
	 */
	private static final class Traffic implements Interceptor {

		private static final Pattern BOOKMARK = Pattern
			.compile("^\\{\"type\":\"BOOKMARK\".*\"resourceVersion\":\"(\\d+)\"");

		private final String path;

		private final List<HttpUrl> lists = new CopyOnWriteArrayList<>();

		private final List<HttpUrl> watches = new CopyOnWriteArrayList<>();

		private final List<Hold> holds = new ArrayList<>();

		private volatile Consumer<String> onBookmark = (resourceVersion) -> {
		};

		Traffic(String path) {
			this.path = path;
		}

		ApiClient client(ApiClient client) {
			return client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(this).build());
		}

		static boolean isWatch(HttpUrl url) {
			return "true".equals(url.queryParameter("watch"));
		}

		void onBookmark(Consumer<String> action) {
			this.onBookmark = action;
		}

		/**
		 * Holds the next request that matches back until the hold is released.
		 */
		synchronized Hold holdNext(Predicate<HttpUrl> which) {
			Hold hold = new Hold(which);
			this.holds.add(hold);
			return hold;
		}

		private synchronized Hold take(HttpUrl url) {
			for (Hold hold : this.holds) {
				if (hold.which.test(url)) {
					this.holds.remove(hold);
					return hold;
				}
			}
			return null;
		}

		@Override
		public Response intercept(Chain chain) throws IOException {
			Request request = chain.request();
			HttpUrl url = request.url();
			if (!url.encodedPath().equals(this.path)) {
				return chain.proceed(request);
			}
			boolean watch = isWatch(url);
			(watch ? this.watches : this.lists).add(url);
			Hold hold = take(url);
			if (hold != null) {
				hold.hold();
			}
			Response response = chain.proceed(request);
			ResponseBody body = response.body();
			if (!watch || body == null) {
				return response;
			}
			return response.newBuilder()
				.body(ResponseBody.create(Okio.buffer(new BookmarkReader(body.source())), body.contentType(), -1))
				.build();
		}

		/**
		 * Reads a watch's events as the client reads them, before it decodes them.
		 */
		private final class BookmarkReader extends ForwardingSource {

			private final StringBuilder pending = new StringBuilder();

			BookmarkReader(Source delegate) {
				super(delegate);
			}

			@Override
			public long read(Buffer sink, long byteCount) throws IOException {
				long read = super.read(sink, byteCount);
				if (read > 0) {
					Buffer copy = new Buffer();
					sink.copyTo(copy, sink.size() - read, read);
					this.pending.append(copy.readUtf8());
					int newline;
					while ((newline = this.pending.indexOf("\n")) >= 0) {
						Matcher bookmark = BOOKMARK.matcher(this.pending.substring(0, newline));
						this.pending.delete(0, newline + 1);
						if (bookmark.find()) {
							Traffic.this.onBookmark.accept(bookmark.group(1));
						}
					}
				}
				return read;
			}

		}

	}

	/**
	 * One request held back.
	 */
	private static final class Hold {

		private final Predicate<HttpUrl> which;

		private final CountDownLatch held = new CountDownLatch(1);

		private final CountDownLatch released = new CountDownLatch(1);

		Hold(Predicate<HttpUrl> which) {
			this.which = which;
		}

		void hold() {
			this.held.countDown();
			try {
				this.released.await(WAIT.toSeconds(), TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

		void awaitHeld() throws InterruptedException {
			assertThat(this.held.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("a request was held").isTrue();
		}

		void release() {
			this.released.countDown();
		}

	}

}
