package io.kubeboot.sample;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubernetes.client.openapi.models.V1Pod;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;

/**
 * The smallest useful controller: logs every Pod it is asked to reconcile, with its
 * phase. The Go original is controller-runtime's
 * {@code NewControllerManagedBy(mgr).For(&Pod{})}.
 * <p>
 * A demo, off unless {@code sample.pod-logger.enabled=true}: it caches every Pod the
 * operator may see (all namespaces unless {@code operator.namespace} is set), which needs
 * {@code list} and {@code watch} of pods, a permission {@code deploy/rbac.yaml} does not
 * grant, and memory for every Pod of the cluster.
 */
@Reconciles(V1Pod.class)
@ConditionalOnBooleanProperty("sample.pod-logger.enabled")
class PodLogger {

	private static final Logger logger = LoggerFactory.getLogger(PodLogger.class);

	private final Cache cache;

	PodLogger(Cache cache) {
		this.cache = cache;
	}

	Result reconcile(Request request) {
		String phase = this.cache.get(V1Pod.class, request)
			.map((pod) -> (pod.getStatus() != null) ? pod.getStatus().getPhase() : null)
			.orElse("Deleted");
		logger.info("Reconciled pod: pod={} phase={}", request, phase);
		return Result.done();
	}

}
