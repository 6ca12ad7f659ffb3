/**
 * What controllers measure, as an interface a metrics library implements:
 * {@link io.kubeboot.operator.metrics.ControllerMetrics} (work queues report through
 * {@link io.kubeboot.operator.workqueue.WorkQueueMetrics}). The Micrometer binding in
 * {@code io.kubeboot.operator.micrometer} exports them under controller-runtime's names.
 */
@NullMarked
package io.kubeboot.operator.metrics;

import org.jspecify.annotations.NullMarked;
