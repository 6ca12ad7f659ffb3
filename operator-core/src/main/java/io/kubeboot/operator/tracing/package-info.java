/**
 * What the runtime reports to a tracer, as an interface an observation library
 * implements: {@link io.kubeboot.operator.tracing.OperatorTracing} (a reconcile, a client
 * call, a webhook request, a leader transition), and the annotation that carries a trace
 * from the operator that writes an object to the one that reconciles it
 * ({@link io.kubeboot.operator.tracing.TraceContextAnnotation}). The Micrometer
 * Observation binding is in {@code io.kubeboot.operator.micrometer}.
 */
@NullMarked
package io.kubeboot.operator.tracing;

import org.jspecify.annotations.NullMarked;
