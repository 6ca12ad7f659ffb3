/**
 * Spring Boot wiring of Kubernetes Events: an
 * {@link io.kubeboot.operator.events.EventRecorder} bean reconcilers inject.
 */
@NullMarked
package io.kubeboot.operator.autoconfigure.events;

import org.jspecify.annotations.NullMarked;
