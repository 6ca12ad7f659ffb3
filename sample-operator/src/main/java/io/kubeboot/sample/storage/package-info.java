/**
 * The StorageBucket controller: probes buckets of an object store outside the cluster and
 * records what it finds in their status, in Events and in metrics.
 */
package io.kubeboot.sample.storage;
