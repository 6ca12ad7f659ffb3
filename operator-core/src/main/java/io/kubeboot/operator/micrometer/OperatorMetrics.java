package io.kubeboot.operator.micrometer;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.ToDoubleFunction;

import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.cluster.Cluster;
import io.kubeboot.operator.cluster.ClusterStatus;
import io.kubeboot.operator.cluster.Fleet;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.client.internal.KindResolver;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.leaderelection.LeaderElectionStatus;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerBuilder;
import io.kubeboot.operator.metrics.ControllerMetrics;
import io.kubeboot.operator.metrics.WebhookMetrics;
import io.kubeboot.operator.sharding.ShardRing;
import io.kubeboot.operator.webhook.CertificateMetrics;
import io.kubeboot.operator.workqueue.WorkQueueMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import org.jspecify.annotations.Nullable;

/**
 * Records a {@link Manager}'s controllers, work queues and leader election in a
 * Micrometer {@link MeterRegistry}, under the names and labels controller-runtime
 * exports: {@code controller_runtime_*{controller}}, {@code workqueue_*{name,controller}}
 * and {@code leader_election_master_status{name}} once rendered by the Prometheus
 * registry, plus this project's informer series {@code operator_informer_restarts_total},
 * {@code operator_informer_silence_seconds},
 * {@code operator_informer_undecodable_objects_total}, {@code operator_informer_objects},
 * {@code operator_informer_estimated_heap_bytes} and, for an informer with an object
 * budget, {@code operator_informer_object_budget} and
 * {@code operator_informer_object_budget_exceeded_total} (labels {@code cluster}, empty
 * but for the informers of a fleet's clusters, {@code kind}, {@code namespace},
 * {@code selector}, {@code field_selector}, {@code metadata_only}),
 * {@code operator_controller_assigned_objects{controller}} and, for the shard rings bound
 * with {@link #bindTo(ShardRing)}, {@code operator_shard_ring_members{ring}} and
 * {@code operator_shard_ring_member{ring}}. No series has a label per reconciled object.
 * <p>
 * Use one instance per manager:
 *
 * <pre class="code">
 * OperatorMetrics metrics = new OperatorMetrics(registry);
 * Manager manager = metrics.applyTo(Manager.builder(client)).build();
 * metrics.bindTo(manager);
 * </pre>
 *
 * {@link #applyTo} installs the {@link ControllerMetrics} and {@link WorkQueueMetrics}
 * factories; {@link #bindTo} gives the gauges that read the manager
 * ({@code controller_runtime_max_concurrent_reconciles},
 * {@code workqueue_unfinished_work_seconds},
 * {@code workqueue_longest_running_processor_seconds}, which read {@code 0} until bound)
 * their source and registers {@code leader_election_master_status} when the manager
 * elects a leader.
 * <p>
 * A controller's {@code controller_runtime_*} series are registered, at zero, when the
 * controller is created; its {@code workqueue_*} series when its queue is first created
 * (when the controller first starts). Thread-safe.
 */
public final class OperatorMetrics {

	private final MeterRegistry registry;

	private final Map<String, MicrometerControllerMetrics> controllers = new ConcurrentHashMap<>();

	private final Map<String, MicrometerWorkQueueMetrics> queues = new ConcurrentHashMap<>();

	/** The series of each informer, removed with it. */
	private final Map<Informer<?>, List<Meter>> informerMeters = Collections.synchronizedMap(new IdentityHashMap<>());

	/** The informers of each of a fleet's clusters, by cluster name. */
	private final Map<String, List<Informer<?>>> clusterInformers = new ConcurrentHashMap<>();

	private volatile @Nullable Manager manager;

	private volatile @Nullable Fleet fleet;

	private volatile @Nullable MicrometerWebhookMetrics webhooks;

	/**
	 * Creates metrics that register their meters in the given registry.
	 * @param registry the registry
	 */
	public OperatorMetrics(MeterRegistry registry) {
		this.registry = Objects.requireNonNull(registry, "registry must not be null");
	}

	/**
	 * Installs this instance's {@link #controllerMetrics} and {@link #workQueueMetrics}
	 * factories in a manager builder.
	 * @param builder the builder
	 * @return the builder
	 */
	public ManagerBuilder applyTo(ManagerBuilder builder) {
		return builder.controllerMetrics(this::controllerMetrics).workQueueMetrics(this::workQueueMetrics);
	}

