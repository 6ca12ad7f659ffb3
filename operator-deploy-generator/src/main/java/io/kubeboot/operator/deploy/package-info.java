/**
 * The manifests that install an operator, generated from its code in a test of its build:
 * the Deployment with its probes, ports and security context, the ServiceAccount and
 * roles, the Services, the webhook configurations and their cert-manager certificates,
 * the NetworkPolicy, PodDisruptionBudget and ServiceMonitor, as plain YAML and as a Helm
 * chart of the same objects. {@link io.kubeboot.operator.deploy.DeployModels} reads what
 * they need from the application, {@link io.kubeboot.operator.deploy.DeployManifests}
 * renders them with the {@link io.kubeboot.operator.deploy.DeploySettings} the code does
 * not know. A test-scoped dependency: nothing here runs in an operator.
 */
@NullMarked
package io.kubeboot.operator.deploy;

import org.jspecify.annotations.NullMarked;
