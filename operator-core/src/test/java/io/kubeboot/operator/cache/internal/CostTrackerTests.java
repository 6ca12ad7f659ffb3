package io.kubeboot.operator.cache.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kubeboot.operator.cache.InformerCost;
import io.kubeboot.operator.cache.InformerKey;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Tests for {@link CostTracker} and {@link HeapSampler}: the object budget, reported once
 * per crossing, and the estimate: sampled again only when stale, close to the heap of
 * every object, bounded in work, and never failing a read.
 */
class CostTrackerTests {

	private static final InformerKey KEY = new InformerKey(V1ConfigMap.class, "shop", null);

	private final HeapEstimator estimator = new HeapEstimator(ObjectLayout.DEFAULT);

	private final HeapSampler sampler = new HeapSampler(this.estimator);

	private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

	private long now = 1_000_000_000L;

	@BeforeEach
	void captureLogs() {
		this.logs.start();
		logger().addAppender(this.logs);
	}

	@AfterEach
	void releaseLogs() {
		logger().detachAppender(this.logs);
	}

	@Test
	void goingOverTheBudgetIsReportedOnceUntilTheCountIsBackWellWithin() {
		CostTracker tracker = tracker(100);
		tracker.sized(100);
		assertThat(this.logs.list).isEmpty();
		tracker.sized(101);
		tracker.sized(150);
		tracker.sized(95); // within, but not nine tenths of it: still reported as over
		tracker.sized(120);
		assertThat(tracker.cost(null).budgetCrossings()).isOne();
		assertThat(this.logs.list).singleElement().satisfies((event) -> {
			assertThat(event.getLevel()).isEqualTo(Level.WARN);
			assertThat(event.getFormattedMessage()).isEqualTo("Informer holds more objects than its budget, and keeps "
					+ "them all: informer=V1ConfigMap[namespace=shop] objects=101 budget=100");
		});
		tracker.sized(90);
		assertThat(this.logs.list).last()
			.satisfies((event) -> assertThat(event.getFormattedMessage())
				.isEqualTo("Informer is back within its object budget: informer=V1ConfigMap[namespace=shop] objects=90 "
						+ "budget=100"));
		tracker.sized(101);
		assertThat(tracker.cost(null).budgetCrossings()).isEqualTo(2);
		assertThat(this.logs.list).filteredOn((event) -> event.getLevel() == Level.WARN).hasSize(2);
	}

	@Test
	void aSmallBudgetIsArmedAgainOneBelowIt() {
		CostTracker tracker = tracker(3);
		tracker.sized(4);
		tracker.sized(3);
		tracker.sized(4);
		assertThat(tracker.cost(null).budgetCrossings()).isOne();
		tracker.sized(2);
		tracker.sized(4);
		assertThat(tracker.cost(null).budgetCrossings()).isEqualTo(2);
	}

	@Test
	void noBudgetIsNeverExceeded() {
		CostTracker tracker = tracker(0);
		tracker.sized(1_000_000);
		assertThat(tracker.cost(null)).isEqualTo(InformerCost.of(0, 0, 0, 0));
		assertThat(this.logs.list).isEmpty();
	}

	@Test
	void anInformerThatDroppedItsObjectsIsArmedAgainSilently() {
		CostTracker tracker = tracker(1);
		tracker.sized(2);
		tracker.emptied();
		tracker.sized(2);
		assertThat(tracker.cost(null).budgetCrossings()).isEqualTo(2);
		assertThat(this.logs.list).extracting(ILoggingEvent::getLevel).containsExactly(Level.WARN, Level.WARN);
	}

	@Test
	void theCostIsOverBudgetWhileTheCountIs() {
		CostTracker tracker = tracker(2);
		ObjectStore<V1ConfigMap> store = new ObjectStore<>(List.of(), () -> {
		});
		store.add(configMap("a", 10));
		store.add(configMap("b", 10));
		assertThat(tracker.cost(store).overBudget()).isFalse();
		store.add(configMap("c", 10));
		assertThat(tracker.cost(store).overBudget()).isTrue();
		assertThat(tracker.cost(store).objectBudget()).hasValue(2);
	}

