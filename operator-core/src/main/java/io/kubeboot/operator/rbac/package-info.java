/**
 * The RBAC an operator needs, derived from what its manager runs: the kinds its caches
 * list and watch, its controllers' finalizers and declared writes, its Lease and its
 * Events. {@link io.kubeboot.operator.rbac.PolicyRules} resolves them to Kubernetes'
 * rules, which {@link io.kubeboot.operator.rbac.RbacManifest} renders as the YAML of
 * Roles and ClusterRoles and the manager's start-up self-check asks the API server about.
 */
@NullMarked
package io.kubeboot.operator.rbac;

import org.jspecify.annotations.NullMarked;
