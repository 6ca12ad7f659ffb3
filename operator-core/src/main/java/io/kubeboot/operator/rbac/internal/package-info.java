/**
 * Internal: resource names of kinds without the API server, the merging of permissions
 * into rules, and the start-up check that asks the API server about every rule. Not an
 * API: it may change in any release; use {@link io.kubeboot.operator.rbac.PolicyRules}.
 */
@NullMarked
package io.kubeboot.operator.rbac.internal;

import org.jspecify.annotations.NullMarked;
