package io.kubeboot.operator.events;

import java.time.Duration;

import io.kubeboot.operator.client.internal.StatusMessages;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one batch of occurrences taken from the {@link EventQueue}: a strategic merge
 * patch of {@code count} and {@code lastTimestamp} if an Event was written for the same
 * event before, else (or if that Event expired) a new Event. A failed write goes back to
 * the queue if {@link WriteFailures} says it may pass, else its occurrences are dropped.
 * Never throws; used by the writing thread only.
 */
final class EventWriter {

	// the recorder's logger: the log lines and their configuration stay as they were
	private static final Logger logger = LoggerFactory.getLogger(KubernetesEventRecorder.class);

	private final EventSink sink;

	private final EventQueue queue;

	private final EventFactory factory;

	private final DroppedEvents dropped;

	EventWriter(EventSink sink, EventQueue queue, EventFactory factory, DroppedEvents dropped) {
		this.sink = sink;
		this.queue = queue;
		this.factory = factory;
		this.dropped = dropped;
	}

	/**
	 * Writes a batch, blocking on the sink.
	 * @param batch the occurrences and the Event they add to
	 */
	void write(EventQueue.Batch batch) {
		PendingEvent event = batch.event();
		EventKey key = event.key;
		String namespace = EventFactory.namespaceOf(key);
		try {
			String name = batch.name();
			if (name != null) {
				int total = EventFactory.toCount(batch.writtenCount() + event.count);
				try {
					this.sink.patch(namespace, name, total, EventFactory.time(event.last));
					this.queue.written(key, name, total);
					logger.debug("Updated event: event={}/{} count={}", namespace, name, total);
					return;
				}
				catch (ApiException ex) {
					if (!WriteFailures.isExpired(ex)) {
						throw ex;
					}
					logger.debug("Event expired, creating a new one: event={}/{}", namespace, name);
				}
			}
			CoreV1Event created = create(namespace, event);
			String createdName = (created.getMetadata() != null) ? created.getMetadata().getName() : null;
			this.queue.written(key, createdName, event.count);
			logger.debug("Created event: event={}/{} count={}", namespace, createdName, event.count);
		}
		catch (ApiException ex) {
			failed(event, ex);
		}
		catch (Exception ex) {
			// okhttp, written in Kotlin, may throw an undeclared InterruptedException
			if (ex instanceof InterruptedException) {
				Thread.currentThread().interrupt();
			}
			this.dropped.drop("error", event.count, "event=" + key + " error=" + StatusMessages.describe(ex));
		}
	}

	private CoreV1Event create(String namespace, PendingEvent event) throws ApiException {
		InvolvedObjects.complete(event.reference, event.key, this.sink);
		CoreV1Event body = this.factory.newEvent(namespace, event);
		try {
			return this.sink.create(namespace, body);
		}
		catch (ApiException ex) {
			if (!WriteFailures.isNameTaken(ex)) {
				throw ex;
			}
			// another writer took the name in the same nanosecond
			body.getMetadata().setName(this.factory.newName(event.key.name()));
			return this.sink.create(namespace, body);
		}
	}

	private void failed(PendingEvent event, ApiException ex) {
		int retry = event.attempts + 1;
		Duration retryIn = WriteFailures.retryDelay(ex, retry);
		if (retryIn != null) {
			event.attempts = retry;
			if (this.queue.retry(event, retryIn)) {
				logger.debug("Failed to write event, will retry: event={} attempt={} retryIn={} error={}", event.key,
						event.attempts, retryIn, StatusMessages.describe(ex));
				return;
			}
		}
		this.dropped.drop("write-failed", event.count, "event=" + event.key + " error=" + StatusMessages.describe(ex));
	}

}
