/**
 * The Manager: it owns the caches, the controllers and the operator's own
 * {@link io.kubeboot.operator.manager.Runnable runnables}, and starts and stops them in
 * controller-runtime's order.
 */
@NullMarked
package io.kubeboot.operator.manager;

import org.jspecify.annotations.NullMarked;
