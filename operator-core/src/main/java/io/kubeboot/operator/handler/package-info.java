/**
 * How a change to a watched object becomes requests, as controller-runtime's
 * {@code handler} package: {@link io.kubeboot.operator.handler.MapFunction} maps an
 * object of another kind to the requests of the reconciled kind, and
 * {@link io.kubeboot.operator.handler.MapFunctions#byIndex} does so by a lookup in a
 * cache index instead of a scan. Handlers run on the informer's event thread, so they
 * must be fast and must not block.
 */
@NullMarked
package io.kubeboot.operator.handler;

import org.jspecify.annotations.NullMarked;
