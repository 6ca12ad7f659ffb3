package io.kubeboot.operator.autoconfigure.endpoint;

import java.time.Duration;
import java.util.List;

import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.leaderelection.LeaderElectionStatus;
import io.kubeboot.operator.manager.Manager;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * {@code /actuator/operator}: the manager's state, its controllers (kind, scope, queue
 * depth, workers), its caches, its runnables and the leader election, read from memory
 * without calling the API server.
 */
@Endpoint(id = "operator")
public class OperatorEndpoint {

	private final Manager manager;

	/**
	 * Creates the endpoint.
	 * @param manager the manager to describe
	 */
	public OperatorEndpoint(Manager manager) {
		this.manager = manager;
	}

	/**
	 * Describes the manager.
	 * @return the description
	 */
	@ReadOperation
	public ManagerDescriptor operator() {
		List<ControllerDescriptor> controllers = Controller.of(this.manager).stream().map(this::describe).toList();
		List<CacheDescriptor> caches = this.manager.informers().stream().map(OperatorEndpoint::describe).toList();
		LeaderElectionStatus elector = this.manager.leaderElection();
		LeaderElectionDescriptor election = null;
		if (elector != null) {
			Duration since = elector.sinceLastRenewal();
			election = new LeaderElectionDescriptor(elector.config().namespace() + "/" + elector.config().name(),
					elector.config().identity(), elector.isLeader(), elector.observedLeader(),
					(since != null) ? since.toMillis() : null, elector.lastError());
		}
		return new ManagerDescriptor(this.manager.state().name(), this.manager.isLeader(), election, controllers,
				this.manager.runnableNamesExcept(Controller.class), caches);
	}

	private ControllerDescriptor describe(Controller controller) {
		InformerKey primary = controller.watches().get(0);
		return new ControllerDescriptor(controller.name(), primary.type().getSimpleName(), primary.namespace(),
				primary.labelSelector(), controller.watches().stream().skip(1).map(InformerKey::toString).toList(),
				controller.isRunning(), controller.queueDepth(), controller.activeWorkers(), controller.liveWorkers(),
				controller.maxConcurrentReconciles());
	}

	private static CacheDescriptor describe(Informer<?> informer) {
		return new CacheDescriptor(informer.key().type().getSimpleName(), informer.key().namespace(),
				informer.key().labelSelector(), informer.key().metadataOnly(), informer.hasSynced(),
				informer.list().size(), informer.lastError());
	}

	/**
	 * The manager.
	 *
	 * @param state the manager's state
	 * @param leading whether this replica runs the controllers now
	 * @param leaderElection the leader election, {@code null} when it is off
	 * @param controllers the controllers
	 * @param runnables the names of the runnables that are not controllers
	 * @param caches the informer caches
	 */
	public record ManagerDescriptor(String state, boolean leading, @Nullable LeaderElectionDescriptor leaderElection,
			List<ControllerDescriptor> controllers, List<String> runnables,
			List<CacheDescriptor> caches) implements OperationResponseBody {
	}

	/**
	 * One controller.
	 *
	 * @param name the name
	 * @param kind the reconciled model class's simple name
	 * @param namespace the watched namespace, {@code null} for all
	 * @param labelSelector the label selector, {@code null} for all objects
	 * @param alsoWatches the other informers whose events reach it
	 * @param running whether its workers run (only on the leader)
	 * @param queueDepth requests waiting for a worker
	 * @param activeWorkers workers inside a reconcile now
	 * @param workers live worker threads
	 * @param maxConcurrentReconciles configured workers
	 */
	public record ControllerDescriptor(String name, String kind, @Nullable String namespace,
			@Nullable String labelSelector, List<String> alsoWatches, boolean running, int queueDepth,
			int activeWorkers, int workers, int maxConcurrentReconciles) {
	}

	/**
	 * One informer cache.
	 *
	 * @param kind the model class's simple name
	 * @param namespace the namespace, {@code null} for all
	 * @param labelSelector the label selector, {@code null} for all objects
	 * @param metadataOnly whether it holds the objects' metadata only
	 * @param synced whether the first list has been stored
	 * @param objects how many objects it holds
	 * @param lastError the last list or watch error, {@code null} if none
	 */
	public record CacheDescriptor(String kind, @Nullable String namespace, @Nullable String labelSelector,
			boolean metadataOnly, boolean synced, int objects, @Nullable String lastError) {
	}

	/**
	 * The leader election.
	 *
	 * @param lease the Lease, {@code namespace/name}
	 * @param identity this replica's identity
	 * @param leading whether this replica holds the Lease
	 * @param leader the holder seen last
	 * @param millisSinceLastRenewal how long ago this replica last renewed, {@code null}
	 * if never
	 * @param lastError the last error talking about the Lease, {@code null} if none
	 */
	public record LeaderElectionDescriptor(String lease, String identity, boolean leading, @Nullable String leader,
			@Nullable Long millisSinceLastRenewal, @Nullable String lastError) {
	}

}
