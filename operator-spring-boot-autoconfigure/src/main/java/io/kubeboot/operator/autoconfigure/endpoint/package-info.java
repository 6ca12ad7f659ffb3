/**
 * The {@code operator} Actuator endpoint: what {@code kubectl get} would show for the
 * manager.
 */
@NullMarked
package io.kubeboot.operator.autoconfigure.endpoint;

import org.jspecify.annotations.NullMarked;
