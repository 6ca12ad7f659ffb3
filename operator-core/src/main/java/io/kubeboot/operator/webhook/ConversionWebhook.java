package io.kubeboot.operator.webhook;

import java.util.Objects;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers the conversions of custom resources on a {@link WebhookServer}, the
 * counterpart of controller-runtime's
 * {@code ctrl.NewWebhookManagedBy(mgr).For(&Bucket{})} for a kind whose versions
 * implement {@code conversion.Convertible}:
 *
 * <pre class="code">
 * ConversionWebhook.register(server, Conversion.hub(StorageBucket.class).spokes(StorageBucketV1alpha1.class));
 * </pre>
 *
 * Every kind converts on one path, kubebuilder's {@value #PATH}: it answers the API
 * server's {@code apiextensions.k8s.io/v1} {@code ConversionReview} by the
 * {@code apiVersion} and {@code kind} of the objects. Point the CustomResourceDefinition
 * at it:
 *
 * <pre class="code">
 * spec:
 *   conversion:
 *     strategy: Webhook
 *     webhook:
 *       conversionReviewVersions: ["v1"]
 *       clientConfig:
 *         service: {namespace: storage-system, name: storage-operator-webhook, path: /convert, port: 443}
 *         caBundle: ...
 * </pre>
 */
public final class ConversionWebhook {

	/** The path conversions are served on, kubebuilder's. */
	public static final String PATH = "/convert";

	private static final Logger logger = LoggerFactory.getLogger(ConversionWebhook.class);

	private ConversionWebhook() {
	}

	/**
	 * Registers the conversions of a kind on the server, on {@value #PATH} (shared by
	 * every kind). Conversions can be added while the server runs.
	 * @param server the server
	 * @param conversion the kind's conversions
	 * @return the path they are served on, {@value #PATH}
	 * @throws IllegalArgumentException if the kind has conversions on the server already,
	 * or another webhook is registered at {@value #PATH}
	 */
	public static String register(WebhookServer server, Conversion<?> conversion) {
		Objects.requireNonNull(server, "server must not be null");
		Objects.requireNonNull(conversion, "conversion must not be null");
		ConversionHandler handler = server.shared(PATH, ConversionHandler.class,
				() -> new ConversionHandler(() -> server.metrics().panicked(PATH)));
		handler.add(conversion);
		logger.debug("Conversion registered: path={} conversion={}", PATH, conversion);
		return PATH;
	}

}
