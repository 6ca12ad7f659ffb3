package io.kubeboot.operator.cache.internal;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kubeboot.operator.cache.InformerCost;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.cache.internal.HeapEstimator.Layout;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link CostTracker}: the object budget, reported once per crossing, and the
 * estimate, sampled again only when stale.
 */
class CostTrackerTests {

	private static final InformerKey KEY = new InformerKey(V1ConfigMap.class, "shop", null);

	private final HeapEstimator estimator = new HeapEstimator(Layout.DEFAULT, (string) -> false);

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
		assertThat(tracker.cost(null).budgetExceeded()).isOne();
		assertThat(this.logs.list).singleElement().satisfies((event) -> {
			assertThat(event.getLevel()).isEqualTo(Level.WARN);
			assertThat(event.getFormattedMessage()).isEqualTo("Informer holds more objects than its budget, and keeps "
					+ "them all: informer=V1ConfigMap[namespace=shop] objects=101 budget=100");
		});
		tracker.sized(90);
		assertThat(this.logs.list).last()
			.satisfies((event) -> assertThat(event.getFormattedMessage()).isEqualTo(
					"Informer is back within its object budget: informer=V1ConfigMap[namespace=shop] objects=90 "
							+ "budget=100"));
		tracker.sized(101);
		assertThat(tracker.cost(null).budgetExceeded()).isEqualTo(2);
		assertThat(this.logs.list).filteredOn((event) -> event.getLevel() == Level.WARN).hasSize(2);
	}

	@Test
	void aSmallBudgetIsArmedAgainOneBelowIt() {
		CostTracker tracker = tracker(3);
		tracker.sized(4);
		tracker.sized(3);
		tracker.sized(4);
		assertThat(tracker.cost(null).budgetExceeded()).isOne();
		tracker.sized(2);
		tracker.sized(4);
		assertThat(tracker.cost(null).budgetExceeded()).isEqualTo(2);
	}

	@Test
	void noBudgetIsNeverExceeded() {
		CostTracker tracker = tracker(0);
		tracker.sized(1_000_000);
		assertThat(tracker.cost(null)).isEqualTo(new InformerCost(0, 0, 0, 0, 0));
		assertThat(this.logs.list).isEmpty();
	}

	@Test
	void anInformerThatDroppedItsObjectsIsArmedAgainSilently() {
		CostTracker tracker = tracker(1);
		tracker.sized(2);
		tracker.emptied();
		tracker.sized(2);
		assertThat(tracker.cost(null).budgetExceeded()).isEqualTo(2);
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
		assertThat(tracker.cost(store).objectBudget()).isEqualTo(2);
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
		assertThat(cost.sampledObjects()).isEqualTo(2);
		assertThat(cost.estimatedBytes()).isEqualTo(
				this.estimator.estimate(small) + this.estimator.estimate(large) + 2 * this.estimator.storeEntryBytes());
	}

	@Test
	void aLargeStoreIsEstimatedFromASampleTimesItsCount() {
		CostTracker tracker = tracker(0);
		ObjectStore<V1ConfigMap> store = new ObjectStore<>();
		for (int i = 0; i < 2000; i++) {
			store.add(configMap("cm-" + i, 100));
		}
		InformerCost cost = tracker.cost(store);
		assertThat(cost.sampledObjects()).isEqualTo(CostTracker.SAMPLE);
		long each = this.estimator.estimate(configMap("cm-1000", 100)) + this.estimator.storeEntryBytes();
		// names of 4 to 7 characters: within a padding of each other
		assertThat(cost.estimatedBytes()).isBetween(2000 * (each - 8), 2000 * (each + 8));
	}

	@Test
	void aSampleOfObjectsOfMixedSizesAcrossNamespacesEstimatesTheirTotal() {
		CostTracker tracker = tracker(0);
		ObjectStore<V1ConfigMap> store = new ObjectStore<>();
		long exact = 0;
		for (int i = 0; i < 1000; i++) {
			// half the objects ten times the size of the other half, in a namespace of
			// their own
			V1ConfigMap object = (i % 2 == 0) ? configMap("small", "cm-" + i, 400) : configMap("large", "cm-" + i, 4000);
			store.add(object);
			exact += this.estimator.estimate(object) + this.estimator.storeEntryBytes();
		}
		for (int i = 0; i < 10; i++) {
			this.now += Duration.ofSeconds(CostTracker.REFRESH_SECONDS).toNanos();
			assertThat(tracker.cost(store).estimatedBytes()).isCloseTo(exact, Percentage.withPercentage(3));
		}
	}

	@Test
	void theSampleIsTakenAgainOnlyOnceStale() {
		CostTracker tracker = tracker(0);
		ObjectStore<V1ConfigMap> store = new ObjectStore<>();
		for (int i = 0; i < 100; i++) {
			store.add(configMap("cm-" + i, 100));
		}
		long first = tracker.cost(store).estimatedBytes();
		// the same objects, larger: not seen until the sample is stale
		for (int i = 0; i < 100; i++) {
			store.update(configMap("cm-" + i, 1000));
		}
		assertThat(tracker.cost(store).estimatedBytes()).isEqualTo(first);
		this.now += Duration.ofSeconds(CostTracker.REFRESH_SECONDS).toNanos();
		long refreshed = tracker.cost(store).estimatedBytes();
		assertThat(refreshed).isGreaterThan(first + 100 * 800);
		// a tenth more objects: the average stays for a second, then is sampled again
		for (int i = 100; i < 111; i++) {
			store.add(configMap("cm-" + i, 10_000));
		}
		assertThat(tracker.cost(store).estimatedBytes()).isEqualTo(refreshed / 100 * 111);
		this.now += Duration.ofSeconds(1).toNanos();
		assertThat(tracker.cost(store).estimatedBytes()).isGreaterThan(refreshed / 100 * 111 + 11 * 8000);
	}

	@Test
	void noObjectsCostNothing() {
		CostTracker tracker = tracker(5);
		assertThat(tracker.cost(new ObjectStore<>())).isEqualTo(new InformerCost(0, 0, 0, 5, 0));
	}

	private CostTracker tracker(int budget) {
		return new CostTracker(KEY, budget, this.estimator, () -> this.now);
	}

	private static V1ConfigMap configMap(String name, int dataLength) {
		return configMap("shop", name, dataLength);
	}

	private static V1ConfigMap configMap(String namespace, String name, int dataLength) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().namespace(namespace).name(name))
			.data(Map.of("value", "x".repeat(dataLength)));
	}

	private static Logger logger() {
		return (Logger) LoggerFactory.getLogger(CostTracker.class);
	}

}
