/**
 * Internal: the hash ring, the ring member that renews its Lease and watches the others,
 * and the gate that lets a sharded controller reconcile only what this replica owns. Not
 * an API: it may change in any release; join a ring through
 * {@link io.kubeboot.operator.sharding.ShardRing}.
 */
@NullMarked
package io.kubeboot.operator.sharding.internal;

import org.jspecify.annotations.NullMarked;
