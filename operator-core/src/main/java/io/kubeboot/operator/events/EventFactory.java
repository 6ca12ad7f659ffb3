package io.kubeboot.operator.events;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/**
 * Builds the core/v1 Events the recorder writes, as client-go's recorder does: named
 * {@code <object name>.<hex of the wall-clock nanoseconds>} (strictly increasing, so two
 * Events of one recorder never share a name), in the object's namespace or
 * {@code default} for a cluster-scoped object, with the recorder's component in
 * {@code source.component} and {@code reportingComponent}, its instance in
 * {@code reportingInstance}, timestamps in whole seconds and the count capped at
 * {@link Integer#MAX_VALUE}. Used by the writing thread only.
 */
final class EventFactory {

	private static final String DEFAULT_NAMESPACE = "default";

	private final String component;

	private final String reportingInstance;

	private final Clock clock;

	private long lastNameNanos;

	EventFactory(String component, String reportingInstance, Clock clock) {
		this.component = component;
		this.reportingInstance = reportingInstance;
		this.clock = clock;
	}

	/**
	 * Returns a new Event carrying pending occurrences.
	 * @param namespace the Event's namespace
	 * @param event the occurrences, whose reference is complete
	 * @return the Event, with a fresh name
	 */
	CoreV1Event newEvent(String namespace, PendingEvent event) {
		EventKey key = event.key;
		return new CoreV1Event().metadata(new V1ObjectMeta().name(newName(key.name())).namespace(namespace))
			.involvedObject(event.reference)
			.reason(key.reason())
			.action(key.action())
			.message(key.message())
			.type(key.type().value())
			.source(new V1EventSource().component(this.component))
			.reportingComponent(this.component)
			.reportingInstance(this.reportingInstance)
			.firstTimestamp(time(event.first))
			.lastTimestamp(time(event.last))
			.count(toCount(event.count));
	}

	/**
	 * Returns a name for a new Event about an object, later than every name returned
	 * before.
	 * @param objectName the object's name
	 * @return the name
	 */
	String newName(String objectName) {
		Instant now = this.clock.instant();
		long nanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
		if (nanos - this.lastNameNanos <= 0) {
			nanos = this.lastNameNanos + 1;
		}
		this.lastNameNanos = nanos;
		return objectName + "." + Long.toHexString(nanos);
	}

	/**
	 * Returns the namespace of the Events about an object.
	 * @param key the event
	 * @return the object's namespace, or {@code default} for a cluster-scoped object
	 */
	static String namespaceOf(EventKey key) {
		return (key.namespace() != null) ? key.namespace() : DEFAULT_NAMESPACE;
	}

	/**
	 * Returns a timestamp as Events carry it, in whole seconds.
	 * @param instant the time
	 * @return the timestamp
	 */
	static OffsetDateTime time(Instant instant) {
		return OffsetDateTime.ofInstant(instant.truncatedTo(ChronoUnit.SECONDS), ZoneOffset.UTC);
	}

	/**
	 * Returns a count as Events carry it.
	 * @param count the number of occurrences
	 * @return the count, at most {@link Integer#MAX_VALUE}
	 */
	static int toCount(long count) {
		return (int) Math.min(count, Integer.MAX_VALUE);
	}

	/**
	 * Cuts a message to {@link KubernetesEventRecorder#MESSAGE_LIMIT} characters.
	 * @param message the message
	 * @return the message, or its start ending with {@code ...}
	 */
	static String truncate(String message) {
		int limit = KubernetesEventRecorder.MESSAGE_LIMIT;
		return (message.length() <= limit) ? message : message.substring(0, limit - 3) + "...";
	}

	/**
	 * Returns the instance to report when none is set: the host name ({@code HOSTNAME},
	 * which is the pod name in Kubernetes).
	 * @param fallback what to return if the host name cannot be told
	 * @return the instance
	 */
	static String defaultReportingInstance(String fallback) {
		String fromEnvironment = System.getenv("HOSTNAME");
		if (fromEnvironment != null && !fromEnvironment.isBlank()) {
			return fromEnvironment.trim();
		}
		try {
			return InetAddress.getLocalHost().getHostName();
		}
		catch (IOException ex) {
			return fallback;
		}
	}

}
