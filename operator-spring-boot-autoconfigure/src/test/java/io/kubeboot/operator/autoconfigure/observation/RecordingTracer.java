package io.kubeboot.operator.autoconfigure.observation;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationView;
import io.micrometer.observation.transport.ReceiverContext;
import io.micrometer.observation.transport.SenderContext;
import org.jspecify.annotations.Nullable;

/**
 * A tracer for tests that plugs into an ObservationRegistry as Micrometer Tracing's
 * OpenTelemetry bridge does (its default, propagating sender and propagating receiver
 * handlers, with Spring Boot's parent-based sampler and W3C propagation):
 * <ul>
 * <li>a receiver's span ({@link ReceiverContext}: a reconcile, a webhook request) is the
 * child of the remote span its carrier's {@code traceparent} names, if that is a valid W3C
 * trace context, else of the span current on the thread (a scope opened and not closed),
 * else a root; the parent observation plays no part;</li>
 * <li>every other span is the child of its parent observation's span, else of the span
 * current on the thread, else a root;</li>
 * <li>a sender's carrier ({@link SenderContext}: a client call) is given the span's
 * {@code traceparent}, with flags {@code 01} if sampled, {@code 00} if not;</li>
 * <li>a root is sampled if the tracer samples roots; a child is sampled if its parent,
 * local or remote, is; only sampled spans are finished, as an exporter receives them.</li>
 * </ul>
 * It stands in for OpenTelemetry's in-memory exporter, whose jars the build does not have
 * yet; the test that uses it should move to the real bridge.
 */
final class RecordingTracer implements ObservationHandler<Observation.Context> {

	private static final Pattern TRACEPARENT = Pattern.compile("00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})");

	private static final String INVALID_TRACE = "0".repeat(32);

	private static final String INVALID_SPAN = "0".repeat(16);

	final List<FinishedSpan> spans = new CopyOnWriteArrayList<>();

	private final boolean sampleRoots;

	private final ThreadLocal<Deque<SpanContext>> current = ThreadLocal.withInitial(ArrayDeque::new);

	RecordingTracer() {
		this(true);
	}

	/**
	 * Creates a tracer.
	 * @param sampleRoots whether the spans of a new trace are sampled (Spring Boot's
	 * {@code management.tracing.sampling.probability} at 1.0 or 0.0)
	 */
	RecordingTracer(boolean sampleRoots) {
		this.sampleRoots = sampleRoots;
	}

	@Override
	@SuppressWarnings({ "unchecked", "rawtypes" })
	public void onStart(Observation.Context context) {
		SpanContext parent = (context instanceof ReceiverContext receiver) ? remoteParent(receiver) : null;
		if (parent == null && !(context instanceof ReceiverContext)) {
			ObservationView observation = context.getParentObservation();
			parent = (observation != null) ? observation.getContextView().get(SpanContext.class) : null;
		}
		if (parent == null) {
			parent = this.current.get().peekLast();
		}
		SpanContext span = (parent != null) ? new SpanContext(parent.traceId(), hex(8), parent.spanId(), parent.sampled())
				: new SpanContext(hex(16), hex(8), null, this.sampleRoots);
		context.put(SpanContext.class, span);
		if (context instanceof SenderContext sender && sender.getCarrier() != null) {
			sender.getSetter()
				.set(sender.getCarrier(), "traceparent",
						"00-" + span.traceId() + "-" + span.spanId() + (span.sampled() ? "-01" : "-00"));
		}
	}

	@Override
	public void onScopeOpened(Observation.Context context) {
		SpanContext span = context.get(SpanContext.class);
		if (span != null) {
			this.current.get().addLast(span);
		}
	}

	@Override
	public void onScopeClosed(Observation.Context context) {
		SpanContext span = context.get(SpanContext.class);
		if (span != null) {
			this.current.get().removeLastOccurrence(span);
		}
	}

	@Override
	public void onScopeReset(Observation.Context context) {
		this.current.get().clear();
	}

	@Override
	public void onEvent(Observation.Event event, Observation.Context context) {
		context.computeIfAbsent(Events.class, (type) -> new Events(new CopyOnWriteArrayList<>()))
			.names()
			.add(event.getName());
	}

	@Override
	public void onStop(Observation.Context context) {
		SpanContext span = context.getRequired(SpanContext.class);
		if (!span.sampled()) {
			return;
		}
		Map<String, String> keys = new HashMap<>();
		for (KeyValue keyValue : context.getLowCardinalityKeyValues()) {
			keys.put(keyValue.getKey(), keyValue.getValue());
		}
		for (KeyValue keyValue : context.getHighCardinalityKeyValues()) {
			keys.put(keyValue.getKey(), keyValue.getValue());
		}
		Events events = context.get(Events.class);
		this.spans.add(new FinishedSpan(context.getName(), context.getContextualName(), span.traceId(), span.spanId(),
				span.parentId(), keys, context.getError(), (events != null) ? List.copyOf(events.names()) : List.of()));
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

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private static @Nullable SpanContext remoteParent(ReceiverContext receiver) {
		Object carrier = receiver.getCarrier();
		String value = (carrier != null) ? receiver.getGetter().get(carrier, "traceparent") : null;
		Matcher matcher = (value != null) ? TRACEPARENT.matcher(value) : null;
		if (matcher == null || !matcher.matches() || INVALID_TRACE.equals(matcher.group(1))
				|| INVALID_SPAN.equals(matcher.group(2))) {
			return null;
		}
		boolean sampled = (Integer.parseInt(matcher.group(3), 16) & 1) == 1;
		return new SpanContext(matcher.group(1), matcher.group(2), null, sampled);
	}

	private static String hex(int bytes) {
		byte[] random = new byte[bytes];
		ThreadLocalRandom.current().nextBytes(random);
		return HexFormat.of().formatHex(random);
	}

	/**
	 * A span's place in its trace.
	 */
	private record SpanContext(String traceId, String spanId, @Nullable String parentId, boolean sampled) {
	}

	/**
	 * The events an observation signalled.
	 */
	private record Events(List<String> names) {
	}

	/**
	 * A span as an exporter would receive it.
	 *
	 * @param name the observation's name
	 * @param contextualName the span's name
	 * @param traceId the trace id
	 * @param spanId the span id
	 * @param parentId the parent's span id, {@code null} for a root
	 * @param keys the key values, low and high cardinality
	 * @param error what the observation recorded as its error
	 * @param events the names of the events signalled, in order
	 */
	record FinishedSpan(String name, @Nullable String contextualName, String traceId, String spanId,
			@Nullable String parentId, Map<String, String> keys, @Nullable Throwable error, List<String> events) {

		@Override
		public String toString() {
			return this.contextualName + " trace=" + this.traceId + " span=" + this.spanId + " parent=" + this.parentId
					+ " " + new TreeMap<>(this.keys) + " events=" + this.events;
		}

	}

}
