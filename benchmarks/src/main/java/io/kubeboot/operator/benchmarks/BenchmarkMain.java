package io.kubeboot.operator.benchmarks;

import io.kubeboot.operator.benchmarks.harness.Benchmark;
import io.kubeboot.operator.benchmarks.harness.BenchmarkConfig;
import io.kubeboot.operator.test.ControlPlane;

/**
 * Runs the full benchmark against a local control plane started in this JVM (etcd and
 * kube-apiserver as child processes) and writes {@code BENCHMARKS.md} (how to run, what
 * is measured, the machine, the results and the hand-written {@code analysis.md}) and
 * {@code drain.png} into {@code benchmarks/}. Run it from the repository root with
 * {@code mvn -B -pl benchmarks -am verify -DskipTests -Pbenchmark}.
 */
public final class BenchmarkMain {

	private BenchmarkMain() {
	}

	public static void main(String[] args) throws Exception {
		System.setProperty("java.awt.headless", "true");
		BenchmarkConfig config = BenchmarkConfig.fromSystemProperties();
		try (ControlPlane controlPlane = Benchmark.startControlPlane(config.workDir())) {
			new Benchmark(config, controlPlane).run();
		}
		System.exit(0);
	}

}
