package io.kubeboot.operator.benchmarks.harness;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

import io.kubeboot.operator.benchmarks.jmh.QueueUnderTest;
import io.kubeboot.operator.benchmarks.jmh.WorkQueueBenchmark;
import io.kubeboot.operator.benchmarks.jmh.WorkQueueSingleThreadBenchmark;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the work queue microbenchmarks with JMH (2 x 1 s warm-up, 5 x 2 s measurement, one
 * fork), or, for the smoke run, calls each benchmark method once without JMH.
 */
final class MicroBenchmarks {

	private static final Logger logger = LoggerFactory.getLogger(MicroBenchmarks.class);

	private static final String[] QUEUES = { QueueUnderTest.KUBEBOOT, QueueUnderTest.CLIENT_JAVA_EXTENDED };

	private static final String[] KEYS = { "distinct", "hot-key" };

	private MicroBenchmarks() {
	}

	static void run(BenchmarkConfig config, Results results) throws Exception {
		if (config.smoke()) {
			smoke(results);
			return;
		}
		Options options = new OptionsBuilder()
			.include(WorkQueueBenchmark.class.getName() + "|" + WorkQueueSingleThreadBenchmark.class.getName())
			.jvm(config.javaHome().resolve("bin").resolve("java").toString())
			.jvmArgs(config.childJvmFlags().toArray(String[]::new))
			.shouldFailOnError(true)
			.build();
		Collection<RunResult> runs = new Runner(options).run();
		Map<String, Map<String, RunResult>> byCase = new LinkedHashMap<>();
		for (RunResult run : runs) {
			String benchmark = run.getParams().getBenchmark();
			String keys = run.getParams().getParam("keys");
			String name = benchmark.substring(benchmark.lastIndexOf('.', benchmark.lastIndexOf('.') - 1) + 1)
					+ ((keys != null) ? " (" + keys + ")" : "");
			byCase.computeIfAbsent(name, (key) -> new LinkedHashMap<>()).put(run.getParams().getParam("queue"), run);
		}
		byCase.forEach((name, byQueue) -> {
			RunResult ours = byQueue.get(QueueUnderTest.KUBEBOOT);
			RunResult theirs = byQueue.get(QueueUnderTest.CLIENT_JAVA_EXTENDED);
			String ratio = (ours != null && theirs != null)
					? "%.2fx".formatted(ours.getPrimaryResult().getScore() / theirs.getPrimaryResult().getScore()) : "";
			results.microbenchmark("| " + name + " | " + score(ours) + " | " + score(theirs) + " | " + ratio + " |");
		});
	}

	private static String score(RunResult run) {
		if (run == null) {
			return "";
		}
		return "%.1f ± %.1f %s".formatted(run.getPrimaryResult().getScore(), run.getPrimaryResult().getScoreError(),
				run.getPrimaryResult().getScoreUnit());
	}

	private static void smoke(Results results) throws Exception {
		for (String keys : KEYS) {
			StringBuilder row = new StringBuilder("| WorkQueueBenchmark.producersAndWorkers (" + keys + ", smoke) |");
			for (String queue : QUEUES) {
				WorkQueueBenchmark benchmark = new WorkQueueBenchmark();
				benchmark.queue = queue;
				benchmark.keys = keys;
				benchmark.setUp();
				try {
					long start = System.nanoTime();
					long processed = benchmark.producersAndWorkers();
					double millis = (System.nanoTime() - start) / 1e6;
					if (processed <= 0) {
						throw new IllegalStateException(queue + " processed nothing");
					}
					row.append(" %.1f adds/ms (one batch) |"
						.formatted(WorkQueueBenchmark.PRODUCERS * WorkQueueBenchmark.ADDS_PER_PRODUCER / millis));
				}
				finally {
					benchmark.tearDown();
				}
			}
			results.microbenchmark(row.append(" |").toString());
		}
		StringBuilder row = new StringBuilder("| WorkQueueSingleThreadBenchmark.addGetDone (smoke) |");
		for (String queue : QUEUES) {
			WorkQueueSingleThreadBenchmark benchmark = new WorkQueueSingleThreadBenchmark();
			benchmark.queue = queue;
			benchmark.setUp();
			try {
				long start = System.nanoTime();
				for (int i = 0; i < 10_000; i++) {
					benchmark.addGetDone();
				}
				row.append(" %.0f ns/op (10,000 ops, no warm-up) |".formatted((System.nanoTime() - start) / 10_000.0));
			}
			finally {
				benchmark.tearDown();
			}
		}
		results.microbenchmark(row.append(" |").toString());
		logger.info("Work queue microbenchmarks (smoke): {}", results.microbenchmarks());
	}

}
