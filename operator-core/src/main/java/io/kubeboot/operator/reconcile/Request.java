package io.kubeboot.operator.reconcile;

import java.util.Objects;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;

/**
 * Identifies one object to reconcile: its namespace and name. A request carries no other
 * state on purpose: the reconciler reads the current object from the cache, so a request
 * that waited in the queue is never stale.
 * <p>
 * Requests are values: two requests for the same object are equal, and the work queue
 * uses that to coalesce them.
 *
 * @param namespace the namespace of the object, or {@code null} for a cluster-scoped
 * object
 * @param name the name of the object
 */
public record Request(@Nullable String namespace, String name) {

	public Request {
		Objects.requireNonNull(name, "name must not be null");
		if (name.isEmpty()) {
			throw new IllegalArgumentException("name must not be empty");
		}
		if (namespace != null && namespace.isEmpty()) {
			namespace = null;
		}
	}

	/**
	 * Returns a request for a namespaced object.
	 * @param namespace the namespace
	 * @param name the name
	 * @return the request
	 */
	public static Request of(@Nullable String namespace, String name) {
		return new Request(namespace, name);
	}

	/**
	 * Returns a request for a cluster-scoped object.
	 * @param name the name
	 * @return the request
	 */
	public static Request clusterScoped(String name) {
		return new Request(null, name);
	}

	/**
	 * Returns the request for the given object.
	 * @param object an object with metadata
	 * @return the request naming the object
	 * @throws IllegalArgumentException if the object has no metadata or no name
	 */
	public static Request of(KubernetesObject object) {
		V1ObjectMeta metadata = object.getMetadata();
		if (metadata == null || metadata.getName() == null) {
			throw new IllegalArgumentException("object of kind " + object.getKind() + " has no metadata.name");
		}
		return new Request(metadata.getNamespace(), metadata.getName());
	}

	/**
	 * Whether the request names a cluster-scoped object.
	 * @return {@code true} when there is no namespace
	 */
	public boolean isClusterScoped() {
		return this.namespace == null;
	}

	/**
	 * Returns {@code namespace/name}, or {@code name} for a cluster-scoped object, the
	 * form {@code kubectl} and controller-runtime use.
	 */
	@Override
	public String toString() {
		return (this.namespace != null) ? this.namespace + "/" + this.name : this.name;
	}

}
