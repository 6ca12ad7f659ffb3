/**
 * Kubernetes Events about reconciled objects: the
 * {@link io.kubeboot.operator.events.EventRecorder} reconcilers call, and
 * {@link io.kubeboot.operator.events.KubernetesEventRecorder}, which aggregates,
 * rate-limits and writes core/v1 Events the way client-go's recorder does, on the thread
 * of the manager that runs it.
 */
@NullMarked
package io.kubeboot.operator.events;

import org.jspecify.annotations.NullMarked;
