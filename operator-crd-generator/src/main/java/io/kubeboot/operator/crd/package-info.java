/**
 * The CustomResourceDefinition generator: an annotation processor that writes the CRD of
 * every {@code @KubernetesKind} class at compile time. Only
 * {@link io.kubeboot.operator.crd.CustomResourceDefinitionProcessor} is public, for the
 * compiler to load.
 */
package io.kubeboot.operator.crd;
