package io.kubeboot.operator.benchmarks.child;

import io.kubeboot.operator.benchmarks.model.Widget;

/**
 * How an implementation writes a widget's {@code status.observedGeneration}: ours through
 * the starter's {@code Client} ({@link ClientStatusPatch}), the baseline and the raw
 * program through client-java ({@link ClientJavaStatusPatch}). Everything else of the
 * reconcile is the same for all of them ({@link WidgetWorkload}).
 */
@FunctionalInterface
public interface StatusPatch {

	/**
	 * Writes {@code status.observedGeneration} with a merge patch of the status
	 * subresource.
	 * @param widget the widget (its namespace and name are used)
	 * @param observedGeneration the generation to write
	 * @throws Exception if the write failed
	 */
	void patch(Widget widget, long observedGeneration) throws Exception;

}