	/**
	 * Binds the gauges that read the manager (maximum concurrent reconciles, unfinished
	 * work, longest running processor) to it and, when it elects a leader, registers
	 * {@code leader_election_master_status{name=<lease name>}}: {@code 1} while this
	 * replica leads, else {@code 0}.
	 * @param manager the manager built with {@link #applyTo}
	 */
	public void bindTo(Manager manager) {
		this.manager = Objects.requireNonNull(manager, "manager must not be null");
		LeaderElectionStatus elector = manager.leaderElection();
		if (elector != null) {
			Gauge.builder("leader.election.master.status", this::leaderStatus)
				.description("Whether this replica holds the lease named by 'name': 1 leader, 0 standby")
				.tag("name", elector.config().name())
				.register(this.registry);
		}
		Gauge.builder("operator.runnables.stuck", manager, (bound) -> bound.stuckRunnables().size())
			.description("Leader-only runnables that ignored their stop and their interruption and still run; "
					+ "while above 0 the Lease is neither released nor campaigned for")
			.register(this.registry);
		manager.cache().onInformerRegistered(this::bindInformer);
		manager.cache().onInformerUnregistered(this::unbindInformer);
	}

	/**
	 * Removes the series of an informer the cache removed (that of a namespace that left
	 * the manager's set), so that they neither linger nor keep the informer reachable.
	 */
	private void unbindInformer(Informer<?> informer) {
		List<Meter> meters = this.informerMeters.remove(informer);
		if (meters != null) {
			meters.forEach(this.registry::remove);
		}
	}

	private void bindInformer(Informer<?> informer) {
		bindInformer(informer, "");
	}

	/**
	 * Adds the series of an informer of a cluster: {@code cluster} is empty for the home
	 * cluster's, the name of a fleet's cluster for its members'.
	 */
	private void bindInformer(Informer<?> informer, String cluster) {
		InformerKey key = informer.key();
		Tags tags = Tags.of("cluster", cluster, "kind", KindResolver.declaredKind(key.type()).kind(), "namespace",
				Objects.requireNonNullElse(key.namespace(), ""), "selector",
				Objects.requireNonNullElse(key.labelSelector(), ""), "field_selector",
				Objects.requireNonNullElse(key.fieldSelector(), ""), "metadata_only",
				String.valueOf(key.metadataOnly()));
		List<Meter> meters = new ArrayList<>();
		meters.add(FunctionCounter.builder("operator.informer.restarts", informer, Informer::restarts)
			.description("How often the watchdog replaced the informer after its watch was silent too long")
			.tags(tags)
			.register(this.registry));
		meters.add(
				FunctionCounter.builder("operator.informer.undecodable.objects", informer, Informer::undecodableObjects)
					.description("Objects the informer skipped because they did not decode into its model class")
					.tags(tags)
					.register(this.registry));
		meters.add(Gauge
			.builder("operator.informer.silence.seconds", informer, (scoped) -> scoped.silentFor().toNanos() / 1e9)
			.description("Seconds since the informer last heard from the API server (event, list or new watch)")
			.tags(tags)
			.register(this.registry));
		bindCost(informer, tags, meters);
		this.informerMeters.put(informer, meters);
	}

	private void bindCost(Informer<?> informer, Tags tags, List<Meter> meters) {
		meters.add(Gauge.builder("operator.informer.objects", informer, (scoped) -> scoped.cost().objects())
			.description("Objects the informer holds")
			.tags(tags)
			.register(this.registry));
		meters.add(Gauge.builder("operator.informer.estimated.heap", informer, OperatorMetrics::estimatedBytes)
			.description("Estimated heap the informer's objects take, from a sample of them")
			.baseUnit(BaseUnits.BYTES)
			.tags(tags)
			.register(this.registry));
		// an informer's budget is fixed: read once, as the informer is registered
		OptionalInt budget = informer.cost().objectBudget();
		if (budget.isPresent()) {
			meters.add(Gauge.builder("operator.informer.object.budget", budget::getAsInt)
				.description("The most objects the informer should hold; it keeps every object past it")
				.tags(tags)
				.register(this.registry));
			meters.add(FunctionCounter
				.builder("operator.informer.object.budget.exceeded", informer,
						(scoped) -> scoped.cost().budgetCrossings())
				.description("How often the informer went over its object budget")
				.tags(tags)
				.register(this.registry));
		}
	}

