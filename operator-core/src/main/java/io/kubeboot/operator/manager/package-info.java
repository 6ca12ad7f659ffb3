/**
 * The Manager: it owns the caches and the
 * {@link io.kubeboot.operator.manager.ManagerRunnable runnables} (controllers among
 * them), and starts and stops them in controller-runtime's order, with leader election
 * for the leader-only ones. Build one with
 * {@link io.kubeboot.operator.manager.Manager#builder}.
 */
@NullMarked
package io.kubeboot.operator.manager;

import org.jspecify.annotations.NullMarked;
