package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.sharding.ShardRing;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TcpProxy;
import io.kubeboot.operator.test.TestNamespace;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the sharding tests' replicas reconciled, in one JVM: every reconcile's object,
 * replica, start and end, and whether its object was missing from the replica's cache.
 * Their reconciler works 30ms (so that two replicas reconciling one object at once show
 * as an overlap) and asks to be called again after 200ms. The objects are ConfigMaps
 * labelled {@code sharded=yes}. Thread-safe.
 */
final class ShardingJournal {

	/** The label selecting the sharded objects. */
	static final String SELECTOR = "sharded=yes";

	private static final Duration WORK = Duration.ofMillis(30);

	private static final Duration REQUEUE = Duration.ofMillis(200);

	private final List<Entry> entries = new CopyOnWriteArrayList<>();

	/**
	 * Reconciles an object for a replica: works, journals the reconcile and asks to be
	 * called again.
	 * @param request the object
	 * @param replica the replica's identity
	 * @param missing whether the object is missing from the replica's cache, asked at the
	 * start
	 * @return a requeue after 200ms
	 * @throws InterruptedException if interrupted while working
	 */
	Result reconcile(Request request, String replica, BooleanSupplier missing) throws InterruptedException {
		long start = System.nanoTime();
		boolean absent = missing.getAsBoolean();
		try {
			// simulated work, not a wait: a second replica reconciling the same object
			// meanwhile shows as an overlap
			Thread.sleep(WORK.toMillis());
		}
		finally {
			this.entries.add(new Entry(request, replica, start, System.nanoTime(), absent));
		}
		return Result.requeueAfter(REQUEUE);
	}

	/**
	 * Makes a replica's shard Lease renewals late (the proxy its Lease requests go
	 * through answers 700ms late) until its fence closed, so that every object comes due
	 * meanwhile (each asks to be reconciled every 200ms); then lifts the delay, waits
	 * until the replica is a member again, and until every object was reconciled after
	 * that.
	 * @param proxy the proxy of the replica's Lease requests
	 * @param ring the replica's ring
	 * @param objects how many objects there are
	 * @param wait the longest wait for each step
	 */
	void lapseAndAwaitAllReconciled(TcpProxy proxy, ShardRing ring, int objects, Duration wait) {
		proxy.delay(Duration.ofMillis(700));
		await().atMost(wait).pollInterval(Duration.ofMillis(20)).until(() -> !ring.isMember());
		proxy.restore();
		await().atMost(wait).until(ring::isMember);
		long renewed = System.nanoTime();
		await().atMost(wait).until(() -> reconcilersSince(renewed).size() == objects);
	}

	/**
	 * Returns the reconciles journaled so far.
	 * @return the entries, in the order they ended
	 */
	Stream<Entry> entries() {
		return this.entries.stream();
	}

	/**
	 * Returns who reconciled each object in reconciles that started at or after a time.
	 * @param nanos the time, on {@link System#nanoTime()}'s clock
	 * @return the replicas by object
	 */
	Map<Request, Set<String>> reconcilersSince(long nanos) {
		Map<Request, Set<String>> by = new HashMap<>();
		for (Entry entry : this.entries) {
			if (entry.start() >= nanos) {
				by.computeIfAbsent(entry.request(), (request) -> new HashSet<>()).add(entry.replica());
			}
		}
		return by;
	}

	/**
	 * Asserts that every one of the objects was reconciled, and that each object's
	 * reconciles, in the order they started, never overlap: each starts after the one
	 * before ended, whichever replica ran it.
	 * @param objects how many objects there are
	 */
	void assertNoOverlap(int objects) {
		Map<Request, List<Entry>> byObject = new HashMap<>();
		this.entries.forEach((entry) -> byObject.computeIfAbsent(entry.request(), (r) -> new ArrayList<>()).add(entry));
		assertThat(byObject).hasSize(objects);
		byObject.forEach((request, reconciles) -> {
			reconciles.sort(Comparator.comparingLong(Entry::start));
			for (int i = 1; i < reconciles.size(); i++) {
				Entry previous = reconciles.get(i - 1);
				Entry next = reconciles.get(i);
				assertThat(next.start())
					.as("%s: %s started while %s still reconciled it", request, next.replica(), previous.replica())
					.isGreaterThanOrEqualTo(previous.end());
			}
		});
	}

	/**
	 * Asserts that no reconcile found its object missing from its replica's cache.
	 */
	void assertNothingMissing() {
		assertThat(this.entries).as("reconciles that found their object missing from the cache")
			.noneMatch(Entry::missing);
	}

	/**
	 * Creates the sharded objects, {@code object-0} to {@code object-<count - 1>}.
	 * @param controlPlane the control plane
	 * @param namespace the namespace to create them in
	 * @param count how many
	 * @throws Exception if a create fails
	 */
	static void createObjects(ControlPlane controlPlane, TestNamespace namespace, int count) throws Exception {
		createObjects(controlPlane, namespace, count, Map.of());
	}

	static void createObjects(ControlPlane controlPlane, TestNamespace namespace, int count,
			Map<String, String> annotations) throws Exception {
		CoreV1Api core = new CoreV1Api(controlPlane.adminClient());
		for (int i = 0; i < count; i++) {
			core.createNamespacedConfigMap(namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name("object-" + i)
						.putLabelsItem("sharded", "yes")
						.annotations(annotations.isEmpty() ? null : new HashMap<>(annotations))))
				.execute();
		}
	}

	/**
	 * One reconcile.
	 *
	 * @param request the object
	 * @param replica the replica's identity
	 * @param start when it started, on {@link System#nanoTime()}'s clock
	 * @param end when it ended
	 * @param missing whether the object was missing from the replica's cache
	 */
	record Entry(Request request, String replica, long start, long end, boolean missing) {
	}

}
