package io.kubeboot.operator.benchmarks.spring;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.benchmarks.child.WidgetWorkload;
import io.kubeboot.operator.benchmarks.model.Widget;
import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;

/**
 * Reads the widget from the cache and writes its status when it is out of date.
 */
@Reconciles(value = Widget.class, maxConcurrentReconciles = WidgetWorkload.WORKERS)
class WidgetReconciler implements io.kubeboot.operator.reconcile.Reconciler {

	private final Cache cache;

	private final WidgetWorkload workload;

	WidgetReconciler(Cache cache, WidgetWorkload workload) {
		this.cache = cache;
		this.workload = workload;
	}

	@Override
	public Result reconcile(Request request) throws Exception {
		long started = this.workload.started();
		this.workload.reconcile(this.cache.get(Widget.class, request).orElse(null), started);
		return Result.done();
	}

}
