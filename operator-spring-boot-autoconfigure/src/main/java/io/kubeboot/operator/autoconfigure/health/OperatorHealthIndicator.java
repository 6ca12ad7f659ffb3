package io.kubeboot.operator.autoconfigure.health;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.healthz.CheckResult;
import io.kubeboot.operator.leaderelection.LeaderElectionStatus;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerHealth;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code operator} health contributor: UP while every liveness and readiness check of
 * the manager passes, with details a person running the operator wants to see: the
 * manager's state, every check, each controller's queue and workers, each cache, and the
 * leader election.
 */
class OperatorHealthIndicator implements HealthIndicator {

	private final Manager manager;

	private final ManagerHealth health;

	OperatorHealthIndicator(Manager manager, ManagerHealth health) {
		this.manager = manager;
		this.health = health;
	}

	@Override
	public Health health() {
		List<CheckResult> liveness = this.health.liveness();
		List<CheckResult> readiness = this.health.readiness();
		Health.Builder builder = (ManagerHealth.allPassed(liveness) && ManagerHealth.allPassed(readiness)) ? Health.up()
				: Health.down();
		builder.withDetail("state", this.manager.state().name());
		builder.withDetail("liveness", checks(liveness));
		builder.withDetail("readiness", checks(readiness));
		Map<String, Object> controllers = new LinkedHashMap<>();
		for (Controller controller : Controller.of(this.manager)) {
			Map<String, Object> details = new LinkedHashMap<>();
			details.put("running", controller.isRunning());
			details.put("queueDepth", controller.queueDepth());
			details.put("activeWorkers", controller.activeWorkers());
			details.put("workers", controller.liveWorkers());
			details.put("maxConcurrentReconciles", controller.maxConcurrentReconciles());
			details.put("cacheSynced",
					this.manager.informers()
						.stream()
						.filter((informer) -> controller.watches().contains(informer.key()))
						.allMatch(Informer::hasSynced));
			controllers.put(controller.name(), details);
		}
		builder.withDetail("controllers", controllers);
		LeaderElectionStatus elector = this.manager.leaderElection();
		if (elector != null) {
			Map<String, Object> election = new LinkedHashMap<>();
			election.put("identity", elector.config().identity());
			election.put("leading", elector.isLeader());
			election.put("leader", String.valueOf(elector.observedLeader()));
			election.put("lease", elector.config().namespace() + "/" + elector.config().name());
			builder.withDetail("leaderElection", election);
		}
		return builder.build();
	}

	private static Map<String, String> checks(List<CheckResult> checks) {
		Map<String, String> result = new LinkedHashMap<>();
		checks.forEach((check) -> result.put(check.name(), check.ok() ? "ok" : check.reason()));
		return result;
	}

}
