/**
 * Spring Boot auto-configuration of the operator: the Kubernetes {@code ApiClient}, the
 * {@link io.kubeboot.operator.manager.Manager} and its lifecycle, and the controllers
 * built from {@link io.kubeboot.operator.annotation.Reconciles @Reconciles} beans.
 */
@NullMarked
package io.kubeboot.operator.autoconfigure;

import org.jspecify.annotations.NullMarked;
