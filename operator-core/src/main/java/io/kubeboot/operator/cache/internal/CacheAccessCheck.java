package io.kubeboot.operator.cache.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kubeboot.operator.client.internal.AccessReviews;
import io.kubeboot.operator.client.internal.ResourceKind;
import io.kubeboot.operator.client.internal.StatusMessages;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ResourceAttributes;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this operator's identity may list and watch every resource its caches hold, in
 * the namespaces they hold it ({@code SelfSubjectAccessReview}), so that missing RBAC is
 * reported with the verbs, resources and namespaces instead of only as the informers'
 * {@code 403}s. The manager's start-up check asks for the first answer, together with
 * everything else the operator needs; while RBAC denies something, the cache asks again
 * here. If the reviews themselves cannot be made, the check reports nothing: the
 * informers still report a {@code 403}.
 */
public final class CacheAccessCheck {

	private static final Logger logger = LoggerFactory.getLogger(CacheAccessCheck.class);

	private static final List<String> VERBS = List.of("list", "watch");

	private CacheAccessCheck() {
	}

	/**
	 * Checks the access.
	 * @param client the client whose identity the informers use
	 * @param scopes the resources and namespaces the caches hold
	 * @return what RBAC denies, for a person to read, or {@code null} if nothing is
	 * denied or the check could not be made
	 */
	static @Nullable String check(ApiClient client, List<Scope> scopes) {
		Map<Scope, List<String>> denied = new LinkedHashMap<>();
		for (Scope scope : scopes.stream().distinct().toList()) {
			List<String> verbs = deniedVerbs(client, scope);
			if (verbs == null) {
				return null;
			}
			denied.put(scope, verbs);
		}
		return describe(scopes, (scope, verb) -> denied.get(scope).contains(verb));
	}

	/**
	 * Describes what RBAC denies the caches.
	 * @param scopes the resources and namespaces the caches hold
	 * @param verdicts whether RBAC denies a verb on one of them
	 * @return what RBAC denies, for a person to read, or {@code null} if nothing
	 */
	static @Nullable String describe(List<Scope> scopes, Verdicts verdicts) {
		Map<Scope, List<String>> denied = new LinkedHashMap<>();
		for (Scope scope : scopes.stream().distinct().toList()) {
			List<String> verbs = VERBS.stream().filter((verb) -> verdicts.isDenied(scope, verb)).toList();
			if (!verbs.isEmpty()) {
				denied.put(scope, verbs);
			}
		}
		if (denied.isEmpty()) {
			return null;
		}
		List<String> parts = new ArrayList<>();
		denied.forEach((scope, verbs) -> parts.add(String.join(", ", verbs) + " " + scope.describe()));
		return "RBAC denies this operator's identity what its caches need: " + String.join("; ", parts)
				+ ". Grant get, list and watch on them to its service account (a Role and RoleBinding in each "
				+ "namespace, a ClusterRole and ClusterRoleBinding for all namespaces or cluster-scoped kinds)";
	}

	/**
	 * Asks which of the verbs the caches need RBAC denies on one resource and namespace.
	 * @param client the client whose identity the informers use
	 * @param scope the resource and namespace
	 * @return the denied verbs ({@code list}, {@code watch}), empty if none, or
	 * {@code null} if the check could not be made
	 */
	static @Nullable List<String> deniedVerbs(ApiClient client, Scope scope) {
		List<String> denied = new ArrayList<>();
		for (String verb : VERBS) {
			V1ResourceAttributes attributes = new V1ResourceAttributes().verb(verb)
				.group(scope.kind().group())
				.resource(scope.kind().plural())
				.namespace(scope.namespace());
			try {
				if (!AccessReviews.isAllowed(client, attributes)) {
					denied.add(verb);
				}
			}
			catch (ApiException | RuntimeException ex) {
				logger.warn("Cannot check the caches' RBAC, continuing: verb={} resource={} error=\"{}\"", verb,
						scope.describe(), StatusMessages.describe(ex));
				return null;
			}
		}
		return denied;
	}

	/**
	 * Whether RBAC denies the caches a verb.
	 */
	@FunctionalInterface
	public interface Verdicts {

		/**
		 * Whether RBAC denies a verb on a resource in a namespace.
		 * @param scope the resource and namespace
		 * @param verb {@code list} or {@code watch}
		 * @return {@code true} if denied
		 */
		boolean isDenied(Scope scope, String verb);

	}

	/**
	 * One resource in one namespace, or in all.
	 *
	 * @param kind the resolved kind
	 * @param namespace the namespace, {@code null} for all namespaces or a cluster-scoped
	 * kind
	 */
	public record Scope(ResourceKind<?> kind, @Nullable String namespace) {

		String describe() {
			if (!kind().namespaced()) {
				return resource() + " (cluster-scoped)";
			}
			return resource() + ((namespace() != null) ? " in namespace '" + namespace() + "'" : " in all namespaces");
		}

		/**
		 * Returns the resource as RBAC rules name it: the plural, then the group unless
		 * it is the core group ({@code storagebuckets.storage.kubeboot.io}).
		 */
		String resource() {
			return kind().group().isEmpty() ? kind().plural() : kind().plural() + "." + kind().group();
		}

	}

}
