package io.kubeboot.operator.benchmarks.fleet;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import com.sun.management.OperatingSystemMXBean;
import io.kubeboot.operator.cluster.Fleet;
import io.kubeboot.operator.cluster.StaticClusters;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/**
 * Prints what each engaged cluster of a fleet costs the operator: one home control plane
 * and {@code fleet.clusters} member control planes on loopback (default 3), each with
 * {@code fleet.objects} ConfigMaps (default 1,000) in one namespace; then, in this JVM, a
 * home manager whose fleet engages 0, 1, ... of the members, with one fleet controller (4
 * workers) that reconciles every ConfigMap of each member once, reading only. For each
 * run: the time from the manager's start until every cluster's objects were reconciled,
 * the process CPU meanwhile, the heap the running manager holds (after a full GC, above
 * the heap before it was built) and the live threads. Run it from the repository root
 * with {@code mvn -B -pl benchmarks -am verify -DskipTests -Pfleet-benchmark}. It prints
 * numbers and never fails on them.
 */
public final class FleetBenchmarkMain {

	private static final String NAMESPACE = "fleet-bench";

	private static final Duration DEADLINE = Duration.ofMinutes(5);

	private FleetBenchmarkMain() {
	}

	public static void main(String[] args) throws Exception {
		int clusters = Integer.getInteger("fleet.clusters", 3);
		int objects = Integer.getInteger("fleet.objects", 1_000);
		List<ControlPlane> members = new ArrayList<>();
		try (ControlPlane home = ControlPlane.start()) {
			for (int i = 0; i < clusters; i++) {
				ControlPlane member = ControlPlane.start();
				members.add(member);
				fill(member.adminClient(), objects);
			}
			List<String> rows = new ArrayList<>();
			rows.add(
					"| clusters engaged | objects | start to all reconciled | process CPU | heap after GC, the manager's | live threads |");
			rows.add("|---|---|---|---|---|---|");
			// once with every member first, so that no row pays for the JIT alone
			run(home, members, objects);
			for (int engaged = 0; engaged <= clusters; engaged++) {
				Run run = run(home, members.subList(0, engaged), objects);
				rows.add("| %d | %,d | %.2f s | %.2f s | %.1f MiB | %d |".formatted(engaged, engaged * objects,
						run.drainNanos() / 1e9, run.cpuNanos() / 1e9, run.heapBytes() / 1048576.0, run.threads()));
			}
			System.out.println();
			System.out.println("A fleet controller in every engaged cluster, %,d ConfigMaps in each (JDK %s)"
				.formatted(objects, Runtime.version()));
			System.out.println();
			rows.forEach(System.out::println);
		}
		finally {
			members.forEach(ControlPlane::close);
		}
		System.exit(0);
	}

	private static void fill(ApiClient admin, int objects) throws Exception {
		CoreV1Api api = new CoreV1Api(admin);
		api.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(NAMESPACE))).execute();
		Map<String, String> data = new LinkedHashMap<>();
		for (int i = 0; i < 8; i++) {
			data.put("key-" + i, "value-" + i + "-".repeat(24));
		}
		for (int i = 0; i < objects; i++) {
			api.createNamespacedConfigMap(NAMESPACE,
					new V1ConfigMap().metadata(new V1ObjectMeta().name("config-" + i)).data(data))
				.execute();
		}
	}

	private static Run run(ControlPlane home, List<ControlPlane> members, int objects) throws Exception {
		Map<String, ApiClient> clients = new LinkedHashMap<>();
		Map<String, Set<String>> reconciled = new ConcurrentHashMap<>();
		for (int i = 0; i < members.size(); i++) {
			clients.put("member-" + i, members.get(i).adminClient());
			reconciled.put("member-" + i, ConcurrentHashMap.newKeySet());
		}
		MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
		OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
		Manager manager = Manager.builder(home.adminClient()).build();
		Fleet fleet = Fleet.builder(manager).provider(StaticClusters.of(clients)).build();
		fleet.controller(V1ConfigMap.class)
			.configure((builder) -> builder.namespace(NAMESPACE).maxConcurrentReconciles(4))
			.complete((cluster, request) -> {
				reconciled.get(cluster.name()).add(request.name());
				return Result.done();
			});
		long before = usedAfterGc(memory);
		long cpu = os.getProcessCpuTime();
		long start = System.nanoTime();
		manager.start();
		while (!reconciled.values().stream().allMatch((names) -> names.size() >= objects)) {
			if (System.nanoTime() - start > DEADLINE.toNanos()) {
				throw new IllegalStateException("not all objects reconciled within " + DEADLINE + ": "
						+ reconciled.values().stream().map(Set::size).toList());
			}
			Thread.sleep(10);
		}
		long drain = System.nanoTime() - start;
		long used = os.getProcessCpuTime() - cpu;
		long heap = usedAfterGc(memory) - before;
		int threads = ManagementFactory.getThreadMXBean().getThreadCount();
		manager.stop();
		return new Run(drain, used, heap, threads);
	}

	private static long usedAfterGc(MemoryMXBean memory) throws InterruptedException {
		for (int i = 0; i < 3; i++) {
			System.gc();
			Thread.sleep(50);
		}
		return memory.getHeapMemoryUsage().getUsed();
	}

	private record Run(long drainNanos, long cpuNanos, long heapBytes, int threads) {
	}

}
