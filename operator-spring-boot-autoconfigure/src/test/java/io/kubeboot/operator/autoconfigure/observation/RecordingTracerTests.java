package io.kubeboot.operator.autoconfigure.observation;

import java.util.HashMap;
import java.util.Map;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.ReceiverContext;
import io.micrometer.observation.transport.SenderContext;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RecordingTracer}: it must behave as the OpenTelemetry bridge does where
 * the operator's integration tests depend on it.
 */
class RecordingTracerTests {

	private static final String REMOTE = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

	@Test
	void aReceiverContinuesAValidRemoteContextAndIgnoresItsParentObservation() {
		RecordingTracer tracer = new RecordingTracer();
		ObservationRegistry registry = registry(tracer);
		Observation outer = Observation.start("outer", registry);
		try (Observation.Scope scope = outer.openScope()) {
			Observation.start("remote", () -> receiver(REMOTE), registry).stop();
		}
		outer.stop();

		RecordingTracer.FinishedSpan remote = tracer.named("remote").get(0);
		assertThat(remote.traceId()).isEqualTo("0af7651916cd43dd8448eb211c80319c");
		assertThat(remote.parentId()).isEqualTo("b7ad6b7169203331");
	}

	@Test
	void aReceiverWithoutAValidContextIsAChildOfTheSpanCurrentOnTheThreadElseARoot() {
		RecordingTracer tracer = new RecordingTracer();
		ObservationRegistry registry = registry(tracer);
		Observation.start("alone", () -> receiver("00-" + "0".repeat(32) + "-b7ad6b7169203331-01"), registry).stop();
		Observation outer = Observation.start("outer", registry);
		try (Observation.Scope scope = outer.openScope()) {
			Observation.start("inside", () -> receiver(null), registry).stop();
		}
		outer.stop();

		assertThat(tracer.named("alone").get(0).parentId()).isNull();
		assertThat(tracer.named("inside").get(0).parentId()).isEqualTo(tracer.named("outer").get(0).spanId());
	}

	@Test
	void anUnsampledTracePropagatesItsFlagsAndIsNotExported() {
		RecordingTracer tracer = new RecordingTracer(false);
		ObservationRegistry registry = registry(tracer);
		Map<String, String> carrier = new HashMap<>();
		Observation root = Observation.start("root", registry);
		try (Observation.Scope scope = root.openScope()) {
			SenderContext<Map<String, String>> sender = new SenderContext<>(Map::put, Kind.CLIENT);
			sender.setCarrier(carrier);
			Observation.start("call", () -> sender, registry).stop();
		}
		root.stop();
		Observation.start("sampled remote", () -> receiver(REMOTE), registry).stop();

		assertThat(carrier.get("traceparent")).endsWith("-00");
		assertThat(tracer.spans).extracting(RecordingTracer.FinishedSpan::name).containsExactly("sampled remote");
	}

	private static ObservationRegistry registry(RecordingTracer tracer) {
		ObservationRegistry registry = ObservationRegistry.create();
		registry.observationConfig().observationHandler(tracer);
		return registry;
	}

	private static ReceiverContext<Map<String, String>> receiver(String traceParent) {
		ReceiverContext<Map<String, String>> receiver = new ReceiverContext<>(Map::get, Kind.CONSUMER);
		Map<String, String> carrier = new HashMap<>();
		if (traceParent != null) {
			carrier.put("traceparent", traceParent);
		}
		receiver.setCarrier(carrier);
		return receiver;
	}

}
