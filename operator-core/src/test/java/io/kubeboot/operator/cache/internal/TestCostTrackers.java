package io.kubeboot.operator.cache.internal;

import io.kubeboot.operator.cache.InformerKey;
import io.kubernetes.client.common.KubernetesObject;

/**
 * Informers and cost trackers for tests that are not about what the cache costs.
 */
final class TestCostTrackers {

	private TestCostTrackers() {
	}

	/**
	 * Returns a tracker without a budget, estimating with the default layout.
	 * @param key the informer
	 * @return the tracker
	 */
	static CostTracker tracker(InformerKey key) {
		return new CostTracker(key, 0, new HeapSampler(new HeapEstimator(ObjectLayout.DEFAULT)));
	}

	/**
	 * Returns an informer without an object budget.
	 * @param key what it watches
	 * @param settings what it lists and watches with
	 * @param <T> the model type
	 * @return the informer, not started
	 */
	static <T extends KubernetesObject> ScopedInformer<T> informer(InformerKey key, ScopedInformer.Settings settings) {
		return new ScopedInformer<>(key, settings, tracker(key));
	}

}
