package io.kubeboot.operator.micrometer;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names the observation of a client call {@code operator.client.request}, its span
 * {@code <verb> <kind>} (such as {@code patch StorageBucket/status}), with the
 * low-cardinality keys {@code verb}, {@code kind}, {@code subresource} ({@code none} or
 * {@code status}) and {@code status.code} (the HTTP status, {@code 0} without an answer),
 * and the high-cardinality keys {@code namespace} and {@code name}. Replace it with a
 * {@code GlobalObservationConvention} of {@link ClientRequestObservationContext}.
 */
public class DefaultClientRequestObservationConvention
		implements ObservationConvention<ClientRequestObservationContext> {

	/** The instance {@link ObservationTracing} uses. */
	public static final DefaultClientRequestObservationConvention INSTANCE = new DefaultClientRequestObservationConvention();

	@Override
	public String getName() {
		return "operator.client.request";
	}

	@Override
	public String getContextualName(ClientRequestObservationContext context) {
		return context.getVerb() + " " + context.getObjectKind()
				+ ((context.getSubresource() != null) ? "/" + context.getSubresource() : "");
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(ClientRequestObservationContext context) {
		return KeyValues.of("verb", context.getVerb(), "kind", context.getObjectKind(), "subresource",
				(context.getSubresource() != null) ? context.getSubresource() : "none", "status.code",
				Integer.toString(context.getStatusCode()));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(ClientRequestObservationContext context) {
		return KeyValues.of("namespace", (context.getObjectNamespace() != null) ? context.getObjectNamespace() : "",
				"name", (context.getObjectName() != null) ? context.getObjectName() : "");
	}

	@Override
	public boolean supportsContext(Observation.Context context) {
		return context instanceof ClientRequestObservationContext;
	}

}
