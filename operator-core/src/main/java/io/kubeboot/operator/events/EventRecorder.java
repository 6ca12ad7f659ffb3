package io.kubeboot.operator.events;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Records Kubernetes Events about objects, the counterpart of client-go's
 * {@code record.EventRecorder}: what {@code kubectl describe} shows under
 * {@code Events:}.
 * <p>
 * Implementations must be thread-safe, must never block the caller on the API server and
 * must never throw because of an API error: a reconcile can record events without
 * handling failures. The {@code reason} is a short, machine-readable UpperCamelCase word
 * ({@code Created}, {@code ScalingUp}, {@code InvalidSpec}); the {@code message} is for a
 * person to read. An {@code events.k8s.io/v1} Event also carries an {@code action}, what
 * was done or failed ({@code Provision}, {@code Reconcile}), which
 * {@link #record(KubernetesObject, Event)} takes; the methods without one take the reason
 * as the action.
 */
public interface EventRecorder {

	/**
	 * Records an event of type {@code Normal}.
	 * @param object the object the event is about
	 * @param reason why the event happened, in UpperCamelCase
	 * @param message what happened, for a person to read
	 */
	default void normal(KubernetesObject object, String reason, String message) {
		record(object, EventType.NORMAL, reason, message);
	}

	/**
	 * Records an event of type {@code Warning}.
	 * @param object the object the event is about
	 * @param reason why the event happened, in UpperCamelCase
	 * @param message what happened, for a person to read
	 */
	default void warning(KubernetesObject object, String reason, String message) {
		record(object, EventType.WARNING, reason, message);
	}

	/**
	 * Records an event.
	 * @param object the object the event is about
	 * @param type the event's type
	 * @param reason why the event happened, in UpperCamelCase
	 * @param message what happened, for a person to read
	 */
	void record(KubernetesObject object, EventType type, String reason, String message);

	/**
	 * Records an event built with {@link Event}, such as one with the action it tells of,
	 * which {@code events.k8s.io/v1} Events carry ({@code action}) and {@code core/v1}
	 * Events keep in their {@code action} field. Events that differ only in their action
	 * are different events. By default, for a recorder that keeps no action (a lambda, a
	 * test double), the event is recorded as
	 * {@link #record(KubernetesObject, EventType, String, String)} records it, without
	 * its action.
	 * @param object the object the event is about
	 * @param event the event
	 */
	default void record(KubernetesObject object, Event event) {
		record(object, event.type(), event.reason(), event.message());
	}

	/**
	 * Returns a recorder that discards every event, for tests and for applications that
	 * turned events off but still inject a recorder.
	 * @return the recorder
	 */
	static EventRecorder noop() {
		return (object, type, reason, message) -> {
		};
	}

}
