package io.kubeboot.operator.manager;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

import io.kubeboot.operator.cache.internal.CacheAccessCheck;
import io.kubeboot.operator.cache.internal.InformerCache;
import io.kubeboot.operator.client.KindNotServedException;
import io.kubeboot.operator.client.internal.ResourceKind;
import io.kubeboot.operator.client.internal.StatusMessages;
import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LeaseAccessDeniedException;
import io.kubeboot.operator.model.KubernetesKind;
import io.kubeboot.operator.rbac.Permission;
import io.kubeboot.operator.rbac.PolicyRule;
import io.kubeboot.operator.rbac.internal.AccessCheck;
import io.kubeboot.operator.rbac.internal.AccessCheck.Review;
import io.kubeboot.operator.rbac.internal.DeclaredNames;
import io.kubeboot.operator.rbac.internal.KindNames;
import io.kubeboot.operator.rbac.internal.RuleResolver;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The manager's start-up RBAC self-check: asks the API server about every rule of
 * {@link Manager#requiredPermissions()} at once, then fails start-up if RBAC denies what
 * leader election needs on its Lease ({@code get}, {@code create}, {@code update}), hands
 * what it denies the caches ({@code list}, {@code watch}) to the cache, which reports it
 * and fails at the sync timeout if it is still so, and logs a warning naming every other
 * rule it denies, with its reasons. Rules {@link Permission#grantedPerNamespace() granted
 * per namespace} are only listed, at info level: they are granted where an administrator
 * chose, not everywhere. Kinds are named as the cache resolved them through discovery,
 * else without the API server (client-java's models), else through discovery.
 */
final class StartupAccessCheck {

	private static final Logger logger = LoggerFactory.getLogger(StartupAccessCheck.class);

	private static final List<String> LEASE_VERBS = List.of("get", "create", "update");

	private final ApiClient client;

	private final InformerCache cache;

	private final @Nullable LeaderElectionConfig election;

	private final Duration timeout;

	private final Map<Class<?>, KindNames.Name> names = new HashMap<>();

	StartupAccessCheck(ApiClient client, InformerCache cache, @Nullable LeaderElectionConfig election,
			Duration timeout) {
		this.client = client;
		this.cache = cache;
		this.election = election;
		this.timeout = timeout;
	}

	/**
	 * Checks the permissions.
	 * @param permissions what the manager needs
	 * @return what RBAC denies the caches, or {@code null} if the check could not be made
	 * @throws LeaseAccessDeniedException if RBAC denies leader election a verb it needs
	 * on its Lease
	 * @throws InterruptedException if interrupted while waiting for the answers
	 */
	CacheAccessCheck.@Nullable Verdicts check(List<Permission> permissions) throws InterruptedException {
		List<PolicyRule> rules = rules(permissions);
		// granted namespace by namespace: a cluster-wide review would be denied by
		// design, and which namespaces grant them is the administrator's choice
		List<String> perNamespace = rules.stream()
			.filter(PolicyRule::grantedPerNamespace)
			.map(StartupAccessCheck::describe)
			.toList();
		if (!perNamespace.isEmpty()) {
			logger.info(
					"Rules granted per namespace, not checked at start-up (a namespace without their "
							+ "RoleBinding answers 403 to the requests that use them): {}",
					String.join("; ", perNamespace));
			rules = rules.stream().filter((rule) -> !rule.grantedPerNamespace()).toList();
		}
		AccessCheck.Decisions decisions = AccessCheck.review(this.client, rules, this.timeout);
		if (decisions == null) {
			return null;
		}
		if (this.election != null) {
			List<String> denied = LEASE_VERBS.stream()
				.filter((verb) -> decisions.isDenied(leaseReview(this.election, verb)))
				.toList();
			if (!denied.isEmpty()) {
				throw new LeaseAccessDeniedException(this.election.namespace(), this.election.name(), denied);
			}
		}
		CacheAccessCheck.Verdicts cacheVerdicts = (scope, verb) -> decisions
			.isDenied(new Review(verb, scope.kind().group(), scope.kind().plural(), "", scope.namespace(), null));
		List<String> others = denied(rules, decisions);
		if (!others.isEmpty()) {
			logger.warn("RBAC denies this operator's identity rules it needs, so the requests that use them will "
					+ "fail with 403 Forbidden: {}. Grant them to its service account (a Role and RoleBinding in "
					+ "each namespace named, a ClusterRole and ClusterRoleBinding for all namespaces)",
					String.join("; ", others));
		}
		return cacheVerdicts;
	}

	/**
	 * Starts {@link #check} on a thread of its own, so that the caches list meanwhile.
	 * @param permissions what the manager needs
	 * @return the running check
	 */
	Running checkBeside(List<Permission> permissions) {
		FutureTask<CacheAccessCheck.@Nullable Verdicts> task = new FutureTask<>(() -> check(permissions));
		Thread thread = new Thread(task, "operator-rbac-startup-check");
		thread.setDaemon(true);
		thread.start();
		return new Running(task);
	}

	/**
	 * A check started by {@link #checkBeside}.
	 */
	static final class Running {

		private final FutureTask<CacheAccessCheck.@Nullable Verdicts> task;

		private Running(FutureTask<CacheAccessCheck.@Nullable Verdicts> task) {
			this.task = task;
		}

		/**
		 * Waits for the check's verdicts.
		 * @return what RBAC denies the caches, or {@code null} if the check could not be
		 * made
		 * @throws LeaseAccessDeniedException if RBAC denies leader election a verb it
		 * needs on its Lease, as {@link #check} does
		 * @throws InterruptedException if interrupted while waiting (the check stops)
		 */
		CacheAccessCheck.@Nullable Verdicts await() throws InterruptedException {
			try {
				return this.task.get();
			}
			catch (InterruptedException ex) {
				this.task.cancel(true);
				throw ex;
			}
			catch (ExecutionException ex) {
				Throwable cause = ex.getCause();
				if (cause instanceof RuntimeException runtime) {
					throw runtime;
				}
				if (cause instanceof Error error) {
					throw error;
				}
				throw new IllegalStateException("The start-up access check failed", cause);
			}
		}

	}

	/**
	 * Checks the permissions placed in namespaces added to the manager's set while it
	 * runs, as the start-up check does, and logs a warning naming every rule RBAC denies
	 * there (but the caches' lists and watches, which their informers report). Rules
	 * granted per namespace are left out, as at start-up.
	 * @param permissions what the manager needs now
	 * @param namespaces the namespaces added
	 * @throws InterruptedException if interrupted while waiting for the answers
	 */
	void checkAdded(List<Permission> permissions, Set<String> namespaces) throws InterruptedException {
		List<Permission> placed = permissions.stream()
			.filter((permission) -> permission.namespace() != null && namespaces.contains(permission.namespace()))
			.toList();
		List<PolicyRule> rules = rules(placed).stream().filter((rule) -> !rule.grantedPerNamespace()).toList();
		AccessCheck.Decisions decisions = AccessCheck.review(this.client, rules, this.timeout);
		if (decisions == null) {
			return;
		}
		List<String> denied = denied(rules, decisions);
		if (!denied.isEmpty()) {
			logger.warn("RBAC denies this operator's identity rules it needs in namespaces added to the set, so the "
					+ "requests that use them will fail with 403 Forbidden: {}. Grant them to its service account "
					+ "(a Role and RoleBinding in each namespace named): namespaces={}", String.join("; ", denied),
					namespaces);
		}
	}

	/**
	 * Returns the rules of the permissions whose kinds can be named.
	 */
	private List<PolicyRule> rules(List<Permission> permissions) {
		List<Permission> nameable = new ArrayList<>();
		for (Permission permission : permissions) {
			Class<? extends KubernetesObject> kind = permission.kind();
			if (kind == null || nameable(kind)) {
				nameable.add(permission);
			}
		}
		try {
			return RuleResolver.resolve(nameable, this::name);
		}
		catch (ApiException ex) {
			throw new IllegalStateException("named kinds asked the API server again", ex);
		}
	}

	/**
	 * Describes the rules RBAC denies, save the verbs the Lease's or the caches' own
	 * messages report.
	 */
	private List<String> denied(List<PolicyRule> rules, AccessCheck.Decisions decisions) {
		List<CacheAccessCheck.Scope> scopes = this.cache.accessScopes();
		List<String> denied = new ArrayList<>();
		for (PolicyRule rule : rules) {
			List<String> verbs = decisions.deniedVerbs(rule)
				.stream()
				.filter((verb) -> !reportedElsewhere(rule, verb, scopes))
				.toList();
			if (!verbs.isEmpty()) {
				denied.add(rule.describe(verbs)
						+ (rule.reasons().isEmpty() ? "" : " (" + String.join("; ", rule.reasons()) + ")"));
			}
		}
		return denied;
	}

	private static String describe(PolicyRule rule) {
		return rule.describe(rule.verbs())
				+ (rule.reasons().isEmpty() ? "" : " (" + String.join("; ", rule.reasons()) + ")");
	}

	/**
	 * Whether a denied verb of a rule is reported by the Lease's or the cache's own
	 * messages.
	 */
	private boolean reportedElsewhere(PolicyRule rule, String verb, List<CacheAccessCheck.Scope> scopes) {
		if (!rule.subresource().isEmpty() || !rule.resourceNames().isEmpty()
				|| !(verb.equals("list") || verb.equals("watch"))) {
			return false;
		}
		return scopes.stream()
			.anyMatch((scope) -> scope.kind().group().equals(rule.apiGroup())
					&& scope.kind().plural().equals(rule.plural())
					&& Objects.equals(scope.namespace(), rule.namespace()));
	}

	private static Review leaseReview(LeaderElectionConfig election, String verb) {
		return new Review(verb, Manager.LEASE_GROUP, Manager.LEASES, "", election.namespace(),
				verb.equals("create") ? null : election.name());
	}

	private boolean nameable(Class<? extends KubernetesObject> kind) {
		try {
			name(kind);
			return true;
		}
		catch (ApiException | RuntimeException ex) {
			String error = (ex instanceof ApiException api) ? StatusMessages.describe(api) : ex.getMessage();
			logger.warn("Cannot name a kind for the RBAC check, leaving its rules out: kind={} error=\"{}\"",
					kind.getName(), error);
			return false;
		}
	}

	private KindNames.Name name(Class<? extends KubernetesObject> kind) throws ApiException {
		KindNames.Name name = this.names.get(kind);
		if (name == null) {
			name = resolve(kind);
			this.names.put(kind, name);
		}
		return name;
	}

	private KindNames.Name resolve(Class<? extends KubernetesObject> kind) throws ApiException {
		ResourceKind<?> resolved = this.cache.resolvedKind(kind);
		if (resolved == null && kind.getAnnotation(KubernetesKind.class) == null) {
			try {
				// a client-java model: named without the API server, which would ask
				// every group of its version
				return DeclaredNames.INSTANCE.resolve(kind);
			}
			catch (IllegalArgumentException ex) {
				// a kind this library does not know: discovery
			}
		}
		if (resolved == null) {
			try {
				resolved = this.cache.resolve(kind);
			}
			catch (KindNotServedException ex) {
				return DeclaredNames.INSTANCE.resolve(kind);
			}
		}
		return new KindNames.Name(resolved.group(), resolved.plural(), resolved.namespaced());
	}

}
