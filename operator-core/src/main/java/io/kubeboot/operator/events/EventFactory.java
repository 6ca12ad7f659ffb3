package io.kubeboot.operator.events;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Locale;

import io.kubeboot.operator.config.internal.ConfigChecks;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/**
 * Builds the core/v1 Events the recorder writes, as client-go's recorder does: named
 * {@code <object name>.<hex of the wall-clock nanoseconds>} (strictly increasing, so two
 * Events of one recorder never share a name), in the object's namespace or
 * {@code default} for a cluster-scoped object, with the recorder's component in
 * {@code source.component} and {@code reportingComponent}, its instance in
 * {@code reportingInstance}, timestamps to the nanosecond (an {@code events.k8s.io/v1}
 * Event keeps microseconds, a {@code core/v1} one whole seconds) and the count capped at
 * {@link Integer#MAX_VALUE}. It also keeps the values within what the API server accepts
 * of an {@code events.k8s.io/v1} Event ({@code ValidateEventCreate}), counted in UTF-8
 * bytes as Go counts them: a reason and an action of at most {@value #REASON_LIMIT}
 * bytes, never empty; a message of at most {@link KubernetesEventRecorder#MESSAGE_LIMIT};
 * a reporting instance of at most {@value #REPORTING_INSTANCE_LIMIT}; a name that is a
 * DNS subdomain whatever the object's name. Used by the writing thread only.
 */
final class EventFactory {

	private static final String DEFAULT_NAMESPACE = "default";

	/** The longest reason, and action, the API server accepts, in UTF-8 bytes. */
	static final int REASON_LIMIT = 128;

	/** The longest reporting instance the API server accepts, in UTF-8 bytes. */
	static final int REPORTING_INSTANCE_LIMIT = 128;

	/** The reason of an event recorded with neither a reason nor an action. */
	static final String UNKNOWN_REASON = "Unknown";

	/** What ends a text cut to its limit. */
	private static final String CUT = "...";

	/** The longest start of an Event's name, before {@code .<16 hex digits>}. */
	private static final int NAME_PREFIX_LIMIT = 253 - 17;

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
		return namePrefix(objectName) + "." + Long.toHexString(nanos);
	}

	/**
	 * Returns the start of the names of the Events about an object: its name if that can
	 * start a DNS subdomain (most names can), else the name made into one: objects of
	 * some kinds have names with ':' or capitals ({@code system:controller:...}
	 * ClusterRoles).
	 */
	private static String namePrefix(String objectName) {
		if (objectName.length() <= NAME_PREFIX_LIMIT && ConfigChecks.isDnsSubdomain(objectName)) {
			return objectName;
		}
		String made = objectName.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.-]+", "-");
		made = made.substring(0, Math.min(made.length(), NAME_PREFIX_LIMIT))
			.replaceAll("^[^a-z0-9]+|[^a-z0-9]+$", "")
			.replaceAll("\\.[^a-z0-9]+|[^a-z0-9]+\\.", ".");
		return made.isEmpty() ? "event" : made;
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
	 * Returns a timestamp as Events carry it: the API server keeps microseconds of an
	 * {@code events.k8s.io/v1} Event's times ({@code MicroTime}), whole seconds of a
	 * {@code core/v1} Event's.
	 * @param instant the time
	 * @return the timestamp
	 */
	static OffsetDateTime time(Instant instant) {
		return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
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
	 * Cuts a message to {@link KubernetesEventRecorder#MESSAGE_LIMIT} UTF-8 bytes.
	 * @param message the message
	 * @return the message, or its start ending with {@code ...}
	 */
	static String truncate(String message) {
		return cut(message, KubernetesEventRecorder.MESSAGE_LIMIT, CUT);
	}

	/**
	 * Returns the reason of an event: the one given, else the action, else
	 * {@value #UNKNOWN_REASON}, cut to {@value #REASON_LIMIT} UTF-8 bytes.
	 * @param reason the reason given, possibly empty
	 * @param action the action given, possibly empty
	 * @return the reason
	 */
	static String reason(String reason, String action) {
		String given = !reason.isEmpty() ? reason : (!action.isEmpty() ? action : UNKNOWN_REASON);
		return cut(given, REASON_LIMIT, "");
	}

	/**
	 * Returns the action of an event: the one given, else its reason, cut to
	 * {@value #REASON_LIMIT} UTF-8 bytes.
	 * @param action the action given, possibly empty
	 * @param reason the event's reason, as {@link #reason} returned it
	 * @return the action
	 */
	static String action(String action, String reason) {
		return action.isEmpty() ? reason : cut(action, REASON_LIMIT, "");
	}

	/**
	 * Returns a reporting instance the API server accepts.
	 * @param instance the instance
	 * @return the instance, cut to {@value #REPORTING_INSTANCE_LIMIT} UTF-8 bytes
	 */
	static String reportingInstance(String instance) {
		return cut(instance, REPORTING_INSTANCE_LIMIT, "");
	}

	/**
	 * Cuts a text to a number of UTF-8 bytes, between two code points.
	 * @param text the text
	 * @param limit the most bytes
	 * @param end what ends a text that was cut, within the limit
	 * @return the text, or its longest start that fits with the end
	 */
	static String cut(String text, int limit, String end) {
		if (text.length() <= limit / 3 || utf8Length(text, text.length()) <= limit) {
			return text;
		}
		int room = limit - utf8Length(end, end.length());
		int bytes = 0;
		int index = 0;
		while (index < text.length()) {
			int codePoint = text.codePointAt(index);
			int size = utf8Length(codePoint);
			if (bytes + size > room) {
				break;
			}
			bytes += size;
			index += Character.charCount(codePoint);
		}
		return text.substring(0, index) + end;
	}

	private static int utf8Length(String text, int chars) {
		int bytes = 0;
		for (int i = 0; i < chars;) {
			int codePoint = text.codePointAt(i);
			bytes += utf8Length(codePoint);
			i += Character.charCount(codePoint);
		}
		return bytes;
	}

	private static int utf8Length(int codePoint) {
		if (codePoint < 0x80) {
			return 1;
		}
		if (codePoint < 0x800) {
			return 2;
		}
		return (codePoint < 0x10000) ? 3 : 4;
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
