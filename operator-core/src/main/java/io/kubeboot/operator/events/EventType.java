package io.kubeboot.operator.events;

/**
 * The type of a Kubernetes Event, as the API server stores it in {@code type}.
 */
public enum EventType {

	/**
	 * Something expected happened, such as an object being created or brought up to date.
	 */
	NORMAL("Normal"),

	/**
	 * Something went wrong or needs attention.
	 */
	WARNING("Warning");

	private final String value;

	EventType(String value) {
		this.value = value;
	}

	/**
	 * Returns the value written to the Event's {@code type} field.
	 * @return {@code Normal} or {@code Warning}
	 */
	public String value() {
		return this.value;
	}

}
