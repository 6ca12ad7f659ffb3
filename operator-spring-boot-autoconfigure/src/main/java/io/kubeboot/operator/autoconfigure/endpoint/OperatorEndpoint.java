package io.kubeboot.operator.autoconfigure.endpoint;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Stream;

import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.cache.InformerCost;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.cache.WatchedNamespaces;
import io.kubeboot.operator.cluster.Cluster;
import io.kubeboot.operator.cluster.ClusterStatus;
import io.kubeboot.operator.cluster.Fleet;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.leaderelection.LeaderElectionStatus;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.sharding.ShardRing;
import io.kubeboot.operator.sharding.ShardingConfig;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * {@code /actuator/operator}: the manager's state, its namespaces, its controllers (kind,
 * scope, queue depth, workers, assigned objects), its caches (scope, objects, estimated
 * heap, object budget), its runnables, the leader election, the shard rings and the
 * clusters of its fleet, read from memory without calling the API server.
 */
@Endpoint(id = "operator")
public class OperatorEndpoint {

	private final Manager manager;

	private final List<ShardRing> rings;

	private final @Nullable Fleet fleet;

	/**
	 * Creates the endpoint.
	 * @param manager the manager to describe
	 */
	public OperatorEndpoint(Manager manager) {
		this(manager, List.of());
	}

	/**
	 * Creates the endpoint of a manager whose replica joined shard rings.
	 * @param manager the manager to describe
	 * @param rings the rings joined (those of its sharded controllers are added)
	 */
	public OperatorEndpoint(Manager manager, List<ShardRing> rings) {
		this(manager, rings, null);
	}

	/**
	 * Creates the endpoint of a manager that runs a fleet of clusters.
	 * @param manager the manager to describe
	 * @param rings the rings joined (those of its sharded controllers are added)
	 * @param fleet the fleet, {@code null} for none
	 */
	public OperatorEndpoint(Manager manager, List<ShardRing> rings, @Nullable Fleet fleet) {
		this.manager = manager;
		this.rings = List.copyOf(rings);
		this.fleet = fleet;
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
		Set<ShardRing> joined = Collections.newSetFromMap(new IdentityHashMap<>());
		List<ShardRingDescriptor> sharding = Stream
			.concat(this.rings.stream(), Controller.of(this.manager).stream().map(ShardRing::of))
			.filter((ring) -> ring != null && joined.add(ring))
			.map(OperatorEndpoint::describe)
			.toList();
		WatchedNamespaces namespaces = this.manager.namespaces();
		NamespacesDescriptor watched = namespaces.watchesAll() ? null
				: new NamespacesDescriptor(List.copyOf(namespaces.current()), List.copyOf(namespaces.unsynced()));
		return new ManagerDescriptor(this.manager.state().name(), this.manager.isLeader(), watched, election, sharding,
				controllers, this.manager.runnableNamesExcept(Controller.class), caches, clusters());
	}

	private List<ClusterDescriptor> clusters() {
		Fleet current = this.fleet;
		if (current == null) {
			return List.of();
		}
		List<ClusterDescriptor> clusters = new ArrayList<>();
		for (ClusterStatus status : current.statuses()) {
			Optional<Cluster> running = (status.state() == ClusterStatus.State.RUNNING) ? current.cluster(status.name())
					: Optional.empty();
			clusters.add(new ClusterDescriptor(status.name(), status.state().name(), status.error(),
					status.since().toString(),
					running.map((cluster) -> cluster.controllers().stream().map(this::describe).toList())
						.orElse(List.of()),
					running
						.map((cluster) -> cluster.cache().informers().stream().map(OperatorEndpoint::describe).toList())
						.orElse(List.of())));
		}
		return clusters;
	}

	private ControllerDescriptor describe(Controller controller) {
		InformerKey primary = controller.reconciledKindKey();
		ShardRing ring = ShardRing.of(controller);
		return new ControllerDescriptor(controller.name(), primary.type().getSimpleName(), primary.namespace(),
				primary.labelSelector(), primary.fieldSelector(),
				controller.watches()
					.stream()
					.filter((key) -> !reconciledBy(primary, key))
					.map(InformerKey::toString)
					.toList(),
				(ring != null) ? ring.config().ringName() : null, controller.isRunning(), controller.queueDepth(),
				controller.waitingRequests(), controller.activeWorkers(), controller.liveWorkers(),
				controller.maxConcurrentReconciles(), controller.assignedObjects());
	}

	/**
	 * Whether an informer is the reconciled kind's, or one namespace's of it when it
	 * follows the manager's namespaces.
	 */
	private static boolean reconciledBy(InformerKey primary, InformerKey key) {
		return key.type() == primary.type() && key.metadataOnly() == primary.metadataOnly()
				&& Objects.equals(key.labelSelector(), primary.labelSelector())
				&& Objects.equals(key.fieldSelector(), primary.fieldSelector())
				&& (primary.namespace() == null || primary.namespace().equals(key.namespace()));
	}

	private static ShardRingDescriptor describe(ShardRing ring) {
		ShardingConfig config = ring.config();
		return new ShardRingDescriptor(config.ringName(), config.namespace() + "/" + config.leaseName(),
				config.identity(), ring.isMember(), ring.members(), config.virtualNodes(),
				config.mode().name().toLowerCase(Locale.ROOT), ring.lastError());
	}

