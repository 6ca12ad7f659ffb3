package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.List;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kubeboot.operator.it.ListWatchTraffic.Hold;
import io.kubeboot.operator.it.ListWatchTraffic.Traffic;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static io.kubeboot.operator.it.ListWatchTraffic.WAIT;
import static io.kubeboot.operator.it.ListWatchTraffic.configMap;
import static io.kubeboot.operator.it.ListWatchTraffic.createConfigMaps;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The caches stream their lists where the API server can (a watch with
 * {@code sendInitialEvents=true}, Kubernetes' WatchList) and read them in pages where it
 * cannot: the requests they send to a real kube-apiserver, counted on the wire.
 */
@WithControlPlane
class StreamingListIntegrationTests {

	private static final int OBJECTS = 1_200;

	@Test
	void theFirstListAndARelistAfterCompactionAreStreamed(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		CoreV1Api admin = new CoreV1Api(controlPlane.adminClient());
		createConfigMaps(admin, namespace.name(), OBJECTS);
		Traffic traffic = new Traffic("/api/v1/namespaces/" + namespace.name() + "/configmaps");
		Manager manager = Manager.builder(traffic.client(controlPlane.adminClient()))
			.namespace(namespace.name())
			.watchTimeout(Duration.ofMinutes(2))
			.build();
		try {
			manager.cache().informer(V1ConfigMap.class, namespace.name(), null);
			manager.start();
			assertThat(manager.cache().list(V1ConfigMap.class, namespace.name())).hasSize(OBJECTS);
			// no list request: one streamed list, which goes on as the watch from its
			// bookmark (it lasts as a watch does)
			assertThat(traffic.lists).isEmpty();
			assertThat(traffic.watches).hasSize(1);
			HttpUrl streamed = traffic.watches.get(0);
			assertThat(streamed.queryParameter("sendInitialEvents")).isEqualTo("true");
			assertThat(streamed.queryParameter("resourceVersionMatch")).isEqualTo("NotOlderThan");
			assertThat(Long.parseLong(streamed.queryParameter("timeoutSeconds"))).isBetween(60L, 120L);
			// consistent: every object created before the start is in it
			assertThat(streamed.queryParameter("resourceVersion")).isNull();
			admin.replaceNamespacedConfigMap("cm-2", namespace.name(), configMap("cm-2", "streamed-on")).execute();
			await().atMost(WAIT)
				.until(() -> manager.cache()
					.list(V1ConfigMap.class, namespace.name())
					.stream()
					.anyMatch((cm) -> cm.getMetadata().getName().equals("cm-2")
							&& "streamed-on".equals(cm.getData().get("v"))));
			assertThat(traffic.watches).as("the change came on the streamed list's own request").hasSize(1);

			// the watch resumes from a version the restarted API server's watch cache
			// no longer has (it starts at a later one, as a ConfigMap elsewhere was
			// created meanwhile), nor etcd (compacted; a watch cache still initializing
			// hands the watch to etcd): 410 Gone, and the relist at the latest version
			// is streamed as well, with the changes made while the watch was down. The
			// ConfigMap elsewhere is created once the watch is held, and the API server
			// restarted after it: a bookmark the informer saw before cannot carry its
			// version, so the watch cache always starts past the held watch's
			int watches = traffic.watches.size();
			Hold held = traffic.holdNext(Traffic::isWatch);
			controlPlane.restartApiServer();
			held.awaitHeld();
			admin.createNamespacedConfigMap("default", configMap("elsewhere-" + namespace.name(), "1")).execute();
			controlPlane.restartApiServer();
			admin.replaceNamespacedConfigMap("cm-0", namespace.name(), configMap("cm-0", "changed")).execute();
			admin.deleteNamespacedConfigMap("cm-1", namespace.name()).execute();
			Etcd.compact(controlPlane.etcdEndpoint());
			held.release();
			await().atMost(WAIT)
				.until(() -> manager.cache().list(V1ConfigMap.class, namespace.name()).size() == OBJECTS - 1
						&& manager.cache()
							.list(V1ConfigMap.class, namespace.name())
							.stream()
							.anyMatch((cm) -> cm.getMetadata().getName().equals("cm-0")
									&& "changed".equals(cm.getData().get("v"))));
			assertThat(traffic.lists).isEmpty();
			List<HttpUrl> later = traffic.watches.subList(watches, traffic.watches.size());
			assertThat(later).anySatisfy((relist) -> {
				assertThat(relist.queryParameter("sendInitialEvents")).isEqualTo("true");
				assertThat(relist.queryParameter("resourceVersion")).isNull();
			});
		}
		finally {
			manager.stop();
		}
	}

	@Test
	void aServerThatDoesNotStreamListsIsAskedForPages() throws Exception {
		ListAppender<ILoggingEvent> logs = new ListAppender<>();
		logs.start();
		Logger logger = (Logger) LoggerFactory.getLogger("io.kubeboot.operator.cache.internal.StreamingList");
		logger.addAppender(logs);
		try (ControlPlane unstreamed = ControlPlane.builder()
			.apiServerFlag("--feature-gates=WatchList=false")
			.start()) {
			CoreV1Api admin = new CoreV1Api(unstreamed.adminClient());
			String namespace = "unstreamed";
			admin.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace))).execute();
			createConfigMaps(admin, namespace, OBJECTS);
			Traffic traffic = new Traffic("/api/v1/namespaces/" + namespace + "/configmaps");
			Manager manager = Manager.builder(traffic.client(unstreamed.adminClient()))
				.namespace(namespace)
				.listPageSize(500)
				.build();
			try {
				manager.cache().informer(V1ConfigMap.class, namespace, null);
				manager.start();
				assertThat(manager.cache().list(V1ConfigMap.class, namespace)).hasSize(OBJECTS);
				// one refused streaming request, then a list, and no further try
				assertThat(traffic.watches.get(0).queryParameter("sendInitialEvents")).isEqualTo("true");
				assertThat(traffic.lists).isNotEmpty()
					.allSatisfy((page) -> assertThat(page.queryParameter("limit")).isEqualTo("500"));
				admin.createNamespacedConfigMap(namespace, configMap("after", "1")).execute();
				await().atMost(WAIT)
					.until(() -> manager.cache().list(V1ConfigMap.class, namespace).size() == OBJECTS + 1);
				assertThat(traffic.watches.subList(1, traffic.watches.size()))
					.allSatisfy((watch) -> assertThat(watch.queryParameter("sendInitialEvents")).isNull());
				assertThat(logs.list).singleElement()
					.satisfies((event) -> assertThat(event.getFormattedMessage()).startsWith(
							"The API server does not stream lists, listing in pages instead: kind=ConfigMap answer=\"422 "));
			}
			finally {
				manager.stop();
			}
		}
		finally {
			logger.detachAppender(logs);
		}
	}

}
