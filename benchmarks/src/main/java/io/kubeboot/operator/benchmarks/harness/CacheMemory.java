package io.kubeboot.operator.benchmarks.harness;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

import io.kubeboot.operator.benchmarks.baseline.BaselineOperatorMain;
import io.kubeboot.operator.benchmarks.child.ChildSettings;
import io.kubeboot.operator.benchmarks.plain.LeanCacheOperatorMain;
import io.kubeboot.operator.benchmarks.plain.ManagerOperatorMain;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cache memory scenario ({@code cache-memory}): the heap each cached object costs, at
 * up to 100,000 widgets, for our cache as it comes, with the watched kind cached as
 * metadata only, and with a transform that drops a field the reconciler never reads,
 * against client-java-extended's informer. Each variant caches and reconciles the widgets
 * of a namespace at two sizes; the heap after full collections at the larger size minus
 * that at the smaller, divided by the difference in objects, is the heap per cached
 * object, free of everything a process holds whatever its cache (classes, threads,
 * Spring). The plain {@code Manager} stands for ours: Spring Boot adds a fixed amount
 * (see the memory scenario).
 */
final class CacheMemory {

	private static final Logger logger = LoggerFactory.getLogger(CacheMemory.class);

	static final String SCENARIO = "cache-memory";

	/** The system property of the two sizes, {@code 10000,100000} by default. */
	static final String SIZES_PROPERTY = "benchmark.cacheMemorySizes";

	private final BenchmarkConfig config;

	private final Cluster cluster;

	private final Results results;

	private final ChildJdk jdk;

	private final List<Integer> sizes;

	/** Heap in bytes after full GC, by variant, size, run. */
	private final Map<Variant, Map<Integer, List<Double>>> heaps = new LinkedHashMap<>();

	CacheMemory(BenchmarkConfig config, Cluster cluster, Results results, ChildJdk jdk) {
		this.config = config;
		this.cluster = cluster;
		this.results = results;
		this.jdk = jdk;
		this.sizes = config.smoke() ? List.of(100, 200)
				: BenchmarkConfig.strings(System.getProperty(SIZES_PROPERTY, "10000,100000"))
					.stream()
					.map(Integer::valueOf)
					.sorted()
					.toList();
		if (this.sizes.size() != 2) {
			throw new IllegalArgumentException(SIZES_PROPERTY + " needs two sizes, e.g. 10000,100000");
		}
	}

	/**
	 * Creates the widgets, runs every variant at both sizes, alternating the variants run
	 * by run, and adds the section to the results.
	 * @return the heap per cached object in bytes, by variant, one value per run
	 * @throws Exception if a run fails
	 */
	Map<Variant, List<Double>> run() throws Exception {
		for (int size : this.sizes) {
			String namespace = namespace(size);
			this.cluster.createNamespace(namespace);
			logger.info("Cache memory: creating {} widgets in {}", size, namespace);
			this.cluster.createWidgets(namespace, size);
			this.cluster.observeAll(namespace);
		}
		int runs = this.config.memoryRuns();
		for (int run = 1; run <= runs; run++) {
			for (int size : this.sizes) {
				for (Variant variant : Variant.values()) {
					measure(variant, size, run);
				}
			}
		}
		Map<Variant, List<Double>> perObject = perObject();
		this.results.section(section(perObject));
		return perObject;
	}