	private static double estimatedBytes(Informer<?> informer) {
		OptionalLong bytes = informer.cost().estimatedBytes();
		return bytes.isPresent() ? bytes.getAsLong() : Double.NaN;
	}

	/**
	 * Returns the metrics of the controller with the given name, registering its series
	 * the first time: {@code controller_runtime_reconcile_total} for each {@code result},
	 * the error and panic counters, {@code controller_runtime_reconcile_time_seconds},
	 * {@code controller_runtime_max_concurrent_reconciles},
	 * {@code controller_runtime_active_workers}, and this library's
	 * {@code operator_controller_assigned_objects} and
	 * {@code operator_controller_waiting_requests}.
	 * @param controller the controller name
	 * @return the controller's metrics, the same instance for the same name
	 */
	public ControllerMetrics controllerMetrics(String controller) {
		return this.controllers.computeIfAbsent(controller, (name) -> {
			Gauge
				.builder("operator.controller.assigned.objects",
						() -> readController(name, Controller::assignedObjects))
				.description("Cached objects of the controller's kind this replica reconciles now: all of them on the "
						+ "leader, none on a standby, its share of the shard ring if sharded")
				.tag("controller", name)
				.register(this.registry);
			Gauge
				.builder("operator.controller.waiting.requests",
						() -> readController(name, Controller::waitingRequests))
				.description("Requests held outside the work queue until the caches of their namespace, in the "
						+ "manager's namespace set, synced")
				.tag("controller", name)
				.register(this.registry);
			return new MicrometerControllerMetrics(this.registry, name,
					() -> readController(name, Controller::maxConcurrentReconciles));
		});
	}

	/**
	 * Registers the gauges of a shard ring this replica joined:
	 * {@code operator_shard_ring_members{ring}}, the live members it saw at its last read
	 * of the ring, and {@code operator_shard_ring_member{ring}}, {@code 1} while it holds
	 * its Lease within the renew deadline, else {@code 0}.
	 * @param ring the ring
	 */
	public void bindTo(ShardRing ring) {
		Objects.requireNonNull(ring, "ring must not be null");
		Tags tags = Tags.of("ring", ring.config().ringName());
		Gauge.builder("operator.shard.ring.members", ring, (bound) -> bound.members().size())
			.description("Live members of the shard ring at this replica's last read of the ring, itself included")
			.tags(tags)
			.register(this.registry);
		Gauge.builder("operator.shard.ring.member", ring, (bound) -> bound.isMember() ? 1 : 0)
			.description("Whether this replica is a member of the shard ring (holds its Lease within the renew "
					+ "deadline): 1 member, 0 not")
			.tags(tags)
			.register(this.registry);
	}

	/**
	 * Returns the metrics of the work queue of the controller with the given name,
	 * registering its {@code workqueue_*{name,controller}} series the first time.
	 * @param name the controller name, used as both the {@code name} and the
	 * {@code controller} label, as controller-runtime does
	 * @return the queue's metrics, the same instance for the same name
	 */
	public WorkQueueMetrics workQueueMetrics(String name) {
		return this.queues.computeIfAbsent(name,
				(queue) -> new MicrometerWorkQueueMetrics(this.registry, queue,
						() -> readController(queue, Controller::unfinishedWorkNanos) / 1e9,
						() -> readController(queue, Controller::longestRunningProcessorNanos) / 1e9));
	}

	/**
	 * Returns the metrics of the webhook server, registering the
	 * {@code controller_runtime_webhook_*} series as webhooks are called.
	 * @return the webhook server's metrics, the same instance every time
	 */
	public synchronized WebhookMetrics webhookMetrics() {
		MicrometerWebhookMetrics metrics = this.webhooks;
		if (metrics == null) {
			metrics = new MicrometerWebhookMetrics(this.registry);
			this.webhooks = metrics;
		}
		return metrics;
	}

