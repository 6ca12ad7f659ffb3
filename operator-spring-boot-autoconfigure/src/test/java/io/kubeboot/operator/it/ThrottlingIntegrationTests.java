package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.client.Patch;
import io.kubeboot.operator.client.Reader;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubeboot.operator.workqueue.RateLimiters;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The API server answering 429 Too Many Requests with a Retry-After (fault 22): client
 * calls, reconciles and informers wait the Retry-After before they try again, without
 * backoff growing and without a hot loop. A proxy in front of the real API server answers
 * the chosen requests 429, as priority and fairness does, and records when every request
 * arrived.
 */
@WithControlPlane
class ThrottlingIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(60);

	/**
	 * Allowance for timers: a wait of Retry-After seconds is at least this much shorter.
	 */
	private static final Duration SLACK = Duration.ofMillis(100);

	/**
	 * The most the first request's trip to the proxy may take, TLS handshake included.
	 */
	private static final Duration FIRST_TRIP = Duration.ofMillis(300);

	@RegisterExtension
	private final TestResources resources = new TestResources();

	@Test
	void aCallThrottledTwiceSucceedsAfterWaitingEachRetryAfter(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		String ns = namespace.name();
		new CoreV1Api(controlPlane.adminClient()).createNamespacedConfigMap(ns, configMap(ns, "throttled")).execute();
		ThrottlingProxy proxy = proxy(controlPlane);
		Client client = Client.create(proxy.adminClient(), nothingCached(), "throttling-test", Duration.ofSeconds(30));
		Predicate<ThrottlingProxy.Seen> object = path("/api/v1/namespaces/" + ns + "/configmaps/throttled");

		proxy.throttle(2, "1", object.and(method("GET")));
		Optional<V1ConfigMap> read = client.uncached().get(V1ConfigMap.class, Request.of(ns, "throttled"));
		assertThat(read).isPresent();
		assertSpacedByRetryAfter(proxy.requests(object.and(method("GET"))), Duration.ofSeconds(1));

		// a write rejected by priority and fairness was not executed: it is sent again
		// too
		proxy.throttle(2, "1", object.and(method("PATCH")));
		V1ConfigMap patched = client.patch(read.get(), Patch.merge(Map.of("data", Map.of("patched", "yes"))));
		assertThat(patched.getData()).containsEntry("patched", "yes");
		assertSpacedByRetryAfter(proxy.requests(object.and(method("PATCH"))), Duration.ofSeconds(1));
	}

	@Test
	void aReconcileWhoseWriteStaysThrottledIsRequeuedAfterTheRetryAfterWithoutGrowingBackoff(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		String ns = namespace.name();
		ThrottlingProxy proxy = proxy(controlPlane);
		// every write of the object is throttled, asking for 3s, longer than the client's
		// timeout: the client cannot wait it out, the reconcile fails with the 429
		proxy.throttle(Integer.MAX_VALUE, "3",
				path("/api/v1/namespaces/" + ns + "/configmaps/hot").and(method("PATCH")));
		Manager manager = this.resources.manager(Manager.builder(proxy.adminClient())
			.namespace(ns)
			.clientTimeout(Duration.ofSeconds(2))
			.gracefulShutdownTimeout(Duration.ofSeconds(5))
			.build());
		List<Long> started = new CopyOnWriteArrayList<>();
		List<Long> ended = new CopyOnWriteArrayList<>();
		// a backoff that would show: 1s, 2s, 4s, 8s, ... after each failure
		Controller.builder(manager, V1ConfigMap.class)
			.rateLimiter(
					() -> RateLimiters.controllerRateLimiter(Duration.ofSeconds(1), Duration.ofSeconds(1000), 10, 100))
			.complete((request) -> {
				started.add(System.nanoTime());
				try {
					V1ConfigMap current = manager.client().get(V1ConfigMap.class, request).orElseThrow();
					manager.client().patch(current, Patch.merge(Map.of("data", Map.of("reconciled", "yes"))));
					return Result.done();
				}
				finally {
					ended.add(System.nanoTime());
				}
			});
		manager.start();
		new CoreV1Api(controlPlane.adminClient()).createNamespacedConfigMap(ns, configMap(ns, "hot")).execute();

		await().atMost(WAIT).until(() -> started.size() >= 5);
		for (int i = 1; i < 5; i++) {
			Duration pause = Duration.ofNanos(started.get(i) - ended.get(i - 1));
			// the Retry-After, each time: not the backoff's 1s, 2s, 4s, 8s
			assertThat(pause).as("pause before attempt %d", i + 1)
				.isGreaterThanOrEqualTo(Duration.ofSeconds(3).minus(SLACK))
				.isLessThan(Duration.ofSeconds(8));
		}
	}

	@Test
	void anInformerWhoseListAndWatchAreThrottledWaitsEachRetryAfterBeforeTryingAgain(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		String ns = namespace.name();
		ThrottlingProxy proxy = proxy(controlPlane);
		Predicate<ThrottlingProxy.Seen> collection = path("/api/v1/namespaces/" + ns + "/configmaps");
		proxy.throttle(2, "3", collection.and((seen) -> !seen.isWatch()));
		proxy.throttle(1, "3", collection.and(ThrottlingProxy.Seen::isWatch));
		// lists in pages: a streamed list is a watch, and one throttled is read in pages
		// that time instead (StreamingListIntegrationTests)
		Manager manager = Manager.builder(proxy.adminClient()).namespace(ns).streamingLists(false).build();
		this.resources.manager(manager);
		manager.cache().informer(V1ConfigMap.class, ns, null);
		manager.start();
		await().atMost(WAIT).until(() -> proxy.requests(collection).size() >= 5);

		List<ThrottlingProxy.Seen> requests = proxy.requests(collection).subList(0, 5);
		// list, list, list (the one answered), watch, watch: a throttled watch is opened
		// again, not replaced by a list
		assertThat(requests).extracting(ThrottlingProxy.Seen::isWatch).containsExactly(false, false, false, true, true);
		assertThat(requests).extracting(ThrottlingProxy.Seen::wasThrottled)
			.containsExactly(true, true, false, true, false);
		assertThat(requests.get(1).since(requests.get(0))).isGreaterThanOrEqualTo(Duration.ofSeconds(3).minus(SLACK));
		assertThat(requests.get(2).since(requests.get(1))).isGreaterThanOrEqualTo(Duration.ofSeconds(3).minus(SLACK));
		assertThat(requests.get(4).since(requests.get(3))).isGreaterThanOrEqualTo(Duration.ofSeconds(3).minus(SLACK));
	}

	@Test
	void aClientRateLimitSpacesTheRequestsOfTheClient(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		String ns = namespace.name();
		new CoreV1Api(controlPlane.adminClient()).createNamespacedConfigMap(ns, configMap(ns, "limited")).execute();
		ThrottlingProxy proxy = proxy(controlPlane);
		Manager manager = Manager.builder(proxy.adminClient()).namespace(ns).clientRateLimit(2, 1).build();
		for (int i = 0; i < 4; i++) {
			assertThat(manager.client().uncached().get(V1ConfigMap.class, Request.of(ns, "limited"))).isPresent();
		}
		// discovery and the reads, one token each, 2 per second: request n starts at
		// least (n - 1) x 500 ms after the first. The proxy sees each request after its
		// trip over the network (the first one's includes the TLS handshake), so the
		// times are measured from the first request's arrival, less what that trip took
		List<ThrottlingProxy.Seen> requests = proxy.requests((seen) -> true);
		assertThat(requests).hasSizeGreaterThanOrEqualTo(5);
		for (int i = 1; i < requests.size(); i++) {
			assertThat(requests.get(i).since(requests.get(0))).as("time from request 1 to request %d", i + 1)
				.isGreaterThanOrEqualTo(Duration.ofMillis(500L * i).minus(FIRST_TRIP));
		}
	}

	private ThrottlingProxy proxy(ControlPlane controlPlane) throws Exception {
		return this.resources.closeable(ThrottlingProxy.to(controlPlane));
	}

	/**
	 * Asserts that the first requests were throttled and each came at least a Retry-After
	 * after the one before, and that the last was forwarded.
	 */
	private static void assertSpacedByRetryAfter(List<ThrottlingProxy.Seen> requests, Duration retryAfter) {
		assertThat(requests).extracting(ThrottlingProxy.Seen::wasThrottled).containsExactly(true, true, false);
		for (int i = 1; i < requests.size(); i++) {
			assertThat(requests.get(i).since(requests.get(i - 1))).as("time before attempt %d", i + 1)
				.isGreaterThanOrEqualTo(retryAfter.minus(SLACK));
		}
	}

	private static Predicate<ThrottlingProxy.Seen> path(String path) {
		return (seen) -> seen.path().equals(path);
	}

	private static Predicate<ThrottlingProxy.Seen> method(String method) {
		return (seen) -> seen.method().equals(method);
	}

	private static V1ConfigMap configMap(String namespace, String name) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().namespace(namespace).name(name));
	}

	/** The calls under test read from the API server only. */
	private static Reader nothingCached() {
		return new Reader() {

			@Override
			public <T extends KubernetesObject> Optional<T> get(Class<T> type, Request request) {
				throw new IllegalStateException("not cached");
			}

			@Override
			public <T extends KubernetesObject> List<T> list(Class<T> type, String namespace) {
				throw new IllegalStateException("not cached");
			}

		};
	}

}
