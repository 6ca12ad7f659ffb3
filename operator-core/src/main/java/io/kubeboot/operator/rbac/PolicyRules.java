package io.kubeboot.operator.rbac;

import java.util.List;
import java.util.Objects;

import io.kubeboot.operator.client.internal.KindResolver;
import io.kubeboot.operator.client.internal.ResourceKind;
import io.kubeboot.operator.rbac.internal.DeclaredNames;
import io.kubeboot.operator.rbac.internal.KindNames;
import io.kubeboot.operator.rbac.internal.RuleResolver;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;

/**
 * Turns the {@link Permission permissions} an operator needs (a manager's
 * {@code requiredPermissions()}) into the rules of its Roles and ClusterRoles, the
 * counterpart of what kubebuilder's {@code controller-gen rbac} makes from markers:
 *
 * <pre class="code">
 * List&lt;PolicyRule&gt; rules = PolicyRules.of(manager.requiredPermissions());
 * String yaml = RbacManifest.builder("shop-operator").render(rules);
 * </pre>
 *
 * Each kind becomes its API group and plural resource name; a cluster-scoped kind's rule,
 * and any permission for all namespaces, goes to a ClusterRole, others to a Role in their
 * namespace; permissions that differ only in their verbs and reasons become one rule. The
 * rules come sorted (role, then the ClusterRole before the namespaces, then group,
 * resource and names), so the same operator always gives the same YAML.
 */
public final class PolicyRules {

	private PolicyRules() {
	}

	/**
	 * Makes the rules without the API server, as a build does: a
	 * {@link io.kubeboot.operator.model.KubernetesKind} class is named by its group and
	 * its declared plural (else the plural Kubernetes tools make from its kind:
	 * {@code StorageBucket} becomes {@code storagebuckets}) and taken as namespaced; a
	 * client-java model class by the group and scope its kind has in Kubernetes.
	 * @param permissions the permissions
	 * @return the rules
	 * @throws IllegalArgumentException if a kind cannot be named without the API server
	 * (a client-java model of a kind this library does not know); use
	 * {@link #of(List, ApiClient)} or name its resource with
	 * {@link Permission#of(String, String, String...)}
	 */
	public static List<PolicyRule> of(List<Permission> permissions) {
		try {
			return RuleResolver.resolve(permissions, DeclaredNames.INSTANCE);
		}
		catch (ApiException ex) {
			throw new IllegalStateException("Naming without the API server asked the API server", ex);
		}
	}

	/**
	 * Makes the rules with the names the API server's discovery gives every kind, as the
	 * manager's start-up self-check does.
	 * @param permissions the permissions
	 * @param client a client of the API server
	 * @return the rules
	 * @throws ApiException if discovery fails
	 * @throws io.kubeboot.operator.client.KindNotServedException if a kind is not served
	 */
	public static List<PolicyRule> of(List<Permission> permissions, ApiClient client) throws ApiException {
		Objects.requireNonNull(client, "client must not be null");
		KindResolver resolver = new KindResolver(client);
		KindNames names = (kind) -> {
			ResourceKind<?> resolved = resolver.resolve(kind);
			return new KindNames.Name(resolved.group(), resolved.plural(), resolved.namespaced());
		};
		return RuleResolver.resolve(permissions, names);
	}

}
