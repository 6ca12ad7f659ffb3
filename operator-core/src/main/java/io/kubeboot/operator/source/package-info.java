/**
 * Sources of requests other than the watched kinds, as controller-runtime's
 * {@code source} package: {@link io.kubeboot.operator.source.Source}, the
 * {@link io.kubeboot.operator.source.Channel} fed from outside the cluster and the
 * periodic {@link io.kubeboot.operator.source.IntervalTrigger}. Requests go through the
 * controller's work queue, so a request already waiting is never queued twice.
 */
@NullMarked
package io.kubeboot.operator.source;

import org.jspecify.annotations.NullMarked;
