/**
 * Spring wiring of the manager's health: Spring Boot availability states, an
 * {@code operator} health indicator and controller-runtime's {@code /healthz} and
 * {@code /readyz}.
 */
@NullMarked
package io.kubeboot.operator.autoconfigure.health;

import org.jspecify.annotations.NullMarked;
