/**
 * Controllers: a reconciler, the kinds and sources whose changes trigger it, and the work
 * queue and workers between them. Build one with
 * {@link io.kubeboot.operator.controller.Controller#builder}; the manager runs it as a
 * leader-only runnable, and the {@link io.kubeboot.operator.controller.Enqueuer} feeds it
 * from outside the cluster.
 */
@NullMarked
package io.kubeboot.operator.controller;

import org.jspecify.annotations.NullMarked;
