package io.kubeboot.operator.model;

import java.time.OffsetDateTime;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * One aspect of a resource's state, with the fields of the Kubernetes API conventions'
 * conditions (Go's {@code metav1.Condition}): put a list of them in a custom resource's
 * status, keyed by type, and keep it with {@link Conditions}.
 *
 * <pre class="code">
 * &#64;ListType(value = ListType.Type.MAP, mapKeys = "type")
 * private List&lt;Condition&gt; conditions = new ArrayList&lt;&gt;();
 * </pre>
 *
 * {@code operator-crd-generator} writes the schema the API server gives
 * {@code metav1.Condition}: {@code type}, {@code status}, {@code reason}, {@code message}
 * and {@code lastTransitionTime} required, {@code reason} one CamelCase word.
 * client-java's {@code V1Condition} has the same fields, but wherever client-java's own
 * Gson reads it (its typed APIs), a field it does not know fails the whole object; this
 * class reads whatever the schema lets through, with any Gson.
 */
public final class Condition {

	/** The status of a condition that holds. */
	public static final String TRUE = "True";

	/** The status of a condition that does not hold. */
	public static final String FALSE = "False";

	/** The status of a condition that cannot be told now. */
	public static final String UNKNOWN = "Unknown";

	private @Nullable String type;

	private @Nullable String status;

	private @Nullable Long observedGeneration;

	private @Nullable OffsetDateTime lastTransitionTime;

	private @Nullable String reason;

	private @Nullable String message;

	/**
	 * Creates a condition of a type with a status, reason and message, as most are set.
	 * @param type the type, in UpperCamelCase, such as {@code Ready}
	 * @param status {@link #TRUE}, {@link #FALSE} or {@link #UNKNOWN}
	 * @param reason why, one UpperCamelCase word for programs
	 * @param message details for a person, may be empty
	 * @return the condition
	 */
	public static Condition of(String type, String status, String reason, String message) {
		return new Condition().type(type).status(status).reason(reason).message(message);
	}

	/**
	 * The condition's type in UpperCamelCase, such as {@code Ready}, or prefixed with a
	 * domain ({@code example.com/Ready}).
	 * @return the type
	 */
	public @Nullable String getType() {
		return this.type;
	}

	public Condition type(@Nullable String type) {
		this.type = type;
		return this;
	}

	/**
	 * {@link #TRUE}, {@link #FALSE} or {@link #UNKNOWN}.
	 * @return the status
	 */
	public @Nullable String getStatus() {
		return this.status;
	}

	public Condition status(@Nullable String status) {
		this.status = status;
		return this;
	}

	/**
	 * The {@code metadata.generation} the condition was observed at: a condition older
	 * than the spec says so.
	 * @return the generation, or {@code null}
	 */
	public @Nullable Long getObservedGeneration() {
		return this.observedGeneration;
	}

	public Condition observedGeneration(@Nullable Long observedGeneration) {
		this.observedGeneration = observedGeneration;
		return this;
	}

	/**
	 * When the status last changed from one value to another.
	 * @return the time, or {@code null} before {@link Conditions#set} set it
	 */
	public @Nullable OffsetDateTime getLastTransitionTime() {
		return this.lastTransitionTime;
	}

	public Condition lastTransitionTime(@Nullable OffsetDateTime lastTransitionTime) {
		this.lastTransitionTime = lastTransitionTime;
		return this;
	}

	/**
	 * Why the condition has its status: one UpperCamelCase word for programs.
	 * @return the reason
	 */
	public @Nullable String getReason() {
		return this.reason;
	}

	public Condition reason(@Nullable String reason) {
		this.reason = reason;
		return this;
	}

	/**
	 * Details for a person to read, possibly empty.
	 * @return the message
	 */
	public @Nullable String getMessage() {
		return this.message;
	}

	public Condition message(@Nullable String message) {
		this.message = message;
		return this;
	}

	/**
	 * Returns whether the status is {@link #TRUE}.
	 * @return whether the condition holds
	 */
	public boolean isTrue() {
		return TRUE.equals(this.status);
	}

	/**
	 * Returns a copy: conditions read from the cache are shared and must not change.
	 * @return a new condition with the same fields
	 */
	public Condition copy() {
		return new Condition().type(this.type)
			.status(this.status)
			.observedGeneration(this.observedGeneration)
			.lastTransitionTime(this.lastTransitionTime)
			.reason(this.reason)
			.message(this.message);
	}

	@Override
	public boolean equals(@Nullable Object other) {
		if (this == other) {
			return true;
		}
		return other instanceof Condition that && Objects.equals(this.type, that.type)
				&& Objects.equals(this.status, that.status)
				&& Objects.equals(this.observedGeneration, that.observedGeneration)
				&& Objects.equals(this.lastTransitionTime, that.lastTransitionTime)
				&& Objects.equals(this.reason, that.reason) && Objects.equals(this.message, that.message);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.type, this.status, this.observedGeneration, this.lastTransitionTime, this.reason,
				this.message);
	}

	@Override
	public String toString() {
		return "Condition[type=" + this.type + ", status=" + this.status + ", reason=" + this.reason + ", message="
				+ this.message + ", observedGeneration=" + this.observedGeneration + ", lastTransitionTime="
				+ this.lastTransitionTime + "]";
	}

}
