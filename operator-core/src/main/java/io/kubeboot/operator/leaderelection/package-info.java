/**
 * Leader election on a {@code coordination.k8s.io/v1} Lease: one replica leads and runs
 * the controllers, the others wait as warm standbys. Every expiry decision uses the
 * monotonic clock, and a lost lease either exits the process or re-enters the election.
 */
@NullMarked
package io.kubeboot.operator.leaderelection;

import org.jspecify.annotations.NullMarked;
