package io.kubeboot.operator.events;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.CoreV1Event;

/**
 * An {@link EventSink} keeping Events in memory, which can be made to fail or to hang.
 */
final class FakeEventSink implements EventSink {

	/**
	 * The Events written, by {@code namespace/name}.
	 */
	final Map<String, CoreV1Event> events = new ConcurrentHashMap<>();

	/**
	 * Every call, as {@code create namespace/name count} or
	 * {@code patch namespace/name count}.
	 */
	final List<String> calls = new CopyOnWriteArrayList<>();

	/**
	 * Failures thrown by the next calls, one per call.
	 */
	final Queue<ApiException> failures = new ConcurrentLinkedQueue<>();

	/**
	 * Every call waits for this latch.
	 */
	volatile CountDownLatch gate = new CountDownLatch(0);

	@Override
	public String apiVersionOf(Class<? extends KubernetesObject> type) {
		return "v1";
	}

	@Override
	public CoreV1Event create(String namespace, CoreV1Event event) throws ApiException {
		String key = namespace + "/" + event.getMetadata().getName();
		enter("create " + key + " " + event.getCount());
		this.events.put(key, event);
		return event;
	}

	@Override
	public void patch(String namespace, String name, int count, OffsetDateTime lastTimestamp) throws ApiException {
		String key = namespace + "/" + name;
		enter("patch " + key + " " + count);
		CoreV1Event event = this.events.get(key);
		if (event == null) {
			throw new ApiException(404, "events \"" + name + "\" not found");
		}
		event.count(count).lastTimestamp(lastTimestamp);
	}

	private void enter(String call) throws ApiException {
		try {
			this.gate.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new ApiException(ex);
		}
		this.calls.add(call);
		ApiException failure = this.failures.poll();
		if (failure != null) {
			throw failure;
		}
	}

	/**
	 * Returns the Events written, with the given reason.
	 * @param reason the reason
	 * @return the Events
	 */
	List<CoreV1Event> withReason(String reason) {
		return this.events.values().stream().filter((event) -> reason.equals(event.getReason())).toList();
	}

	/**
	 * Returns the sum of the counts of all Events written.
	 * @return the total count
	 */
	long totalCount() {
		return this.events.values().stream().mapToLong(CoreV1Event::getCount).sum();
	}

}
