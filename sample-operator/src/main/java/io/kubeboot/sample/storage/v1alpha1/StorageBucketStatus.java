package io.kubeboot.sample.storage.v1alpha1;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.kubeboot.operator.model.Condition;
import io.kubeboot.operator.model.Conditions;
import io.kubeboot.operator.model.ListType;
import jakarta.validation.constraints.PositiveOrZero;

/**
 * What the operator observed about a bucket, written through the status subresource.
 */
public class StorageBucketStatus {

	/**
	 * The condition type telling whether the bucket's endpoint answers.
	 */
	public static final String AVAILABLE = "Available";

	@PositiveOrZero
	private Long observedGeneration;

	private OffsetDateTime lastProbeTime;

	@ListType(value = ListType.Type.MAP, mapKeys = "type")
	private List<Condition> conditions = new ArrayList<>();

	/**
	 * The {@code metadata.generation} of the spec this status was observed for; behind
	 * the generation, the status describes an older spec.
	 * @return the observed generation, or {@code null}
	 */
	public Long getObservedGeneration() {
		return this.observedGeneration;
	}

	public StorageBucketStatus observedGeneration(Long observedGeneration) {
		this.observedGeneration = observedGeneration;
		return this;
	}

	/**
	 * When the endpoint was probed for this status. Probes that change nothing are not
	 * written every time, so it may lag by up to the operator's
	 * {@code sample.buckets.status-refresh-interval} (5m by default).
	 * @return the probe time, or {@code null}
	 */
	public OffsetDateTime getLastProbeTime() {
		return this.lastProbeTime;
	}

	public StorageBucketStatus lastProbeTime(OffsetDateTime lastProbeTime) {
		this.lastProbeTime = lastProbeTime;
		return this;
	}

	/**
	 * The latest observations of the bucket's state, one per condition type; type
	 * {@code Available} tells whether its endpoint answers.
	 * @return the conditions, never {@code null} once built by this class
	 */
	public List<Condition> getConditions() {
		return (this.conditions != null) ? this.conditions : List.of();
	}

	public StorageBucketStatus conditions(List<Condition> conditions) {
		this.conditions = conditions;
		return this;
	}

	/**
	 * Returns the condition of a type.
	 * @param type the condition type, such as {@link #AVAILABLE}
	 * @return the condition, or empty if there is none of that type
	 */
	public Optional<Condition> condition(String type) {
		return Conditions.find(getConditions(), type);
	}

}
