package io.kubeboot.sample.storage;

import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.model.Conditions;
import io.kubeboot.sample.storage.v1alpha1.StorageBucket;
import io.kubeboot.sample.storage.v1alpha1.StorageBucketStatus;
import org.springframework.stereotype.Component;

/**
 * Counts the buckets in the cache by their {@code Available} condition, without a request
 * to the API server. Every replica's cache is warm, so the counts are right on a standby
 * too.
 */
@Component
class BucketInventory {

	private final Cache cache;

	BucketInventory(Cache cache) {
		this.cache = cache;
	}

	/**
	 * Counts the cached buckets.
	 * @return the counts
	 */
	Counts count() {
		int buckets = 0;
		int available = 0;
		for (StorageBucket bucket : this.cache.list(StorageBucket.class, null)) {
			buckets++;
			if (bucket.getStatus() != null
					&& Conditions.isTrue(bucket.getStatus().getConditions(), StorageBucketStatus.AVAILABLE)) {
				available++;
			}
		}
		return new Counts(buckets, available);
	}

	/**
	 * How many buckets there are, and how many of them are available.
	 *
	 * @param buckets the number of buckets
	 * @param available the number of buckets whose {@code Available} condition is
	 * {@code True}
	 */
	record Counts(int buckets, int available) {

		int unavailable() {
			return this.buckets - this.available;
		}

	}

}