	@Test
	void aSmallStoreIsEstimatedWhole() {
		CostTracker tracker = tracker(0);
		ObjectStore<V1ConfigMap> store = new ObjectStore<>();
		V1ConfigMap small = configMap("small", 10);
		V1ConfigMap large = configMap("large", 10_000);
		store.add(small);
		store.add(large);
		InformerCost cost = tracker.cost(store);
		assertThat(cost.objects()).isEqualTo(2);
		assertThat(cost.estimatedBytes()).hasValue(exact(store));
	}

	@Test
	void aLargeStoreIsEstimatedFromASampleTimesItsCount() {
		CostTracker tracker = tracker(0);
		ObjectStore<V1ConfigMap> store = new ObjectStore<>();
		for (int i = 0; i < 2000; i++) {
			store.add(configMap("cm-" + i, 100));
		}
		assertThat(tracker.cost(store).estimatedBytes().getAsLong()).isCloseTo(exact(store),
				Percentage.withPercentage(1));
	}

	@Test
	void aSampleOfObjectsOfMixedSizesAcrossNamespacesEstimatesTheirTotal() {
		CostTracker tracker = tracker(0);
		ObjectStore<V1ConfigMap> store = new ObjectStore<>();
		for (int i = 0; i < 1000; i++) {
			// half the objects ten times the size of the other half, in a namespace of
			// their own
			String namespace = (i % 2 == 0) ? "small" : "large";
			store.add(new V1ConfigMap().metadata(new V1ObjectMeta().namespace(namespace)
				.name("cm-" + i)
				.annotations(Map.of("note", "x".repeat(namespace.equals("small") ? 400 : 4000)))));
		}
		long exact = exact(store);
		for (int i = 0; i < 10; i++) {
			this.now += Duration.ofSeconds(CostTracker.REFRESH_SECONDS).toNanos();
			assertThat(tracker.cost(store).estimatedBytes().getAsLong()).isCloseTo(exact, Percentage.withPercentage(3));
		}
	}

	@Test
	void theDataOfSecretsIsCountedForEveryObjectSoAHeavyTailDoesNotSwayTheEstimate() {
		CostTracker tracker = tracker(0);
		ObjectStore<V1Secret> store = new ObjectStore<>();
		for (int i = 0; i < 5000; i++) {
			// 2% of Helm releases of 100 KB among Secrets of 1 KB: a sample of 512 holds
			// ten of them, give or take three
			int size = (i % 50 == 0) ? 100_000 : 1_000;
			store.add(new V1Secret().metadata(new V1ObjectMeta().namespace("team-" + (i % 7)).name("s-" + i))
				.data(new HashMap<>(Map.of("release", new byte[size]))));
		}
		long exact = exact(store);
		for (int i = 0; i < 20; i++) {
			this.now += Duration.ofSeconds(CostTracker.REFRESH_SECONDS).toNanos();
			assertThat(tracker.cost(store).estimatedBytes().getAsLong()).isCloseTo(exact, Percentage.withPercentage(2));
		}
	}

	@Test
	void aStringTheCacheSharesCountsOnceAndAStringOfOneObjectInFullWhateverThePoolHolds() {
		MetadataDeduplicator deduplicator = new MetadataDeduplicator();
		ObjectStore<V1ConfigMap> unique = new ObjectStore<>();
		ObjectStore<V1ConfigMap> repeated = new ObjectStore<>();
		for (int i = 0; i < 300; i++) {
			// as a StatefulSet's pods: a label value of their own, pooled all the same
			unique.add(deduplicator.deduplicate(labelled("cm-" + i, "pod-%05d".formatted(i))));
			repeated.add(deduplicator.deduplicate(labelled("cm-" + i, "pod-same1")));
		}
		long perValue = ObjectLayout.DEFAULT.string("pod-00001");
		long difference = tracker(0).cost(unique).estimatedBytes().getAsLong()
				- tracker(0).cost(repeated).estimatedBytes().getAsLong();
		assertThat(difference).isEqualTo(299 * perValue);
	}

