/**
 * The {@code storage.kubeboot.io/v1alpha1} API: the {@code StorageBucket} custom
 * resource, the Java side of {@code deploy/crd.yaml}.
 */
package io.kubeboot.sample.storage.v1alpha1;
