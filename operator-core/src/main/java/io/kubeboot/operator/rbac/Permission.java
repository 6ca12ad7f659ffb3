package io.kubeboot.operator.rbac;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

/**
 * One thing a part of an operator needs RBAC to allow, the counterpart of a kubebuilder
 * {@code +kubebuilder:rbac} marker: verbs on a kind (a model class) or on a resource
 * named by its API group, optionally on a subresource ({@code status}), on some objects
 * only ({@code resourceNames}), with the reason a person reads next to the rule.
 * <p>
 * A permission is placed where the part that needs it works, unless it names a namespace
 * or asks for all namespaces: a controller's permission goes to the controller's
 * namespace, any other part's to every namespace the manager's caches hold objects in
 * ({@link io.kubeboot.operator.rbac.PolicyRules} turns what is still unplaced into a rule
 * for all namespaces).
 *
 * <pre class="code">
 * Permission.of(V1ConfigMap.class, "create", "update").because("keeps each bucket's ConfigMap")
 * Permission.of(StorageBucket.class, "patch").subresource("status")
 * Permission.of("apps", "deployments", "get").inNamespace("shop")
 * </pre>
 *
 * Immutable; every method returns a new permission.
 */
public final class Permission {

	private static final Pattern VERB = Pattern.compile("[a-z]+|\\*");

	private static final Pattern ROLE = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

	private final @Nullable Class<? extends KubernetesObject> kind;

	private final String group;

	private final String resource;

	private final String subresource;

	private final List<String> verbs;

	private final List<String> resourceNames;

	private final Placement placement;

	private final @Nullable String namespace;

	private final String role;

	private final String reason;

	private final boolean grantedPerNamespace;

	private Permission(@Nullable Class<? extends KubernetesObject> kind, String group, String resource,
			String subresource, List<String> verbs, List<String> resourceNames, Placement placement,
			@Nullable String namespace, String role, String reason) {
		this(kind, group, resource, subresource, verbs, resourceNames, placement, namespace, role, reason, false);
	}

	private Permission(@Nullable Class<? extends KubernetesObject> kind, String group, String resource,
			String subresource, List<String> verbs, List<String> resourceNames, Placement placement,
			@Nullable String namespace, String role, String reason, boolean grantedPerNamespace) {
		this.kind = kind;
		this.group = group;
		this.resource = resource;
		this.subresource = subresource;
		this.verbs = verbs;
		this.resourceNames = resourceNames;
		this.placement = placement;
		this.namespace = namespace;
		this.role = role;
		this.reason = reason;
		this.grantedPerNamespace = grantedPerNamespace;
	}

	/**
	 * Returns a permission for verbs on the objects of a kind, whose API group and
	 * resource name are found from the model class.
	 * @param kind a client-java model class ({@code V1ConfigMap}) or a class annotated
	 * with {@link io.kubeboot.operator.model.KubernetesKind}
	 * @param verbs the verbs, such as {@code get}, {@code create}, {@code patch}
	 * @return the permission
	 * @throws IllegalArgumentException if no verb is given or one is not a verb
	 */
	public static Permission of(Class<? extends KubernetesObject> kind, String... verbs) {
		Objects.requireNonNull(kind, "kind must not be null");
		return new Permission(kind, "", "", "", verbs(verbs), List.of(), Placement.WHERE_IT_WORKS, null, "", "");
	}

	/**
	 * Returns a permission for verbs on a resource named by its API group, for kinds
	 * without a model class. A resource written with a slash ({@code pods/log}) names a
	 * subresource.
	 * @param group the API group, empty for the core group
	 * @param resource the plural resource name, such as {@code deployments}
	 * @param verbs the verbs
	 * @return the permission
	 * @throws IllegalArgumentException if the resource is blank, no verb is given or one
	 * is not a verb
	 */
	public static Permission of(String group, String resource, String... verbs) {
		Objects.requireNonNull(group, "group must not be null");
		if (resource == null || resource.isBlank()) {
			throw new IllegalArgumentException("resource must not be blank");
		}
		String plural = resource.trim();
		String subresource = "";
		int slash = plural.indexOf('/');
		if (slash >= 0) {
			subresource = plural.substring(slash + 1);
			plural = plural.substring(0, slash);
		}
		return new Permission(null, group.trim(), plural, subresource, verbs(verbs), List.of(),
				Placement.WHERE_IT_WORKS, null, "", "");
	}

	/**
	 * Returns this permission on a subresource, such as {@code status} for a status write
	 * through {@code client.status()}.
	 * @param subresource the subresource, empty for the resource itself
	 * @return the new permission
	 */
	public Permission subresource(String subresource) {
		Objects.requireNonNull(subresource, "subresource must not be null");
		return new Permission(this.kind, this.group, this.resource, subresource.trim(), this.verbs, this.resourceNames,
				this.placement, this.namespace, this.role, this.reason, this.grantedPerNamespace);
	}

