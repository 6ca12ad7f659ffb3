/**
 * Scale-out across replicas: every replica holds a Lease of its own in a ring, the
 * objects of a sharded controller are spread over the live replicas by consistent
 * hashing, and an object moves only after its old owner acknowledged that it stopped
 * reconciling it (or after the old owner's Lease expired).
 */
@NullMarked
package io.kubeboot.operator.sharding;

import org.jspecify.annotations.NullMarked;
