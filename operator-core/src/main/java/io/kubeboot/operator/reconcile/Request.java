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

	/**
	 * Creates a request.
	 * @throws IllegalArgumentException if the name is one no Kubernetes object can have
	 * ({@code .}, {@code ..}, or one with a {@code /} or {@code %}), or the namespace is
	 * not a lowercase RFC 1123 label: a name read from a custom resource's field is
	 * refused here rather than turned into a request for another resource
	 */
	public Request {
		requireValidName(name);
		if (namespace != null && namespace.isEmpty()) {
			namespace = null;
		}
		if (namespace != null) {
			requireValidNamespace(namespace);
		}
	}

	/**
	 * Checks that no Kubernetes object is refused the name for what it does to a REST
	 * path, as the API server checks every name: not empty, {@code .} or {@code ..}, and
	 * without {@code /} or {@code %}. Most kinds are stricter (lowercase DNS subdomains);
	 * the API server says so.
	 * @param name the name
	 * @throws IllegalArgumentException if it is not valid
	 */
	public static void requireValidName(String name) {
		Objects.requireNonNull(name, "name must not be null");
		if (name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0
				|| name.indexOf('%') >= 0) {
			throw new IllegalArgumentException("Invalid object name \"" + printable(name)
					+ "\": a Kubernetes name is not empty, \".\" or \"..\" and contains no \"/\" or \"%\"");
		}
	}

	/**
	 * Checks that a namespace is a lowercase RFC 1123 label, as every namespace is: at
	 * most 63 lowercase letters, digits and {@code -}, starting and ending with a letter
	 * or digit.
	 * @param namespace the namespace
	 * @throws IllegalArgumentException if it is not valid
	 */
	public static void requireValidNamespace(String namespace) {
		if (!isLabel(namespace)) {
			throw new IllegalArgumentException("Invalid namespace \"" + printable(namespace)
					+ "\": a namespace is at most 63 lowercase letters, digits and \"-\", starting and ending "
					+ "with a letter or digit");
		}
	}

	/**
	 * Whether a value is a lowercase RFC 1123 label, without a regular expression: every
	 * request an event maps to is checked, on the informer's event thread.
	 */
	private static boolean isLabel(String value) {
		int length = value.length();
		if (length == 0 || length > 63) {
			return false;
		}
		for (int i = 0; i < length; i++) {
			char c = value.charAt(i);
			boolean alphanumeric = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
			if (!alphanumeric && (c != '-' || i == 0 || i == length - 1)) {
				return false;
			}
		}
		return true;
	}

	/** Shows a rejected value in a message on one line and at a bounded length. */
	private static String printable(String value) {
		String shown = (value.length() > 100) ? value.substring(0, 100) + "..." : value;
		StringBuilder out = new StringBuilder(shown.length());
		shown.codePoints().forEach((c) -> {
			if (Character.isISOControl(c)) {
				out.append(String.format("\\u%04x", c));
			}
			else {
				out.appendCodePoint(c);
			}
		});
		return out.toString();
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
