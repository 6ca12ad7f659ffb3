package io.kubeboot.operator.manager;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.cache.internal.InformerCache;
import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.healthz.Check;
import io.kubeboot.operator.healthz.CheckResult;
import io.kubeboot.operator.leaderelection.LeaderElectionStatus;
import org.jspecify.annotations.Nullable;

/**
 * Computes the liveness and readiness checks of a manager. Cheap and non-blocking: every
 * check reads in-memory state, so probes can call it as often as they like.
 * <p>
 * Liveness (restart me) fails when the manager has failed; when leader-only work still
 * runs although the Lease has not been renewed for longer than the renew deadline (a
 * stale term that did not stop, the one case where two replicas could act as leader); or
 * when a check added to the manager fails, such as the {@code workers} check of each
 * controller (a running controller lost worker threads).
 * <p>
 * Readiness (serve me) fails until the manager has started and every cache has synced
 * ({@code caches}: those it started with; an informer registered later, such as a
 * leader-only runnable's once elected, does not take a serving replica out while it
 * syncs), while an informer's list or watch has been failing for longer than the
 * configured bound ({@code watches}), and when a readiness check added to the manager
 * fails. A standby replica is ready: leadership is not part of readiness.
 * <p>
 * A manager that watches a set of namespaces counts the informers that follow it, one per
 * namespace, as those of its start: under {@code caches} while a namespace of the set has
 * not been listed, a namespace added while it runs included (for the informers of the set
 * it started with, while they are asked for: one given back lists nothing), and under
 * {@code watches} as any other. They can be left out of readiness
 * ({@code namespacesInReadiness}, {@code operator.health.namespaces-in-readiness}): an
 * operator that serves admission or conversion webhooks then keeps its replicas in their
 * Service while a namespace is added, or while RBAC refuses one, which every replica
 * would otherwise report at once. Their namespaces' requests wait for their caches either
 * way.
 */
public final class ManagerHealth {

	/**
	 * Whether readiness covers the informers of the manager's namespace set by default:
	 * it waits for every namespace of the set to be cached.
	 */
	public static final boolean DEFAULT_NAMESPACES_IN_READINESS = true;

	private final Manager manager;

	private final Duration watchFailureThreshold;

	private final boolean namespacesInReadiness;

	/**
	 * Creates the checks of a manager, with its
	 * {@linkplain Manager#watchFailureThreshold() watch failure threshold}.
	 * @param manager the manager
	 */
	public ManagerHealth(Manager manager) {
		this(manager, manager.watchFailureThreshold());
	}

	/**
	 * Creates the checks of a manager.
	 * @param manager the manager
	 * @param watchFailureThreshold how long an informer's list or watch may fail before
	 * readiness goes down, not negative
	 * @throws InvalidConfigException if the threshold is negative
	 */
	public ManagerHealth(Manager manager, Duration watchFailureThreshold) {
		this(manager, watchFailureThreshold, DEFAULT_NAMESPACES_IN_READINESS);
	}

	/**
	 * Creates the checks of a manager.
	 * @param manager the manager
	 * @param watchFailureThreshold how long an informer's list or watch may fail before
	 * readiness goes down, not negative
	 * @param namespacesInReadiness whether readiness covers the informers of the
	 * namespaces of a manager that watches a set of them (see the class description)
	 * @throws InvalidConfigException if the threshold is negative
	 */
	public ManagerHealth(Manager manager, Duration watchFailureThreshold, boolean namespacesInReadiness) {
		this.manager = Objects.requireNonNull(manager, "manager must not be null");
		this.watchFailureThreshold = ManagerConfig.requireWatchFailureThreshold(watchFailureThreshold);
		this.namespacesInReadiness = namespacesInReadiness;
	}

	/**
	 * Returns the liveness checks.
	 * @return the checks, in a fixed order
	 */
	public List<CheckResult> liveness() {
		List<CheckResult> checks = new ArrayList<>();
		checks.add(managerNotFailed());
		LeaderElectionStatus elector = this.manager.leaderElection();
		if (elector != null) {
			checks.add(leaseRenewed(elector));
		}
		addOwnChecks(checks, Check.Probe.LIVENESS);
		return checks;
	}

