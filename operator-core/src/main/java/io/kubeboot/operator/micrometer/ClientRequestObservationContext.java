package io.kubeboot.operator.micrometer;

import java.util.HashMap;
import java.util.Map;

import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.SenderContext;
import org.jspecify.annotations.Nullable;

/**
 * The Micrometer context of the observation of one call of the manager's client to the
 * API server. A sender's context: a tracer writes the call's trace context into its
 * carrier when the observation starts, where the client finds the {@code traceparent} it
 * writes into the objects (see
 * {@code io.kubeboot.operator.tracing.TraceContextAnnotation}).
 */
public class ClientRequestObservationContext extends SenderContext<Map<String, String>> {

	private final String verb;

	private final String kind;

	private final @Nullable String subresource;

	private final @Nullable String namespace;

	private final @Nullable String name;

	private int statusCode;

	/**
	 * Creates the context of a call.
	 * @param verb {@code get}, {@code list}, {@code create}, {@code update},
	 * {@code patch}, {@code apply} or {@code delete}
	 * @param kind the kind, such as {@code ConfigMap}
	 * @param subresource {@code status}, or {@code null}
	 * @param namespace the namespace, or {@code null}
	 * @param name the object's name, or {@code null}
	 */
	public ClientRequestObservationContext(String verb, String kind, @Nullable String subresource,
			@Nullable String namespace, @Nullable String name) {
		super((carrier, key, value) -> carrier.put(key, value), Kind.CLIENT);
		this.verb = verb;
		this.kind = kind;
		this.subresource = subresource;
		this.namespace = namespace;
		this.name = name;
		setCarrier(new HashMap<>(4));
		setRemoteServiceName("kube-apiserver");
	}

	/**
	 * Returns what the call does.
	 * @return {@code get}, {@code list}, {@code create}, {@code update}, {@code patch},
	 * {@code apply} or {@code delete}
	 */
	public String getVerb() {
		return this.verb;
	}

	/**
	 * Returns the kind of the object.
	 * @return the kind, such as {@code ConfigMap}
	 */
	public String getObjectKind() {
		return this.kind;
	}

	/**
	 * Returns the subresource written.
	 * @return {@code status}, or {@code null}
	 */
	public @Nullable String getSubresource() {
		return this.subresource;
	}

	/**
	 * Returns the object's namespace.
	 * @return the namespace, {@code null} for a cluster-scoped object or all namespaces
	 */
	public @Nullable String getObjectNamespace() {
		return this.namespace;
	}

	/**
	 * Returns the object's name.
	 * @return the name, {@code null} for a list
	 */
	public @Nullable String getObjectName() {
		return this.name;
	}

	/**
	 * Returns the HTTP status code of the answer.
	 * @return the code, {@code 0} until answered or if no answer came
	 */
	public int getStatusCode() {
		return this.statusCode;
	}

	/**
	 * Sets the HTTP status code of the answer.
	 * @param statusCode the code
	 */
	public void setStatusCode(int statusCode) {
		this.statusCode = statusCode;
	}

}
