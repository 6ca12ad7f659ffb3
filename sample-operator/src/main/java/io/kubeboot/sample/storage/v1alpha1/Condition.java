package io.kubeboot.sample.storage.v1alpha1;

import java.time.OffsetDateTime;
import java.util.Objects;

import io.kubeboot.operator.model.AllowedValues;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;

/**
 * One aspect of a resource's state, following the Kubernetes API conventions for
 * conditions: the same fields as Go's {@code metav1.Condition}.
 * <p>
 * client-java has this type too ({@code V1Condition}), but its Gson adapter rejects any
 * field it does not know, which would make a single odd status fail the whole list an
 * informer reads; a plain class reads whatever the CRD's schema lets through.
 */
public class Condition {

	/**
	 * The condition type telling whether the bucket's endpoint answers.
	 */
	public static final String AVAILABLE = "Available";

	/**
	 * The status of a condition that holds.
	 */
	public static final String TRUE = "True";

	/**
	 * The status of a condition that does not hold.
	 */
	public static final String FALSE = "False";

	/**
	 * The status of a condition that may or may not hold.
	 */
	public static final String UNKNOWN = "Unknown";

	// the validation of metav1.Condition

	@NotNull
	@Size(max = 316)
	@Pattern(regexp = "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
			+ "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$")
	private String type;

	@NotNull
	@AllowedValues({ TRUE, FALSE, UNKNOWN })
	private String status;

	@PositiveOrZero
	private Long observedGeneration;

	@NotNull
	private OffsetDateTime lastTransitionTime;

	@NotNull
	@Size(min = 1, max = 1024)
	@Pattern(regexp = "^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$")
	private String reason;

	@NotNull
	@Size(max = 32768)
	private String message;

	/**
	 * The condition's type in UpperCamelCase, such as {@code Available}.
	 * @return the type
	 */
	public String getType() {
		return this.type;
	}

	public Condition type(String type) {
		this.type = type;
		return this;
	}

	/**
	 * {@code True}, {@code False} or {@code Unknown}.
	 * @return the status
	 */
	public String getStatus() {
		return this.status;
	}

	public Condition status(String status) {
		this.status = status;
		return this;
	}

	/**
	 * The {@code metadata.generation} the condition was set for.
	 * @return the generation, or {@code null}
	 */
	public Long getObservedGeneration() {
		return this.observedGeneration;
	}

	public Condition observedGeneration(Long observedGeneration) {
		this.observedGeneration = observedGeneration;
		return this;
	}

	/**
	 * When the status last changed from one value to another.
	 * @return the transition time
	 */
	public OffsetDateTime getLastTransitionTime() {
		return this.lastTransitionTime;
	}

	public Condition lastTransitionTime(OffsetDateTime lastTransitionTime) {
		this.lastTransitionTime = lastTransitionTime;
		return this;
	}

	/**
	 * Why the condition has its status, in UpperCamelCase, such as
	 * {@code EndpointUnreachable}.
	 * @return the reason
	 */
	public String getReason() {
		return this.reason;
	}

	public Condition reason(String reason) {
		this.reason = reason;
		return this;
	}

	/**
	 * Details for a person to read.
	 * @return the message
	 */
	public String getMessage() {
		return this.message;
	}

	public Condition message(String message) {
		this.message = message;
		return this;
	}

	/**
	 * Whether this condition says the same as another one, leaving out when it last
	 * changed: what decides whether a new observation is worth writing.
	 * @param other the other condition, may be {@code null}
	 * @return whether type, status, reason, message and observed generation are equal
	 */
	public boolean sameObservation(Condition other) {
		return other != null && Objects.equals(this.type, other.type) && Objects.equals(this.status, other.status)
				&& Objects.equals(this.reason, other.reason) && Objects.equals(this.message, other.message)
				&& Objects.equals(this.observedGeneration, other.observedGeneration);
	}

}