	/**
	 * Returns this permission on the named objects only. RBAC cannot restrict
	 * {@code create}, {@code list} or {@code deletecollection} to names.
	 * @param names the object names
	 * @return the new permission
	 */
	public Permission resourceNames(String... names) {
		for (String name : names) {
			if (name == null || name.isBlank()) {
				throw new IllegalArgumentException("resource names must not be blank");
			}
		}
		List<String> list = Arrays.stream(names).map(String::trim).toList();
		return new Permission(this.kind, this.group, this.resource, this.subresource, this.verbs, list, this.placement,
				this.namespace, this.role, this.reason, this.grantedPerNamespace);
	}

	/**
	 * Returns this permission in one namespace (for a cluster-scoped kind, the namespace
	 * is ignored).
	 * @param namespace the namespace
	 * @return the new permission
	 */
	public Permission inNamespace(String namespace) {
		if (namespace == null || namespace.isBlank()) {
			throw new IllegalArgumentException("namespace must not be blank");
		}
		return new Permission(this.kind, this.group, this.resource, this.subresource, this.verbs, this.resourceNames,
				Placement.NAMESPACE, namespace.trim(), this.role, this.reason, this.grantedPerNamespace);
	}

	/**
	 * Returns this permission in all namespaces (and for a cluster-scoped kind).
	 * @return the new permission
	 */
	public Permission inAllNamespaces() {
		return new Permission(this.kind, this.group, this.resource, this.subresource, this.verbs, this.resourceNames,
				Placement.ALL_NAMESPACES, null, this.role, this.reason, this.grantedPerNamespace);
	}

	/**
	 * Returns this permission in a role of its own: its rules are rendered in a Role (or
	 * ClusterRole) named after the operator with this suffix, as leader election's are in
	 * {@code <name>-leader-election}.
	 * @param role the suffix, a lowercase name; empty for the operator's own roles
	 * @return the new permission
	 */
	public Permission inRole(String role) {
		Objects.requireNonNull(role, "role must not be null");
		if (!role.isEmpty() && !ROLE.matcher(role).matches()) {
			throw new IllegalArgumentException("role '" + role + "' must be a lowercase name");
		}
		return new Permission(this.kind, this.group, this.resource, this.subresource, this.verbs, this.resourceNames,
				this.placement, this.namespace, role, this.reason, this.grantedPerNamespace);
	}

	/**
	 * Returns this permission with the reason it is needed, rendered as a comment above
	 * its rule and named when RBAC denies it.
	 * @param reason the reason, one line
	 * @return the new permission
	 */
	public Permission because(String reason) {
		Objects.requireNonNull(reason, "reason must not be null");
		return new Permission(this.kind, this.group, this.resource, this.subresource, this.verbs, this.resourceNames,
				this.placement, this.namespace, this.role, reason.strip().replaceAll("\\s+", " "),
				this.grantedPerNamespace);
	}

	/**
	 * Returns this permission granted namespace by namespace: needed wherever the part
	 * that needs it works, but granted only in the namespaces where an administrator
	 * binds its role with a RoleBinding, the part coping with {@code 403 Forbidden}
	 * elsewhere. Where it would go to all namespaces, its rules go to a ClusterRole of
	 * their own that {@link RbacManifest} does not bind cluster-wide, and the start-up
	 * self-check does not ask for them; placed in one namespace, it is an ordinary Role
	 * there. Such a permission needs a {@link #inRole(String) role of its own}: writes
	 * that RBAC cannot narrow by name, such as {@code create} of ConfigMaps, granted this
	 * way never reach a namespace nobody chose, such as {@code kube-system}.
	 * @return the new permission
	 */
	public Permission grantedPerNamespace() {
		return new Permission(this.kind, this.group, this.resource, this.subresource, this.verbs, this.resourceNames,
				this.placement, this.namespace, this.role, this.reason, true);
	}

	/**
	 * Returns the model class the permission is about.
	 * @return the class, or {@code null} when it names a group and resource
	 */
	public @Nullable Class<? extends KubernetesObject> kind() {
		return this.kind;
	}

	/**
	 * Returns the API group, when the permission names one instead of a kind.
	 * @return the group, empty for the core group or when a kind is named
	 */
	public String group() {
		return this.group;
	}

	/**
	 * Returns the plural resource name, when the permission names one instead of a kind.
	 * @return the resource, empty when a kind is named
	 */
	public String resource() {
		return this.resource;
	}

