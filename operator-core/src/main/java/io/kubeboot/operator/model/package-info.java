/**
 * How a Java class says which Kubernetes kind it models:
 * {@link io.kubeboot.operator.model.KubernetesKind} on a custom resource class
 * (client-java model classes need nothing). The cache, the controllers and the events
 * resolve it against the API server's discovery.
 */
@NullMarked
package io.kubeboot.operator.model;

import org.jspecify.annotations.NullMarked;
