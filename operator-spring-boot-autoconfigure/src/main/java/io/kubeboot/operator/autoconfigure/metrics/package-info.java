/**
 * Spring Boot auto-configuration of the operator's Micrometer metrics, under
 * controller-runtime's Prometheus names.
 */
@NullMarked
package io.kubeboot.operator.autoconfigure.metrics;

import org.jspecify.annotations.NullMarked;
