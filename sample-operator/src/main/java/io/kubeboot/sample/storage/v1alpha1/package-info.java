/**
 * The {@code storage.kubeboot.io/v1alpha1} API: the {@code StorageBucket} custom
 * resource, from which the build generates {@code deploy/crd.yaml}.
 */
package io.kubeboot.sample.storage.v1alpha1;
