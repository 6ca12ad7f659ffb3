/**
 * Liveness and readiness of an operator, as controller-runtime's {@code healthz} package:
 * whether Kubernetes should restart it and whether it is serving. Add checks of your own
 * with {@link io.kubeboot.operator.healthz.Check} beside the built-in ones.
 */
@NullMarked
package io.kubeboot.operator.healthz;

import org.jspecify.annotations.NullMarked;
