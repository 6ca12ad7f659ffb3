/**
 * Reconciles driven by time or by events from outside the cluster: periodic triggers and
 * the counterpart of controller-runtime's channel source. Requests go through the
 * controller's work queue, so a request already waiting is never queued twice.
 */
@NullMarked
package io.kubeboot.operator.trigger;

import org.jspecify.annotations.NullMarked;