	/**
	 * Returns the subresource.
	 * @return the subresource, empty for none
	 */
	public String subresource() {
		return this.subresource;
	}

	/**
	 * Returns the verbs.
	 * @return the verbs, in the order given
	 */
	public List<String> verbs() {
		return this.verbs;
	}

	/**
	 * Returns the names of the objects the permission is restricted to.
	 * @return the names, empty for all objects
	 */
	public List<String> resourceNames() {
		return this.resourceNames;
	}

	/**
	 * Returns the namespace the permission is placed in.
	 * @return the namespace, or {@code null} unless placed in one namespace
	 */
	public @Nullable String namespace() {
		return this.namespace;
	}

	/**
	 * Whether the permission is for all namespaces.
	 * @return {@code true} if placed in all namespaces
	 */
	public boolean isInAllNamespaces() {
		return this.placement == Placement.ALL_NAMESPACES;
	}

	/**
	 * Whether the permission is not placed yet: it goes where the part that needs it
	 * works.
	 * @return {@code true} if neither a namespace nor all namespaces were chosen
	 */
	public boolean isPlaced() {
		return this.placement != Placement.WHERE_IT_WORKS;
	}

	/**
	 * Returns the role suffix.
	 * @return the suffix, empty for the operator's own roles
	 * @see #inRole(String)
	 */
	public String role() {
		return this.role;
	}

	/**
	 * Returns the reason.
	 * @return the reason, empty if none was given
	 */
	public String reason() {
		return this.reason;
	}

	/**
	 * Whether the permission is granted namespace by namespace.
	 * @return {@code true} if it is
	 * @see #grantedPerNamespace()
	 */
	public boolean isGrantedPerNamespace() {
		return this.grantedPerNamespace;
	}

	/**
	 * Whether this permission grants the verb on the objects of a kind in a namespace,
	 * for every object.
	 * @param kind the model class
	 * @param namespace the namespace, {@code null} for all namespaces
	 * @param verb the verb
	 * @return {@code true} if it does
	 */
	public boolean grants(Class<? extends KubernetesObject> kind, @Nullable String namespace, String verb) {
		return this.kind == kind && this.subresource.isEmpty() && this.resourceNames.isEmpty()
				&& (this.verbs.contains(verb) || this.verbs.contains("*"))
				&& ((isInAllNamespaces() && !this.grantedPerNamespace)
						|| (namespace != null && namespace.equals(this.namespace)));
	}

	private static List<String> verbs(String... verbs) {
		if (verbs == null || verbs.length == 0) {
			throw new IllegalArgumentException("a permission needs at least one verb");
		}
		List<String> list = Arrays.stream(verbs).map((verb) -> verb.trim().toLowerCase(Locale.ROOT)).toList();
		for (String verb : list) {
			if (!VERB.matcher(verb).matches()) {
				throw new IllegalArgumentException("'" + verb + "' is not a verb: use get, list, watch, create, "
						+ "update, patch, delete or deletecollection");
			}
		}
		return list;
	}

	@Override
	public boolean equals(@Nullable Object other) {
		if (this == other) {
			return true;
		}
		if (!(other instanceof Permission that)) {
			return false;
		}
		return this.kind == that.kind && this.group.equals(that.group) && this.resource.equals(that.resource)
				&& this.subresource.equals(that.subresource) && this.verbs.equals(that.verbs)
				&& this.resourceNames.equals(that.resourceNames) && this.placement == that.placement
				&& Objects.equals(this.namespace, that.namespace) && this.role.equals(that.role)
				&& this.reason.equals(that.reason) && this.grantedPerNamespace == that.grantedPerNamespace;
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.kind, this.group, this.resource, this.subresource, this.verbs, this.resourceNames,
				this.placement, this.namespace, this.role, this.reason, this.grantedPerNamespace);
	}

	@Override
	public String toString() {
		String what = (this.kind != null) ? this.kind.getSimpleName()
				: (this.group.isEmpty() ? this.resource : this.resource + "." + this.group);
		String where = switch (this.placement) {
			case NAMESPACE -> " in namespace '" + this.namespace + "'";
			case ALL_NAMESPACES -> this.grantedPerNamespace ? " in the namespaces that grant it" : " in all namespaces";
			case WHERE_IT_WORKS -> "";
		};
		return String.join(", ", this.verbs) + " " + what + (this.subresource.isEmpty() ? "" : "/" + this.subresource)
				+ (this.resourceNames.isEmpty() ? "" : " named " + this.resourceNames) + where
				+ (this.reason.isEmpty() ? "" : " (" + this.reason + ")");
	}

	private enum Placement {

		WHERE_IT_WORKS, NAMESPACE, ALL_NAMESPACES

	}

}