	private static CacheDescriptor describe(Informer<?> informer) {
		InformerCost cost;
		try {
			cost = informer.cost();
		}
		catch (RuntimeException ex) {
			// one informer's figures never fail the description of the others
			cost = InformerCost.counted(informer.list().size());
		}
		OptionalLong bytes = cost.estimatedBytes();
		OptionalInt budget = cost.objectBudget();
		return new CacheDescriptor(informer.key().type().getSimpleName(), informer.key().namespace(),
				informer.key().labelSelector(), informer.key().fieldSelector(), informer.key().metadataOnly(),
				informer.hasSynced(), cost.objects(), bytes.isPresent() ? bytes.getAsLong() : null,
				budget.isPresent() ? budget.getAsInt() : null, cost.overBudget(), cost.budgetCrossings(),
				informer.lastError());
	}

	/**
	 * The manager.
	 *
	 * @param state the manager's state
	 * @param leading whether this replica runs the controllers now
	 * @param namespaces the namespaces the caches watch, {@code null} when they watch all
	 * @param leaderElection the leader election, {@code null} when it is off
	 * @param sharding the shard rings this replica joined, empty if none
	 * @param controllers the controllers
	 * @param runnables the names of the runnables that are not controllers
	 * @param caches the informer caches
	 * @param clusters the clusters of the fleet, empty without one
	 */
	public record ManagerDescriptor(String state, boolean leading, @Nullable NamespacesDescriptor namespaces,
			@Nullable LeaderElectionDescriptor leaderElection, List<ShardRingDescriptor> sharding,
			List<ControllerDescriptor> controllers, List<String> runnables, List<CacheDescriptor> caches,
			List<ClusterDescriptor> clusters) implements OperationResponseBody {
	}

	/**
	 * A cluster of the fleet, as its providers named it.
	 *
	 * @param name its name
	 * @param state {@code STARTING} (its caches start, or its last start failed and is
	 * retried), {@code RUNNING}, {@code REFUSED} (its provider cannot engage it) or
	 * {@code ELSEWHERE} (a fleet shared over a shard ring gives it to another replica)
	 * @param error why it is not running, {@code null} while it runs
	 * @param since when it entered its state (ISO-8601)
	 * @param controllers its controllers while it runs, each named
	 * {@code <controller>@<cluster>}
	 * @param caches its informer caches while it runs
	 */
	public record ClusterDescriptor(String name, String state, @Nullable String error, String since,
			List<ControllerDescriptor> controllers, List<CacheDescriptor> caches) {
	}

	/**
	 * The namespaces the caches watch, which may change while the manager runs.
	 *
	 * @param watched the namespaces, in alphabetical order
	 * @param unsynced those whose informers have not all synced: just added, or refused
	 * by the API server
	 */
	public record NamespacesDescriptor(List<String> watched, List<String> unsynced) {
	}

	/**
	 * One controller.
	 *
	 * @param name the name
	 * @param kind the reconciled model class's simple name
	 * @param namespace the watched namespace, {@code null} for the manager's namespaces
	 * @param labelSelector the label selector, {@code null} for all objects
	 * @param fieldSelector the field selector, {@code null} for all objects
	 * @param alsoWatches the other informers whose events reach it
	 * @param shardRing the ring it is sharded over, {@code null} if not sharded
	 * @param running whether its workers run (on the leader; on every replica if sharded)
	 * @param queueDepth requests waiting for a worker
	 * @param waitingRequests requests held outside the queue until the caches of their
	 * namespace, in the manager's set, synced
	 * @param activeWorkers workers inside a reconcile now
	 * @param workers live worker threads
	 * @param maxConcurrentReconciles configured workers
	 * @param assignedObjects the cached objects of its kind this replica reconciles now:
	 * all on the leader, none on a standby, its share of the ring if sharded
	 */
	public record ControllerDescriptor(String name, String kind, @Nullable String namespace,
			@Nullable String labelSelector, @Nullable String fieldSelector, List<String> alsoWatches,
			@Nullable String shardRing, boolean running, int queueDepth, int waitingRequests, int activeWorkers,
			int workers, int maxConcurrentReconciles, int assignedObjects) {
	}

	/**
	 * A shard ring this replica joined.
	 *
	 * @param ring the ring's name
	 * @param lease this replica's Lease, {@code namespace/name}
	 * @param identity this replica's identity
	 * @param member whether this replica holds its Lease within the renew deadline
	 * @param members the live members seen at the last read of the ring
	 * @param virtualNodes the tokens each member places on the hash ring
	 * @param mode how the objects are shared: {@code label} or {@code filter}
	 * @param lastError the last error about the ring's Leases, {@code null} if none
	 */
	public record ShardRingDescriptor(String ring, String lease, String identity, boolean member, List<String> members,
			int virtualNodes, String mode, @Nullable String lastError) {
	}

	/**
	 * One informer cache.
	 *
	 * @param kind the model class's simple name
	 * @param namespace the namespace, {@code null} for all
	 * @param labelSelector the label selector, {@code null} for all objects
	 * @param fieldSelector the field selector, {@code null} for all objects
	 * @param metadataOnly whether it holds the objects' metadata only
	 * @param synced whether the first list has been stored
	 * @param objects how many objects it holds
	 * @param estimatedBytes the estimated heap its objects take (see
	 * {@link InformerCost}), as {@code operator_informer_estimated_heap_bytes};
	 * {@code null} before the first estimate
	 * @param objectBudget the most objects it should hold, {@code null} for no budget
	 * @param overBudget whether it holds more objects than its budget now
	 * @param budgetCrossings how often it went over its budget
	 * @param lastError the last list or watch error, {@code null} if none
	 */
	public record CacheDescriptor(String kind, @Nullable String namespace, @Nullable String labelSelector,
			@Nullable String fieldSelector, boolean metadataOnly, boolean synced, int objects,
			@Nullable Long estimatedBytes, @Nullable Integer objectBudget, boolean overBudget, long budgetCrossings,
			@Nullable String lastError) {
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
