package io.kubeboot.operator.autoconfigure.docs.model;

import java.util.List;

/**
 * The object store behind the buckets, a system outside the cluster.
 */
public interface BucketStore {

	/**
	 * Fails when the store cannot be reached.
	 * @throws Exception why it cannot be reached
	 */
	void verifyConnected() throws Exception;

	/**
	 * The names of the buckets the store is deleting.
	 * @return the names
	 */
	List<String> pendingDeletions();

	/**
	 * The region a bucket's endpoint is in.
	 * @param endpoint the endpoint
	 * @return the region
	 */
	String regionOf(String endpoint);

}
