/**
 * Internal: the elector that campaigns for, renews and releases the Lease, and its Lease
 * lock and watch. Not an API: it may change in any release; configure leader election
 * through {@link io.kubeboot.operator.leaderelection.LeaderElectionConfig} and read it
 * through {@link io.kubeboot.operator.leaderelection.LeaderElectionStatus}.
 */
@NullMarked
package io.kubeboot.operator.leaderelection.internal;

import org.jspecify.annotations.NullMarked;
