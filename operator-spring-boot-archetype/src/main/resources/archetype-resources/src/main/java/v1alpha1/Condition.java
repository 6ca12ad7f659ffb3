package ${package}.v1alpha1;

import java.time.OffsetDateTime;
import java.util.Objects;

import io.kubeboot.operator.model.AllowedValues;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/**
 * One aspect of a resource's state, with the fields of the Kubernetes API conventions'
 * conditions (Go's {@code metav1.Condition}).
 */
public class Condition {

	/**
	 * The condition type telling whether the resource's ConfigMap is up to date.
	 */
	public static final String READY = "Ready";

	// required fields, and the values the API server accepts, in the CRD's schema

	@NotBlank
	@Size(max = 316)
	private String type;

	@NotNull
	@AllowedValues({ "True", "False", "Unknown" })
	private String status;

	private Long observedGeneration;

	private OffsetDateTime lastTransitionTime;

	@Size(max = 1024)
	private String reason;

	@Size(max = 32768)
	private String message;

	/**
	 * The condition's type in UpperCamelCase, such as {@code Ready}.
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
	 * Why the condition has its status, one UpperCamelCase word for programs.
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
	 * Whether this condition says the same as another, leaving out when it last changed:
	 * what decides whether a new observation is worth writing.
	 * @param other the other condition, may be {@code null}
	 * @return whether type, status, reason, message and observed generation are equal
	 */
	public boolean sameObservation(Condition other) {
		return other != null && Objects.equals(this.type, other.type) && Objects.equals(this.status, other.status)
				&& Objects.equals(this.reason, other.reason) && Objects.equals(this.message, other.message)
				&& Objects.equals(this.observedGeneration, other.observedGeneration);
	}

}
