package io.kubeboot.operator.autoconfigure.observation;

import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;

import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationView;
import io.micrometer.observation.transport.ReceiverContext;
import io.micrometer.observation.transport.SenderContext;
import org.jspecify.annotations.Nullable;

/**
 * A tracer for tests, as a tracing bridge plugs into an ObservationRegistry: each
 * observation is a span with W3C trace and span ids, a child of its parent observation's
 * span, or of the remote span a receiver's carrier names ({@code traceparent}); a
 * sender's carrier is given the span's {@code traceparent}, as a propagating handler
 * does. Finished spans are kept in order.
 */
final class RecordingTracer implements ObservationHandler<Observation.Context> {

	private static final String TRACEPARENT = "traceparent";

	final List<FinishedSpan> spans = new CopyOnWriteArrayList<>();

	@Override
	@SuppressWarnings({ "unchecked", "rawtypes" })
	public void onStart(Observation.Context context) {
		String traceId = null;
		String parentId = null;
		if (context instanceof ReceiverContext receiver && receiver.getCarrier() != null) {
			String remote = receiver.getGetter().get(receiver.getCarrier(), TRACEPARENT);
			if (remote != null) {
				String[] parts = remote.split("-");
				traceId = parts[1];
				parentId = parts[2];
			}
		}
		ObservationView parent = context.getParentObservation();
		if (traceId == null && parent != null && parent.getContextView().get(Ids.class) instanceof Ids parentIds) {
			traceId = parentIds.traceId();
			parentId = parentIds.spanId();
		}
		Ids ids = new Ids((traceId != null) ? traceId : hex(16), hex(8), parentId);
		context.put(Ids.class, ids);
		if (context instanceof SenderContext sender && sender.getCarrier() != null) {
			sender.getSetter().set(sender.getCarrier(), TRACEPARENT, "00-" + ids.traceId() + "-" + ids.spanId() + "-01");
		}
	}

	@Override
	public void onStop(Observation.Context context) {
		Ids ids = context.get(Ids.class);
		Map<String, String> keys = new HashMap<>();
		for (KeyValue keyValue : context.getLowCardinalityKeyValues()) {
			keys.put(keyValue.getKey(), keyValue.getValue());
		}
		for (KeyValue keyValue : context.getHighCardinalityKeyValues()) {
			keys.put(keyValue.getKey(), keyValue.getValue());
		}
		this.spans.add(new FinishedSpan(context.getName(), context.getContextualName(), ids.traceId(), ids.spanId(),
				ids.parentId(), keys, context.getError()));
	}

	@Override
	public boolean supportsContext(Observation.Context context) {
		return true;
	}

	/**
	 * Returns the finished spans of an observation name.
	 */
	List<FinishedSpan> named(String name) {
		return this.spans.stream().filter((span) -> span.name().equals(name)).toList();
	}

	private static String hex(int bytes) {
		byte[] random = new byte[bytes];
		ThreadLocalRandom.current().nextBytes(random);
		return HexFormat.of().formatHex(random);
	}

	private record Ids(String traceId, String spanId, @Nullable String parentId) {
	}

	/**
	 * A span as an exporter would send it.
	 *
	 * @param name the observation's name
	 * @param contextualName the span's name
	 * @param traceId the trace id
	 * @param spanId the span id
	 * @param parentId the parent's span id, {@code null} for a root
	 * @param keys the key values, low and high cardinality
	 * @param error what the observation recorded as its error
	 */
	record FinishedSpan(String name, @Nullable String contextualName, String traceId, String spanId,
			@Nullable String parentId, Map<String, String> keys, @Nullable Throwable error) {

		@Override
		public String toString() {
			return this.contextualName + " trace=" + this.traceId + " span=" + this.spanId + " parent=" + this.parentId
					+ " " + new TreeMap<>(this.keys);
		}

	}

}