	private void measure(Variant variant, int size, int run) throws Exception {
		String namespace = namespace(size);
		Map<String, String> environment = new HashMap<>(this.cluster.clientEnvironment());
		environment.put(ChildSettings.NAMESPACE, namespace);
		environment.put(ChildSettings.EXPECTED_RECONCILES, variant.awaitsReconciles ? String.valueOf(size) : "0");
		environment.putAll(variant.environment);
		Duration timeout = Duration.ofSeconds(90).plusMillis(size * 30L);
		String name = "%s-%d-%s-%d".formatted(SCENARIO, size, variant.id, run);
		try (ChildProcess child = ChildProcess.start(this.jdk.java(), variant.mainClass, name, environment,
				this.config.childJvmFlags(), this.config.jfr(), this.config.workDir())) {
			child.await("ready", timeout);
			if (variant.awaitsReconciles) {
				child.await("reconciled", timeout);
			}
			System.gc();
			Thread.sleep(this.config.smoke() ? 500 : 3000);
			child.send("memory");
			String[] memory = child.await("memory", Duration.ofSeconds(60));
			double heap = Long.parseLong(memory[0]);
			if (size == this.sizes.get(1)) {
				Benchmark.classHistogram(this.jdk, child, this.config.workDir().resolve(name + ".histogram.txt"));
			}
			this.heaps.computeIfAbsent(variant, (key) -> new LinkedHashMap<>())
				.computeIfAbsent(size, (key) -> new ArrayList<>())
				.add(heap);
			logger.info("Cache memory N={} run {} {}: heap {} MiB", size, run, variant.id,
					"%.1f".formatted(heap / (1024 * 1024)));
		}
	}

	private Map<Variant, List<Double>> perObject() {
		int small = this.sizes.get(0);
		int large = this.sizes.get(1);
		Map<Variant, List<Double>> perObject = new LinkedHashMap<>();
		this.heaps.forEach((variant, bySize) -> {
			List<Double> smallHeaps = bySize.getOrDefault(small, List.of());
			List<Double> largeHeaps = bySize.getOrDefault(large, List.of());
			List<Double> slopes = new ArrayList<>();
			for (int i = 0; i < Math.min(smallHeaps.size(), largeHeaps.size()); i++) {
				slopes.add((largeHeaps.get(i) - smallHeaps.get(i)) / (large - small));
			}
			perObject.put(variant, slopes);
		});
		return perObject;
	}

	private String section(Map<Variant, List<Double>> perObject) {
		int small = this.sizes.get(0);
		int large = this.sizes.get(1);
		StringBuilder out = new StringBuilder();
		out.append("## Heap per cached object\n\n");
		out.append(("Scenario `%s`: each variant caches and reconciles the widgets of a namespace at N = %d and "
				+ "N = %d; heap after full GC at the larger N minus that at the smaller, divided by %d. A widget as "
				+ "the API server serves it: metadata with two labels, a spec with a 256-character payload, a "
				+ "status. client-java's JSON already leaves `metadata.managedFields` out when it parses, so no "
				+ "variant holds them; the transform drops `spec.payload`, which the reconciler never reads. Ours "
				+ "are measured once every widget was reconciled, the baseline once its informer has synced "
				+ "(client-java-extended's controller gives up and exits when its cache has not synced within 30 "
				+ "seconds, which a list of 100,000 widgets can take on a busy machine; its informer caches on). "
				+ "Medians (number of runs in brackets); per-run values in brackets after them.\n\n")
			.formatted(SCENARIO, small, large, large - small));
		out.append("| variant | heap at N = %d (MiB) | heap at N = %d (MiB) | heap per cached object (bytes) | "
			.formatted(small, large) + "/baseline |\n|---|---|---|---|---|\n");
		OptionalDouble baseline = Results.median(perObject.getOrDefault(Variant.BASELINE, List.of()));
		for (Variant variant : Variant.values()) {
			List<Double> slopes = perObject.getOrDefault(variant, List.of());
			OptionalDouble median = Results.median(slopes);
			Map<Integer, List<Double>> bySize = this.heaps.getOrDefault(variant, Map.of());
			out.append("| ")
				.append(variant.label)
				.append(" | ")
				.append(mebibytes(bySize.getOrDefault(small, List.of())))
				.append(" | ")
				.append(mebibytes(bySize.getOrDefault(large, List.of())))
				.append(" | ")
				.append(median.isPresent() ? "%.0f (%d) [%s]".formatted(median.getAsDouble(), slopes.size(),
						slopes.stream().map((value) -> "%.0f".formatted(value)).collect(Collectors.joining(", "))) : "")
				.append(" | ")
				.append((median.isPresent() && baseline.isPresent() && baseline.getAsDouble() > 0)
						? "%.2fx".formatted(median.getAsDouble() / baseline.getAsDouble()) : "")
				.append(" |\n");
		}
		out.append('\n');
		List<String> targets = new ArrayList<>();
		target(targets, perObject, Variant.OURS, 0.8,
				"heap per cached object at N = %d, ours ≤ 0.80x baseline".formatted(large));
		target(targets, perObject, Variant.METADATA, 0.35,
				"heap per cached object at N = %d, metadata only ≤ 0.35x baseline".formatted(large));
		if (!targets.isEmpty()) {
			out.append("| target | measured (medians) | result |\n|---|---|---|\n");
			targets.forEach((row) -> out.append(row).append('\n'));
			out.append('\n');
		}
		return out.toString();
	}

