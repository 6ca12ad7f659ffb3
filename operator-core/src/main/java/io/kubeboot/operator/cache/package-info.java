/**
 * Informer-backed caches of Kubernetes objects, one informer per kind, namespace and
 * label selector, shared by every controller that needs it. Reconcilers read objects
 * through {@link io.kubeboot.operator.cache.Cache} instead of calling the API server.
 */
@NullMarked
package io.kubeboot.operator.cache;

import org.jspecify.annotations.NullMarked;