	@Test
	void anObjectThatFailsToBeReadIsLeftOutAndReportedOnce() {
		CostTracker tracker = tracker(0);
		ObjectStore<V1ConfigMap> store = new ObjectStore<>();
		for (int i = 0; i < 10; i++) {
			store.add(configMap("cm-" + i, 100));
		}
		// changed by a reconciler while it is read, against the cache's contract
		store.add(new V1ConfigMap().metadata(new V1ObjectMeta().namespace("shop").name("labels"))
			.data(Map.of("value", "x".repeat(100))));
		store.get("shop", "labels").getMetadata().setLabels(new ChangingMap());
		store
			.add(new V1ConfigMap().metadata(new V1ObjectMeta().namespace("shop").name("data")).data(new ChangingMap()));
		InformerCost cost = tracker.cost(store);
		assertThat(cost.objects()).isEqualTo(12);
		assertThat(cost.estimatedBytes()).isNotEmpty();
		this.now += Duration.ofSeconds(CostTracker.REFRESH_SECONDS).toNanos();
		assertThat(tracker.cost(store).estimatedBytes()).isNotEmpty();
		assertThat(this.logs.list).singleElement().satisfies((event) -> {
			assertThat(event.getLevel()).isEqualTo(Level.WARN);
			assertThat(event.getFormattedMessage()).contains("must not be modified",
					"informer=V1ConfigMap[namespace=shop]");
		});
		// all of them unreadable: no estimate, no failure of the read, and one report
		ObjectStore<V1ConfigMap> unreadable = new ObjectStore<>();
		unreadable
			.add(new V1ConfigMap().metadata(new V1ObjectMeta().namespace("shop").name("data")).data(new ChangingMap()));
		CostTracker unread = tracker(0);
		assertThat(unread.cost(unreadable).estimatedBytes()).isEmpty();
		assertThat(unread.cost(unreadable).estimatedBytes()).isEmpty();
		assertThat(this.logs.list).hasSize(2);
	}

	@Test
	void aPassStopsAfterItsVisitsAndTheCacheWalksABoundedNumberOfObjectsASecond() {
		ObjectStore<V1ConfigMap> store = new ObjectStore<>();
		for (int i = 0; i < 600; i++) {
			Map<String, String> labels = new HashMap<>();
			for (int label = 0; label < 300; label++) {
				labels.put("label-" + label, "value-" + i + "-" + label);
			}
			store.add(new V1ConfigMap().metadata(new V1ObjectMeta().namespace("shop").name("cm-" + i).labels(labels)));
		}
		// some 600 objects each: a pass walks about 330 of them
		int allowed = (int) (HeapSampler.VISITS_PER_SECOND / HeapSampler.MAX_VISITS);
		List<CostTracker> trackers = new ArrayList<>();
		for (int i = 0; i <= allowed; i++) {
			CostTracker tracker = tracker(0);
			trackers.add(tracker);
			assertThat(tracker.cost(store).estimatedBytes().getAsLong()).isCloseTo(exact(store),
					Percentage.withPercentage(5));
		}
		assertThat(this.logs.list).filteredOn((event) -> event.getLevel() == Level.INFO)
			.hasSize(allowed + 1)
			.allSatisfy((event) -> assertThat(event.getFormattedMessage())
				.startsWith("Informer's objects are large: its heap is estimated from fewer of them than usual"));
		// all stale at once: the first passes spend the cache's visits of this second,
		// the last keeps its estimate though its objects doubled
		this.now += Duration.ofSeconds(CostTracker.REFRESH_SECONDS).toNanos();
		List<Long> before = trackers.stream()
			.map((tracker) -> tracker.cost(store).estimatedBytes().getAsLong())
			.toList();
		for (int i = 0; i < 600; i++) {
			store.get("shop", "cm-" + i).getMetadata().annotations(Map.of("note", "x".repeat(50_000)));
		}
		this.now += Duration.ofSeconds(CostTracker.REFRESH_SECONDS).toNanos();
		List<Long> after = trackers.stream()
			.map((tracker) -> tracker.cost(store).estimatedBytes().getAsLong())
			.toList();
		assertThat(after.subList(0, allowed))
			.allSatisfy((bytes) -> assertThat(bytes).isGreaterThan(before.get(0) * 3 / 2));
		assertThat(after.get(allowed)).isEqualTo(before.get(allowed));
		this.now += Duration.ofSeconds(1).toNanos();
		assertThat(trackers.get(allowed).cost(store).estimatedBytes().getAsLong())
			.isGreaterThan(before.get(allowed) * 3 / 2);
	}

