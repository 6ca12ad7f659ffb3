package io.kubeboot.operator.leaderelection;

import java.util.List;

/**
 * Thrown when the manager starts with leader election and RBAC denies this replica's
 * identity a verb the election needs on its Lease: {@code get}, {@code create} or
 * {@code update} on {@code leases} (API group {@code coordination.k8s.io}) in the Lease's
 * namespace. The message names the denied verbs, the namespace and the Lease.
 */
public class LeaseAccessDeniedException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final String namespace;

	private final List<String> deniedVerbs;

	/**
	 * Creates an exception.
	 * @param namespace the namespace of the Lease
	 * @param name the name of the Lease
	 * @param deniedVerbs the verbs RBAC denies
	 */
	public LeaseAccessDeniedException(String namespace, String name, List<String> deniedVerbs) {
		super("Leader election needs to " + String.join(", ", deniedVerbs)
				+ " leases (coordination.k8s.io) in namespace '" + namespace + "' for its Lease '" + name
				+ "', which RBAC denies to this operator's identity");
		this.namespace = namespace;
		this.deniedVerbs = List.copyOf(deniedVerbs);
	}

	/**
	 * Returns the namespace of the Lease.
	 * @return the namespace
	 */
	public String namespace() {
		return this.namespace;
	}

	/**
	 * Returns the verbs RBAC denies, in the order {@code get}, {@code create},
	 * {@code update}.
	 * @return the denied verbs
	 */
	public List<String> deniedVerbs() {
		return this.deniedVerbs;
	}

}