	private static void target(List<String> rows, Map<Variant, List<Double>> perObject, Variant variant, double bound,
			String target) {
		OptionalDouble mine = Results.median(perObject.getOrDefault(variant, List.of()));
		OptionalDouble theirs = Results.median(perObject.getOrDefault(Variant.BASELINE, List.of()));
		if (mine.isEmpty() || theirs.isEmpty() || theirs.getAsDouble() <= 0) {
			return;
		}
		double ratio = mine.getAsDouble() / theirs.getAsDouble();
		rows.add("| %s | %.0f vs %.0f bytes = %.2fx | %s |".formatted(target, mine.getAsDouble(), theirs.getAsDouble(),
				ratio, (ratio <= bound) ? "met" : "**missed by %.0f%%**".formatted((ratio - bound) / bound * 100)));
	}

	private static String mebibytes(List<Double> heaps) {
		OptionalDouble median = Results.median(heaps);
		return median.isPresent() ? "%.1f (%d)".formatted(median.getAsDouble() / (1024 * 1024), heaps.size()) : "";
	}

	private static String namespace(int size) {
		return "%s-%d".formatted(SCENARIO, size);
	}

	/**
	 * What caches the widgets.
	 */
	enum Variant {

		/**
		 * client-java-extended's informer.
		 */
		BASELINE("baseline", "client-java-extended ControllerManager", BaselineOperatorMain.class, Map.of(), false),

		/**
		 * Ours as it comes.
		 */
		OURS("manager", "ours (Manager), whole objects", ManagerOperatorMain.class, Map.of(), true),

		/**
		 * Ours with a transform dropping {@code spec.payload}.
		 */
		TRANSFORM("manager-transform", "ours, a transform dropping spec.payload", LeanCacheOperatorMain.class,
				Map.of(LeanCacheOperatorMain.VARIANT, LeanCacheOperatorMain.TRANSFORM), true),

		/**
		 * Ours with the widgets cached as metadata only.
		 */
		METADATA("manager-metadata", "ours, widgets cached as metadata only", LeanCacheOperatorMain.class,
				Map.of(LeanCacheOperatorMain.VARIANT, LeanCacheOperatorMain.METADATA_ONLY), true);

		final String id;

		final String label;

		final Class<?> mainClass;

		final Map<String, String> environment;

		/**
		 * Whether the measurement waits for a reconcile of every widget, not only for the
		 * cache to sync: client-java-extended's controller waits only 30 seconds for its
		 * cache and exits if it has not synced by then, as happens with 100,000 widgets
		 * on a busy machine, while its informer goes on caching.
		 */
		final boolean awaitsReconciles;

		Variant(String id, String label, Class<?> mainClass, Map<String, String> environment,
				boolean awaitsReconciles) {
			this.id = id;
			this.label = label;
			this.mainClass = mainClass;
			this.environment = environment;
			this.awaitsReconciles = awaitsReconciles;
		}

	}

}
