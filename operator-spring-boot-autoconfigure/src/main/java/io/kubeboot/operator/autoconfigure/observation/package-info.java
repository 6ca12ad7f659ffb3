/**
 * Spring Boot auto-configuration of the operator's observations: reconciles, client
 * calls, webhook requests and leader transitions reported to the application's
 * ObservationRegistry, traced when a tracing bridge is on the class path.
 */
@NullMarked
package io.kubeboot.operator.autoconfigure.observation;

import org.jspecify.annotations.NullMarked;
