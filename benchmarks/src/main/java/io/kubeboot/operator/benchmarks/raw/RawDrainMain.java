package io.kubeboot.operator.benchmarks.raw;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.kubeboot.operator.benchmarks.child.ChildSettings;
import io.kubeboot.operator.benchmarks.child.ClientJavaStatusPatch;
import io.kubeboot.operator.benchmarks.child.Probe;
import io.kubeboot.operator.benchmarks.child.WidgetWorkload;
import io.kubeboot.operator.benchmarks.model.Widget;
import io.kubeboot.operator.benchmarks.model.WidgetList;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.generic.GenericKubernetesApi;

/**
 * The ceiling: no framework, no cache, no watch. Lists the namespace's widgets once and
 * writes every status with {@value WidgetWorkload#WORKERS} threads, then exits.
 */
public final class RawDrainMain {

	private RawDrainMain() {
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
		WidgetWorkload workload = new WidgetWorkload(probe, new ClientJavaStatusPatch(client));
		GenericKubernetesApi<Widget, WidgetList> api = new GenericKubernetesApi<>(Widget.class, WidgetList.class,
				Widget.GROUP, Widget.VERSION, Widget.PLURAL, client);
		List<Widget> widgets = api.list(settings.namespace()).throwsApiException().getObject().getItems();
		probe.ready();
		ExecutorService workers = Executors.newFixedThreadPool(WidgetWorkload.WORKERS);
		List<Future<Boolean>> results = new ArrayList<>();
		for (Widget widget : widgets) {
			results.add(workers.submit(() -> workload.reconcile(widget, workload.started())));
		}
		for (Future<Boolean> result : results) {
			result.get();
		}
		workers.shutdown();
	}

}
