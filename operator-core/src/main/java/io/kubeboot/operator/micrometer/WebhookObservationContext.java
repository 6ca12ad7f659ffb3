package io.kubeboot.operator.micrometer;

import java.util.function.Function;

import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.ReceiverContext;
import org.jspecify.annotations.Nullable;

/**
 * The Micrometer context of the observation of one request to the webhook server. A
 * receiver's context: its carrier reads the request's headers, so that a tracer continues
 * the trace the API server sends ({@code traceparent}, when its own tracing is on).
 */
public class WebhookObservationContext extends ReceiverContext<Function<String, @Nullable String>> {

	private final String webhook;

	private final String path;

	private @Nullable String kind;

	private @Nullable String operation;

	private @Nullable Boolean allowed;

	private int statusCode;

	/**
	 * Creates the context of a request.
	 * @param webhook {@code admission} or {@code conversion}
	 * @param path the webhook's path
	 * @param headers reads a header of the request by name
	 */
	public WebhookObservationContext(String webhook, String path, Function<String, @Nullable String> headers) {
		super((carrier, key) -> carrier.apply(key), Kind.SERVER);
		this.webhook = webhook;
		this.path = path;
		setCarrier(headers);
		setRemoteServiceName("kube-apiserver");
	}

	/**
	 * Returns the kind of webhook.
	 * @return {@code admission} or {@code conversion}
	 */
	public String getWebhook() {
		return this.webhook;
	}

	/**
	 * Returns the webhook's path.
	 * @return the path
	 */
	public String getPath() {
		return this.path;
	}

	/**
	 * Returns the kind of the object reviewed or converted.
	 * @return the kind, {@code null} until the review was read
	 */
	public @Nullable String getObjectKind() {
		return this.kind;
	}

	/**
	 * Returns the operation reviewed.
	 * @return {@code CREATE}, {@code UPDATE}, {@code DELETE}, {@code CONNECT} or
	 * {@code CONVERT}; {@code null} until the review was read
	 */
	public @Nullable String getOperation() {
		return this.operation;
	}

	/**
	 * Returns whether the request was allowed (a conversion: whether it succeeded).
	 * @return the answer, {@code null} if none was given
	 */
	public @Nullable Boolean getAllowed() {
		return this.allowed;
	}

	/**
	 * Returns the HTTP status code of the answer.
	 * @return the code
	 */
	public int getStatusCode() {
		return this.statusCode;
	}

	/**
	 * Records the review's answer.
	 * @param kind the kind of the object
	 * @param operation the operation
	 * @param allowed whether it was allowed
	 */
	public void answered(String kind, String operation, boolean allowed) {
		this.kind = kind;
		this.operation = operation;
		this.allowed = allowed;
	}

	/**
	 * Sets the HTTP status code of the answer.
	 * @param statusCode the code
	 */
	public void setStatusCode(int statusCode) {
		this.statusCode = statusCode;
	}

}
