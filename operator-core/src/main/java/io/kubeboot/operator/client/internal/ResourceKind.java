package io.kubeboot.operator.client.internal;

import java.lang.reflect.Type;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

import io.kubeboot.operator.reconcile.Request;
import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

/**
 * A Kubernetes resource as the API server serves it, resolved from a model class.
 *
 * @param <T> the model type
 * @param type the model class
 * @param listType the type a list of the kind is read as: a list class, or a
 * parameterized {@code CustomResourceList}
 * @param group the API group, empty for the core group
 * @param version the API version
 * @param kind the kind
 * @param plural the plural resource name used in URLs
 * @param namespaced whether objects of the kind live in namespaces
 */
public record ResourceKind<T extends KubernetesObject>(Class<T> type, Type listType, String group, String version,
		String kind, String plural, boolean namespaced) {

	/**
	 * Returns the {@code apiVersion} of the kind's objects, {@code group/version} or just
	 * {@code version} for the core group.
	 * @return the apiVersion
	 */
	public String apiVersion() {
		return this.group.isEmpty() ? this.version : this.group + "/" + this.version;
	}

	/**
	 * Returns the REST path of the kind's collection: {@code /api/v1} for the core group,
	 * else {@code /apis/<group>/<version>}; then {@code namespaces/<ns>/} for one
	 * namespace, and the plural.
	 * @param namespace the namespace, or {@code null} for all namespaces (and for a
	 * cluster-scoped kind)
	 * @return the path below the server's base path
	 */
	public String collectionPath(@Nullable String namespace) {
		String base = this.group.isEmpty() ? "/api/" + this.version : "/apis/" + this.group + "/" + this.version;
		if (namespace == null) {
			return base + "/" + this.plural;
		}
		checked(() -> Request.requireValidNamespace(namespace));
		return base + "/namespaces/" + segment(namespace) + "/" + this.plural;
	}

	/**
	 * Returns the REST path of one object, or of its status subresource. A name that no
	 * Kubernetes object can have ({@code .}, {@code ..}, or one with a {@code /} or
	 * {@code %}) is refused before any request is made, and every segment is escaped: a
	 * name read from a custom resource's field must not address another resource.
	 * @param namespace the object's namespace, {@code null} for a cluster-scoped kind
	 * @param name the object's name
	 * @param status whether to address the status subresource
	 * @return the path below the server's base path
	 * @throws IllegalArgumentException if the name or namespace is not valid
	 */
	public String objectPath(@Nullable String namespace, String name, boolean status) {
		checked(() -> Request.requireValidName(name));
		return collectionPath(namespace) + "/" + segment(name) + (status ? "/status" : "");
	}

	private void checked(java.lang.Runnable validation) {
		try {
			validation.run();
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException(ex.getMessage() + " (" + this + "), refused before any request", ex);
		}
	}

	private static String segment(String value) {
		return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
	}

	@Override
	public String toString() {
		return this.kind + " (" + (this.group.isEmpty() ? "core" : this.group) + "/" + this.version + ")";
	}

}