	/**
	 * Returns the readiness checks.
	 * @return the checks, in a fixed order
	 */
	public List<CheckResult> readiness() {
		List<CheckResult> checks = new ArrayList<>();
		ManagerState state = this.manager.state();
		checks.add((state == ManagerState.RUNNING) ? CheckResult.passed("manager")
				: CheckResult.failed("manager", "manager is " + state));
		// the informers of the namespace set: those that count, and those left out
		Set<InformerKey> members = new HashSet<>();
		Set<InformerKey> countedMembers = new HashSet<>();
		for (InformerCache.SetInformer informer : this.manager.namespaceSetInformers()) {
			boolean counted = informer.askedFor() && this.manager.namespaceSyncCountsForReadiness(informer.key());
			for (Informer<?> member : informer.members()) {
				members.add(member.key());
				if (counted) {
					countedMembers.add(member.key());
				}
			}
		}
		List<Informer<?>> informers = this.manager.informers()
			.stream()
			.filter((informer) -> this.namespacesInReadiness || !members.contains(informer.key()))
			.toList();
		List<String> unsynced = informers.stream()
			.filter((informer) -> !informer.hasSynced() && (members.contains(informer.key())
					? countedMembers.contains(informer.key()) : this.manager.syncCountsForReadiness(informer)))
			.map((informer) -> informer.key().toString())
			.toList();
		checks.add(unsynced.isEmpty() ? CheckResult.passed("caches")
				: CheckResult.failed("caches", "not synced: " + unsynced));
		List<String> failing = new ArrayList<>();
		// an API server stopping gracefully refuses connections while the watches it
		// holds open stay silent: no watch fails, the probe does
		String unanswered = this.manager.apiServerUnanswered(this.watchFailureThreshold);
		if (unanswered != null) {
			failing.add(unanswered);
		}
		for (Informer<?> informer : informers) {
			String failure = watchFailure(informer);
			if (failure != null) {
				failing.add(failure);
			}
		}
		checks.add(failing.isEmpty() ? CheckResult.passed("watches")
				: CheckResult.failed("watches", String.join("; ", failing)));
		addOwnChecks(checks, Check.Probe.READINESS);
		return checks;
	}

	/**
	 * Describes what fails with an informer's watch: the watchdog restarting it, a
	 * silence past the threshold, or a list or watch failing for longer than the watch
	 * failure threshold.
	 * @return the failure, {@code null} if none
	 */
	private @Nullable String watchFailure(Informer<?> informer) {
		Duration restarting = informer.restartingFor();
		if (restarting != null) {
			String error = informer.lastError();
			return informer.key() + " restarting after a silent watch for " + restarting.toMillis() + "ms"
					+ ((error != null) ? ": " + error : "");
		}
		Duration silent = informer.silentFor();
		if (informer.hasSynced() && silent.compareTo(this.manager.watchSilenceThreshold()) > 0) {
			return informer.key() + " silent for " + silent.toMillis() + "ms";
		}
		Duration failingFor = informer.failingFor();
		if (failingFor != null && failingFor.compareTo(this.watchFailureThreshold) > 0) {
			String error = informer.lastError();
			return informer.key() + " without a watch for " + failingFor.toMillis() + "ms"
					+ ((error != null) ? ": " + error : "");
		}
		return null;
	}

	/**
	 * Adds the checks added to the manager for a probe, one outcome per name: checks of
	 * the same name (one per controller, say) pass together or fail with every reason.
	 */
	private void addOwnChecks(List<CheckResult> checks, Check.Probe probe) {
		Map<String, List<String>> failures = new LinkedHashMap<>();
		for (Check check : this.manager.checks()) {
			if (check.probe() == probe) {
				CheckResult outcome = check.run();
				List<String> reasons = failures.computeIfAbsent(check.name(), (name) -> new ArrayList<>());
				if (!outcome.ok()) {
					reasons.add(outcome.reason());
				}
			}
		}
		failures.forEach((name, reasons) -> checks
			.add(reasons.isEmpty() ? CheckResult.passed(name) : CheckResult.failed(name, String.join("; ", reasons))));
	}

	/**
	 * Whether every check passed.
	 * @param checks the checks
	 * @return {@code true} if none failed
	 */
	public static boolean allPassed(List<CheckResult> checks) {
		return checks.stream().allMatch(CheckResult::ok);
	}

	/**
	 * Describes the failed checks in one line.
	 * @param checks the checks
	 * @return the failures, empty if none
	 */
	public static String failures(List<CheckResult> checks) {
		return checks.stream()
			.filter((check) -> !check.ok())
			.map((check) -> check.name() + ": " + check.reason())
			.collect(Collectors.joining("; "));
	}

	private CheckResult managerNotFailed() {
		if (this.manager.state() != ManagerState.FAILED) {
			return CheckResult.passed("manager");
		}
		Throwable failure = this.manager.failure();
		return CheckResult.failed("manager", "manager failed" + ((failure != null) ? ": " + failure : ""));
	}

	private CheckResult leaseRenewed(LeaderElectionStatus elector) {
		@Nullable Duration since = elector.sinceLastRenewal();
		Duration deadline = elector.config().renewDeadline();
		if (this.manager.isLeaderWorkRunning() && since != null && since.compareTo(deadline) > 0) {
			return CheckResult.failed("leader-election", "leader-only work runs but the lease was last renewed "
					+ since.toMillis() + "ms ago, beyond the renew deadline of " + deadline);
		}
		return CheckResult.passed("leader-election");
	}

}
