package io.kubeboot.operator.micrometer;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names the observation of a webhook request {@code operator.webhook.request}, its span
 * {@code <webhook> <kind>} (such as {@code admission StorageBucket}), with the
 * low-cardinality keys {@code webhook} ({@code admission} or {@code conversion}),
 * {@code kind} (the webhook's own kind, or for a conversion a kind it converts, else
 * {@code other}), {@code operation} ({@code CREATE}, {@code UPDATE}, {@code DELETE},
 * {@code CONNECT}, {@code CONVERT}, else {@code other}), {@code allowed} ({@code true},
 * {@code false}, or {@code none} if the request was not answered with a review) and
 * {@code status.code}: none is read as sent, so a request cannot make new series, and the
 * high-cardinality key {@code path}. Replace it with a
 * {@code GlobalObservationConvention} of {@link WebhookObservationContext}.
 */
public class DefaultWebhookObservationConvention implements ObservationConvention<WebhookObservationContext> {

	/** The instance {@link ObservationTracing} uses. */
	public static final DefaultWebhookObservationConvention INSTANCE = new DefaultWebhookObservationConvention();

	@Override
	public String getName() {
		return "operator.webhook.request";
	}

	@Override
	public String getContextualName(WebhookObservationContext context) {
		return context.getWebhook() + ((context.getObjectKind() != null) ? " " + context.getObjectKind() : "");
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(WebhookObservationContext context) {
		return KeyValues.of("webhook", context.getWebhook(), "kind",
				(context.getObjectKind() != null) ? context.getObjectKind() : "unknown", "operation",
				(context.getOperation() != null) ? context.getOperation() : "unknown", "allowed",
				(context.getAllowed() != null) ? context.getAllowed().toString() : "none", "status.code",
				Integer.toString(context.getStatusCode()));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(WebhookObservationContext context) {
		return KeyValues.of("path", context.getPath());
	}

	@Override
	public boolean supportsContext(Observation.Context context) {
		return context instanceof WebhookObservationContext;
	}

}