	@Test
	void theSampleIsTakenAgainOnlyOnceStale() {
		CostTracker tracker = tracker(0);
		ObjectStore<V1ConfigMap> store = new ObjectStore<>();
		for (int i = 0; i < 100; i++) {
			store.add(configMap("cm-" + i, 100));
		}
		long first = tracker.cost(store).estimatedBytes().getAsLong();
		// the same objects, larger: not seen until the sample is stale
		for (int i = 0; i < 100; i++) {
			store.update(configMap("cm-" + i, 1000));
		}
		assertThat(tracker.cost(store).estimatedBytes()).hasValue(first);
		this.now += Duration.ofSeconds(CostTracker.REFRESH_SECONDS).toNanos();
		long refreshed = tracker.cost(store).estimatedBytes().getAsLong();
		assertThat(refreshed).isGreaterThan(first + 100 * 800);
		// a tenth more objects: the average stays for a second, then is sampled again
		for (int i = 100; i < 111; i++) {
			store.add(configMap("cm-" + i, 10_000));
		}
		assertThat(tracker.cost(store).estimatedBytes().getAsLong()).isCloseTo(refreshed * 111 / 100, within(111L));
		this.now += Duration.ofSeconds(1).toNanos();
		assertThat(tracker.cost(store).estimatedBytes().getAsLong()).isGreaterThan(refreshed * 111 / 100 + 11 * 8000);
	}

	@Test
	void noObjectsCostNothing() {
		CostTracker tracker = tracker(5);
		assertThat(tracker.cost(new ObjectStore<>())).isEqualTo(InformerCost.of(0, 0, 5, 0));
	}

	private CostTracker tracker(int budget) {
		return new CostTracker(KEY, budget, this.sampler, () -> this.now);
	}

	/** The heap of every object of a store, in one walk, with its store entries. */
	private long exact(ObjectStore<?> store) {
		HeapEstimator.Walk walk = this.estimator.walk(Integer.MAX_VALUE);
		long bytes = 0;
		for (Object object : store.list()) {
			bytes += walk.estimate(object) + this.sampler.storeEntryBytes();
		}
		return bytes;
	}

	private static V1ConfigMap labelled(String name, String podName) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().namespace(new String("shop"))
			.name(name)
			.labels(new HashMap<>(Map.of("app", new String("shop"), "pod-name", podName))));
	}

	private static V1ConfigMap configMap(String name, int dataLength) {
		return configMap("shop", name, dataLength);
	}

	private static V1ConfigMap configMap(String namespace, String name, int dataLength) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().namespace(namespace).name(name))
			.data(Map.of("value", "x".repeat(dataLength)));
	}

	/**
	 * A map that a reconciler changes while the estimate reads it.
	 */
	private static final class ChangingMap extends HashMap<String, String> {

		ChangingMap() {
			put("a", "b");
		}

		@Override
		public Set<Map.Entry<String, String>> entrySet() {
			throw new ConcurrentModificationException();
		}

		@Override
		public Collection<String> values() {
			throw new ConcurrentModificationException();
		}

	}

	private static Logger logger() {
		return (Logger) LoggerFactory.getLogger(CostTracker.class);
	}

}
