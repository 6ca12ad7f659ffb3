package io.kubeboot.operator.benchmarks.plain;

import java.util.List;
import java.util.concurrent.CountDownLatch;

import io.kubeboot.operator.benchmarks.child.ChildSettings;
import io.kubeboot.operator.benchmarks.child.ClientStatusPatch;
import io.kubeboot.operator.benchmarks.child.Probe;
import io.kubeboot.operator.benchmarks.child.WidgetWorkload;
import io.kubeboot.operator.benchmarks.model.Widget;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerBuilder;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.util.ClientBuilder;

/**
 * Ours on the plain {@code Manager} with a leaner cache, for the cache memory scenario:
 * {@value #TRANSFORM} reconciles the widgets as {@link ManagerOperatorMain} does, with a
 * cache transform dropping {@code spec.payload}, which the reconcile never reads;
 * {@value #METADATA_ONLY} caches the widgets as metadata only, the watched kind of a
 * controller of ConfigMaps that maps each widget to a request of its name and reads the
 * widget's metadata from the cache.
 */
public final class LeanCacheOperatorMain {

	/**
	 * The environment variable naming the variant.
	 */
	public static final String VARIANT = "BENCH_CACHE_VARIANT";

	/**
	 * The variant with a cache transform.
	 */
	public static final String TRANSFORM = "transform";

	/**
	 * The variant caching the widgets as metadata only.
	 */
	public static final String METADATA_ONLY = "metadata-only";

	private LeanCacheOperatorMain() {
	}

	public static void main(String[] args) {
		try {
			run(System.getenv(VARIANT));
		}
		catch (Throwable ex) {
			ex.printStackTrace();
			System.exit(1);
		}
	}

	private static void run(String variant) throws Exception {
		ChildSettings settings = ChildSettings.fromEnvironment();
		Probe probe = Probe.start(settings);
		ApiClient client = ClientBuilder.standard().build();
		ManagerBuilder builder = Manager.builder(client).namespace(settings.namespace());
		if (TRANSFORM.equals(variant)) {
			builder.cacheTransform(Widget.class, (widget) -> {
				if (widget.getSpec() != null) {
					widget.getSpec().setPayload(null);
				}
				return widget;
			});
		}
		else if (!METADATA_ONLY.equals(variant)) {
			throw new IllegalArgumentException(VARIANT + " must be " + TRANSFORM + " or " + METADATA_ONLY);
		}
		Manager manager = builder.build();
		if (METADATA_ONLY.equals(variant)) {
			Controller.builder(manager, V1ConfigMap.class)
				.named("widget-metadata")
				.maxConcurrentReconciles(WidgetWorkload.WORKERS)
				.watchesMetadataOnly(Widget.class, (widget) -> List.of(Request.of(widget)))
				.complete((request) -> {
					probe.reconcileStarted(System.currentTimeMillis());
					manager.cache().getMetadata(Widget.class, request);
					return Result.done();
				});
		}
		else {
			WidgetWorkload workload = new WidgetWorkload(probe, new ClientStatusPatch(manager.client()));
			Controller.builder(manager, Widget.class)
				.maxConcurrentReconciles(WidgetWorkload.WORKERS)
				.complete((request) -> {
					long started = workload.started();
					workload.reconcile(manager.cache().get(Widget.class, request).orElse(null), started);
					return Result.done();
				});
		}
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
