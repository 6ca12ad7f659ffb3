package io.kubeboot.operator.leaderelection.internal;

import java.time.Duration;
import java.util.Map;

/**
 * What a Lease carries besides its election record, for a Lease that says more than who
 * holds it (a shard Lease names its ring in a label and its drain acknowledgement in an
 * annotation): labels and annotations written with every create and update, and a call
 * back once a write carrying them succeeded. Leader election's own Lease carries none.
 */
public interface LeaseMetadata {

	/**
	 * The labels to set on the Lease; other labels are kept.
	 * @return the labels
	 */
	Map<String, String> labels();

	/**
	 * The annotations to set with the next write, read just before it is sent; other
	 * annotations are kept.
	 * @param timeout how long the write may take: it is cut off then, landed or not
	 * @return the annotations
	 */
	Map<String, String> annotations(Duration timeout);

	/**
	 * Called after a create or update that carried the given annotations succeeded.
	 * @param annotations what {@link #annotations(Duration)} returned for that write
	 */
	default void written(Map<String, String> annotations) {
	}

	/**
	 * Returns metadata that adds nothing.
	 * @return the metadata of leader election's Lease
	 */
	static LeaseMetadata none() {
		return new LeaseMetadata() {

			@Override
			public Map<String, String> labels() {
				return Map.of();
			}

			@Override
			public Map<String, String> annotations(Duration timeout) {
				return Map.of();
			}

		};
	}

}