	/**
	 * Returns the metrics of a certificate watcher:
	 * {@code certwatcher_read_certificate_total} and
	 * {@code certwatcher_read_certificate_errors_total}, controller-runtime's names.
	 * @return the certificate metrics
	 */
	public CertificateMetrics certificateMetrics() {
		Counter reads = Counter.builder("certwatcher.read.certificate")
			.description("Total number of certificate reads")
			.register(this.registry);
		Counter errors = Counter.builder("certwatcher.read.certificate.errors")
			.description("Total number of certificate read errors")
			.register(this.registry);
		return new CertificateMetrics() {

			@Override
			public void read() {
				reads.increment();
			}

			@Override
			public void readError() {
				errors.increment();
			}

		};
	}

	private double leaderStatus() {
		Manager current = this.manager;
		return (current != null && current.isLeader()) ? 1 : 0;
	}

	private double readController(String name, ToDoubleFunction<Controller> value) {
		Manager current = this.manager;
		if (current == null) {
			return 0;
		}
		for (Controller controller : Controller.of(current)) {
			if (controller.name().equals(name)) {
				return value.applyAsDouble(controller);
			}
		}
		Fleet bound = this.fleet;
		int at = name.lastIndexOf('@');
		if (bound != null && at > 0) {
			Optional<Cluster> cluster = bound.cluster(name.substring(at + 1));
			if (cluster.isPresent()) {
				for (Controller controller : cluster.get().controllers()) {
					if (controller.name().equals(name)) {
						return value.applyAsDouble(controller);
					}
				}
			}
		}
		return 0;
	}

	/**
	 * Binds the metrics of a fleet: {@code operator_fleet_clusters{state}}, the clusters
	 * its providers named in each state ({@code starting}, {@code running},
	 * {@code refused}, {@code elsewhere}); the gauges of each cluster's controllers,
	 * named {@code <controller>@<cluster>}, read them; each cluster's client is counted
	 * in {@code rest_client_requests_total} (its {@code host} tells the clusters apart);
	 * and a disengaged cluster's controller and work queue series are removed.
	 * @param fleet the fleet of the manager bound with {@link #bindTo(Manager)}
	 */
	public void bindTo(Fleet fleet) {
		this.fleet = Objects.requireNonNull(fleet, "fleet must not be null");
		for (ClusterStatus.State state : ClusterStatus.State.values()) {
			Gauge
				.builder("operator.fleet.clusters", fleet,
						(bound) -> bound.statuses().stream().filter((status) -> status.state() == state).count())
				.description("Clusters the fleet's providers named, by the state of their engagement")
				.tag("state", state.name().toLowerCase(Locale.ROOT))
				.register(this.registry);
		}
		fleet.onDisengaged(this::removeCluster);
		fleet.onClusterBuilt(this::bindCluster);
		fleet.configureClients((client) -> RestClientMetricsInterceptor.instrument(client, this.registry));
	}

	/**
	 * Adds the informer series of a fleet's cluster, labelled with its name, in place of
	 * those of its last manager (a start retried).
	 */
	private void bindCluster(Cluster cluster) {
		unbindInformers(cluster.name());
		List<Informer<?>> informers = new CopyOnWriteArrayList<>();
		this.clusterInformers.put(cluster.name(), informers);
		cluster.cache().onInformerRegistered((informer) -> {
			informers.add(informer);
			bindInformer(informer, cluster.name());
		});
		cluster.cache().onInformerUnregistered(this::unbindInformer);
	}

	private void unbindInformers(String cluster) {
		List<Informer<?>> informers = this.clusterInformers.remove(cluster);
		if (informers != null) {
			informers.forEach(this::unbindInformer);
		}
	}

	/**
	 * Removes the controller, work queue and informer series of a disengaged cluster, so
	 * that a fleet whose clusters come and go keeps no series of those gone.
	 */
	private void removeCluster(String cluster) {
		unbindInformers(cluster);
		String suffix = "@" + cluster;
		this.controllers.keySet().removeIf((name) -> name.endsWith(suffix));
		this.queues.keySet().removeIf((name) -> name.endsWith(suffix));
		for (Meter meter : this.registry.getMeters()) {
			String controller = meter.getId().getTag("controller");
			String queue = meter.getId().getTag("name");
			if ((controller != null && controller.endsWith(suffix))
					|| (queue != null && queue.endsWith(suffix) && meter.getId().getName().startsWith("workqueue"))) {
				this.registry.remove(meter);
			}
		}
	}

}
