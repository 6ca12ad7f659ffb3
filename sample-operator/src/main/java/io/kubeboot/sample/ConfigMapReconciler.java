package io.kubeboot.sample;

import java.util.Map;

import io.kubeboot.operator.annotation.Reconciler;
import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads each ConfigMap from the cache and logs how many keys it holds, or that it is
 * gone.
 */
@Reconciler(V1ConfigMap.class)
class ConfigMapReconciler {

	private static final Logger logger = LoggerFactory.getLogger(ConfigMapReconciler.class);

	private final Cache cache;

	ConfigMapReconciler(Cache cache) {
		this.cache = cache;
	}

	Result reconcile(Request request) {
		this.cache.get(V1ConfigMap.class, request).ifPresentOrElse((configMap) -> {
			Map<String, String> data = configMap.getData();
			logger.info("Reconciled ConfigMap: configMap={} keys={}", request, (data != null) ? data.size() : 0);
		}, () -> logger.info("ConfigMap is gone: configMap={}", request));
		return Result.done();
	}

}
