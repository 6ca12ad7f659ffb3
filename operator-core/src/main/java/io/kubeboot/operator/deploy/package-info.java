/**
 * The manifests that install an operator, generated from its code: the Deployment with
 * its probes, ports and security context, the ServiceAccount and roles, the Services,
 * the webhook configurations and their cert-manager certificate, the NetworkPolicy,
 * PodDisruptionBudget and ServiceMonitor, as plain YAML and as a Helm chart of the same
 * objects. {@link io.kubeboot.operator.deploy.DeployManifests} renders them from a
 * {@link io.kubeboot.operator.deploy.DeployModel} and the
 * {@link io.kubeboot.operator.deploy.DeploySettings} the code does not know.
 */
@NullMarked
package io.kubeboot.operator.deploy;

import org.jspecify.annotations.NullMarked;
