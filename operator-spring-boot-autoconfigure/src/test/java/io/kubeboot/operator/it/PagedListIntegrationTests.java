package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.kubeboot.operator.it.ListWatchTraffic.Hold;
import io.kubeboot.operator.it.ListWatchTraffic.Traffic;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static io.kubeboot.operator.it.ListWatchTraffic.WAIT;
import static io.kubeboot.operator.it.ListWatchTraffic.configMap;
import static io.kubeboot.operator.it.ListWatchTraffic.createConfigMaps;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Big lists are read in pages where they are not streamed, and a watch that breaks
 * resumes from the resourceVersion of the last bookmark instead of listing again: the
 * requests the caches send to a real kube-apiserver, counted on the wire. Streamed lists
 * are {@link StreamingListIntegrationTests}'.
 */
@WithControlPlane
class PagedListIntegrationTests {

	private static final int OBJECTS = 20_000;

	private static final int PAGE_SIZE = 500;

	@RegisterExtension
	private final TestResources resources = new TestResources();

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
				.streamingLists(false)
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
		TcpProxy proxy = this.resources.closeable(TcpProxy.to(controlPlane.apiServerUrl()));
		Traffic traffic = new Traffic("/api/v1/namespaces/" + namespace.name() + "/configmaps");
		ApiClient client = controlPlane.adminClient();
		client.setBasePath(proxy.url("https"));
		// the API server sends a bookmark 2s before a watch's timeout, if the version
		// advanced since the watch started
		Manager manager = this.resources.manager(Manager.builder(traffic.client(client))
			.namespace(namespace.name())
			.watchTimeout(Duration.ofSeconds(10))
			.listPageSize(2)
			.streamingLists(false)
			.build());
		manager.cache().informer(V1ConfigMap.class, namespace.name(), null);
		AtomicReference<String> bookmark = new AtomicReference<>();
		AtomicInteger watchesBeforeBreak = new AtomicInteger();
		traffic.onBookmark((resourceVersion) -> {
			// the connection breaks right after the first bookmark arrived
			if (bookmark.compareAndSet(null, resourceVersion)) {
				watchesBeforeBreak.set(traffic.watches.size());
				proxy.cut();
				proxy.restore();
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
		// own first: either way the next watch must resume from the bookmark (the broken
		// read itself is pinned down by ScopedInformerPagingTests against a scripted
		// server)
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

}
