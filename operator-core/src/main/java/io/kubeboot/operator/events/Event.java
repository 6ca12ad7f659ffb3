package io.kubeboot.operator.events;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * An event to record with
 * {@link EventRecorder#record(io.kubernetes.client.common.KubernetesObject, Event)}, when
 * it carries more than a type, a reason and a message: the {@code action} of
 * {@code events.k8s.io/v1} Events, what was done or failed. Each part is named where it
 * is set, so no two strings can be swapped unnoticed: <pre>{@code
 * events.record(bucket, Event.warning("ProvisioningFailed")
 *     .action("Provision")
 *     .message("The backend refused the bucket"));
 * }</pre> Immutable: each method returns a new event.
 */
public final class Event {

	private final EventType type;

	private final String reason;

	private final @Nullable String action;

	private final String message;

	private Event(EventType type, String reason, @Nullable String action, String message) {
		this.type = type;
		this.reason = reason;
		this.action = action;
		this.message = message;
	}

	/**
	 * Starts an event of type {@code Normal}.
	 * @param reason why it happened, a short UpperCamelCase word such as {@code Created}
	 * @return the event, without an action or a message
	 */
	public static Event normal(String reason) {
		return new Event(EventType.NORMAL, Objects.requireNonNull(reason, "reason must not be null"), null, "");
	}

	/**
	 * Starts an event of type {@code Warning}.
	 * @param reason why it happened, a short UpperCamelCase word such as
	 * {@code ProvisioningFailed}
	 * @return the event, without an action or a message
	 */
	public static Event warning(String reason) {
		return new Event(EventType.WARNING, Objects.requireNonNull(reason, "reason must not be null"), null, "");
	}

	/**
	 * Returns this event with the action it tells of.
	 * @param action what was done or failed, in UpperCamelCase, such as
	 * {@code Provision}; without one, the reason is the action
	 * @return the event
	 */
	public Event action(String action) {
		return new Event(this.type, this.reason, Objects.requireNonNull(action, "action must not be null"),
				this.message);
	}

	/**
	 * Returns this event with its message.
	 * @param message what happened, for a person to read
	 * @return the event
	 */
	public Event message(String message) {
		return new Event(this.type, this.reason, this.action,
				Objects.requireNonNull(message, "message must not be null"));
	}

	/**
	 * Returns the event's type.
	 * @return the type
	 */
	public EventType type() {
		return this.type;
	}

	/**
	 * Returns why the event happened.
	 * @return the reason
	 */
	public String reason() {
		return this.reason;
	}

	/**
	 * Returns what the event tells was done or failed.
	 * @return the action, {@code null} if none was given (the reason is the action then)
	 */
	public @Nullable String action() {
		return this.action;
	}

	/**
	 * Returns what happened, for a person to read.
	 * @return the message, empty if none was given
	 */
	public String message() {
		return this.message;
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return other instanceof Event that && this.type == that.type && this.reason.equals(that.reason)
				&& Objects.equals(this.action, that.action) && this.message.equals(that.message);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.type, this.reason, this.action, this.message);
	}

	@Override
	public String toString() {
		return this.type.value() + " " + this.reason + ((this.action != null) ? " (" + this.action + ")" : "") + ": "
				+ this.message;
	}

}
