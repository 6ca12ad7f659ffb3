package io.kubeboot.operator.benchmarks.plain;

import java.util.concurrent.CountDownLatch;

import io.kubeboot.operator.benchmarks.child.ChildSettings;
import io.kubeboot.operator.benchmarks.child.ClientStatusPatch;
import io.kubeboot.operator.benchmarks.child.Probe;
import io.kubeboot.operator.benchmarks.child.WidgetWorkload;
import io.kubeboot.operator.benchmarks.model.Widget;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.reconcile.Result;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;

/**
 * "Ours without Spring": the same controller on {@code Manager.builder(...)} directly, to
 * tell the starter's own cost from Spring Boot's start-up.
 */
public final class ManagerOperatorMain {

	private ManagerOperatorMain() {
	}

	public static void main(String[] args) {
		try {
			run();
		}
		catch (Throwable ex) {
			ex.printStackTrace();
			System.exit(1);
		}
	}

	private static void run() throws Exception {
		ChildSettings settings = ChildSettings.fromEnvironment();
		Probe probe = Probe.start(settings);
		ApiClient client = ClientBuilder.standard().build();
		Manager manager = Manager.builder(client)
			.namespace(settings.namespace())
			.priorityQueue(settings.priorityQueue())
			.streamingLists(settings.streamingLists())
			.build();
		WidgetWorkload workload = new WidgetWorkload(probe, new ClientStatusPatch(manager.client()));
		Controller.builder(manager, Widget.class)
			.maxConcurrentReconciles(WidgetWorkload.WORKERS)
			.complete((request) -> {
				long started = workload.started();
				workload.reconcile(manager.cache().get(Widget.class, request).orElse(null), started);
				return Result.done();
			});
		CountDownLatch stopped = new CountDownLatch(1);
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			manager.stop();
			stopped.countDown();
		}, "manager-stop"));
		manager.start();
		probe.ready();
		stopped.await();
	}

}
