/**
 * Liveness and readiness of a {@link io.kubeboot.operator.manager.Manager}, as
 * controller-runtime's {@code healthz} and {@code readyz} checks: whether Kubernetes
 * should restart the operator, and whether it is serving.
 */
@NullMarked
package io.kubeboot.operator.health;

import org.jspecify.annotations.NullMarked;
