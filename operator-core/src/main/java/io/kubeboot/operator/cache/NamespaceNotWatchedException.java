package io.kubeboot.operator.cache;

import java.util.Set;

/**
 * Thrown by a read of the {@link Cache} (and of the client, which reads from it) of a
 * namespace that no informer of the kind caches, while the manager watches a set of
 * namespaces ({@link WatchedNamespaces}): the counterpart of controller-runtime's
 * {@code unable to get: ns/name because of unknown namespace for the cache}. An empty
 * answer would say that the objects do not exist, and a reconciler would create what
 * exists or clean up what it no longer sees.
 * <p>
 * A reconcile under way when its namespace leaves the set gets it from its next read: the
 * controller then drops the request, as it drops every request of a namespace no longer
 * watched, without retrying it. A namespace outside the set is read with the client's
 * uncached reader, with RBAC there.
 */
public class NamespaceNotWatchedException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final String namespace;

	/**
	 * Creates an exception.
	 * @param kind the kind read
	 * @param namespace the namespace read
	 * @param watched the namespaces the manager watches
	 */
	public NamespaceNotWatchedException(Class<?> kind, String namespace, Set<String> watched) {
		super("Cannot read " + kind.getSimpleName() + " in namespace '" + namespace + "' from the cache: no informer "
				+ "of the kind caches that namespace (unknown namespace for the cache). The manager watches " + watched
				+ ": add the namespace to them (WatchedNamespaces, operator.namespaces), watch it by "
				+ "name, or read it with client.uncached()");
		this.namespace = namespace;
	}

	/**
	 * Returns the namespace read.
	 * @return the namespace
	 */
	public String namespace() {
		return this.namespace;
	}

}
