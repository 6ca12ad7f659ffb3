package io.kubeboot.operator.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.kubeboot.operator.client.internal.WriteFence;
import io.kubeboot.operator.cluster.ClusterStatus.State;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerBuilder;
import io.kubeboot.operator.manager.ManagerRunnable;
import io.kubeboot.operator.manager.StopSignal;
import io.kubeboot.operator.metrics.ControllerMetrics;
import io.kubeboot.operator.rbac.Permission;
import io.kubeboot.operator.sharding.ShardRing;
import io.kubeboot.operator.sharding.internal.HashRing;
import io.kubeboot.operator.sharding.internal.HeldKeys;
import io.kubeboot.operator.workqueue.WorkQueueMetrics;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clusters an operator reconciles besides its home cluster, the counterpart of
 * multicluster-runtime's {@code mcmanager.Manager}: while it runs, its
 * {@link ClusterProvider providers} engage and disengage clusters, and every
 * {@link #controller fleet controller} runs in each engaged cluster with that cluster's
 * caches and client.
 * <p>
 * The fleet is a leader-only runnable of the home manager, so leader election stays on
 * the home cluster: a standby engages nothing. Shared over a shard ring
 * ({@link Builder#sharedOver}), it runs on every replica instead, and each replica
 * engages the clusters the ring gives it, each held on the ring for as long as its
 * engagement lasts, so that a cluster moves to another replica only once its engagement
 * here ended. Each engaged cluster has a manager of its own
 * ({@link Manager#builderForCluster}): its caches, its controllers with their queues and
 * workers, started on a thread of its own and retried with a backoff while its API server
 * cannot be reached, so that no cluster delays or stops another.
 * <p>
 * Thread-safe. Add the fleet controllers before the home manager starts.
 */
public final class Fleet implements ManagerRunnable {

	/** The name of the fleet's runnable in the home manager. */
	public static final String RUNNABLE_NAME = "fleet";

	private static final Logger logger = LoggerFactory.getLogger(Fleet.class);

	/** How long the fleet waits for a provider to return once told to stop. */
	private static final Duration PROVIDER_STOP = Duration.ofSeconds(5);

	private final Manager home;

	private final List<ClusterProvider> providers;

	/** The ring the clusters are shared over, {@code null} if the fleet is not shared. */
	private final @Nullable ShardRing ring;

	private final @Nullable HeldKeys held;

	private final Map<String, FleetControllerBuilder<?>> controllers = new LinkedHashMap<>();

	/** Serializes engagements, so that one cluster never runs under two managers. */
	private final Object engagements = new Object();

	private final Map<String, Member> members = new ConcurrentHashMap<>();

	/**
	 * The clusters the providers named and did not refuse, engaged or not (a shared fleet
	 * engages only those the ring gives this replica).
	 */
	private final Map<String, Offer> offers = new ConcurrentHashMap<>();

	/**
	 * The last engagement of each cluster being stopped, guarded by {@code engagements}:
	 * the next engagement of that cluster waits for it to end.
	 */
	private final Map<String, Member> stopping = new HashMap<>();

	/** Wakes the rebalancing of a shared fleet. */
	private final Semaphore rebalance = new Semaphore(0);

	private final Map<String, ClusterStatus> refused = new ConcurrentHashMap<>();

	/** The threads stopping engagements, guarded by {@code engagements}. */
	private final Set<Thread> retiring = new HashSet<>();

	private final List<Consumer<String>> disengagedListeners = new CopyOnWriteArrayList<>();

	private final List<Consumer<ApiClient>> clientConfigurers = new CopyOnWriteArrayList<>();

	private final List<Consumer<Cluster>> builtListeners = new CopyOnWriteArrayList<>();

	private volatile boolean started;

	private volatile boolean running;

	private Fleet(Manager home, List<ClusterProvider> providers, @Nullable ShardRing ring) {
		this.home = home;
		this.providers = List.copyOf(providers);
		this.ring = ring;
		this.held = (ring != null) ? HeldKeys.of(ring) : null;
		if (this.held != null) {
			this.held.onChange(this.rebalance::release);
		}
	}

	/**
	 * Returns the key a cluster has on the ring a fleet is shared over:
	 * {@code cluster.kubeboot.io/Cluster//<name>}.
	 * @param name the cluster's name
	 * @return the key
	 */
	public static String ringKey(String name) {
		return HashRing.key("cluster.kubeboot.io", "Cluster", null, name);
	}

	/**
	 * Returns the ring the fleet's clusters are shared over.
	 * @return the ring, empty if the fleet runs on the leader alone
	 */
	public Optional<ShardRing> ring() {
		return Optional.ofNullable(this.ring);
	}

	@Override
	public boolean needsLeaderElection() {
		return this.ring == null;
	}

	/**
	 * Returns a builder of a fleet run by the given home manager.
	 * @param home the manager of the home cluster
	 * @return the builder
	 */
	public static Builder builder(Manager home) {
		return new Builder(home);
	}

	/**
	 * Starts building a controller that runs in every engaged cluster.
	 * @param <T> the reconciled model type
	 * @param forType the kind reconciled in each cluster
	 * @return the builder; {@link FleetControllerBuilder#complete} adds the controller
	 */
	public <T extends KubernetesObject> FleetControllerBuilder<T> controller(Class<T> forType) {
		return new FleetControllerBuilder<>(this, forType);
	}

	Manager home() {
		return this.home;
	}

	void add(String name, FleetControllerBuilder<?> controller) {
		synchronized (this.controllers) {
			if (this.started) {
				throw new IllegalStateException("Fleet controller " + name
						+ " cannot be added: the fleet runs already; add fleet controllers before the manager starts");
			}
			if (this.controllers.containsKey(name)) {
				throw new IllegalArgumentException("A fleet controller named '" + name
						+ "' already exists: give one of them another name with named(...)");
			}
			this.controllers.put(name, controller);
		}
	}

	/**
	 * Returns what RBAC must grant the operator's identity in every member cluster: the
	 * list and watch of each fleet controller's informers there and what the controllers
	 * declare ({@code ControllerBuilder.requires}, a finalizer's patches), derived from a
	 * member's manager as it would be built, without an API server. Leader election and
	 * the home kinds stay in the home cluster, so none of theirs is here. Turn them into
	 * rules with {@link io.kubeboot.operator.rbac.PolicyRules}.
	 * @return the permissions
	 */
	public List<Permission> memberPermissions() {
		// measured nowhere: the controllers of this manager never run
		ManagerBuilder builder = this.home.builderForCluster(new ApiClient().setBasePath("https://member.invalid"))
			.controllerMetrics((name) -> ControllerMetrics.NOOP)
			.workQueueMetrics((name) -> WorkQueueMetrics.NOOP);
		Cluster member = newCluster("member", builder);
		try {
			return member.manager().requiredPermissions();
		}
		finally {
			member.manager().stop();
		}
	}

	/**
	 * Returns the clusters whose controllers run now.
	 * @return the running clusters, by name
	 */
	public List<Cluster> clusters() {
		List<Cluster> clusters = new ArrayList<>();
		for (Member member : this.members.values()) {
			Cluster cluster = member.running();
			if (cluster != null) {
				clusters.add(cluster);
			}
		}
		clusters.sort(Comparator.comparing(Cluster::name));
		return clusters;
	}

	/**
	 * Returns a cluster whose controllers run now.
	 * @param name its name
	 * @return the cluster, empty unless it runs
	 */
	public Optional<Cluster> cluster(String name) {
		Member member = this.members.get(name);
		return (member != null) ? Optional.ofNullable(member.running()) : Optional.empty();
	}

	/**
	 * Returns what the fleet knows of every cluster its providers named: running,
	 * starting (with the last error of a failed start), refused, or (in a shared fleet)
	 * engaged elsewhere.
	 * @return the statuses, by name; empty while the fleet does not run
	 */
	public List<ClusterStatus> statuses() {
		List<ClusterStatus> statuses = new ArrayList<>(this.refused.values());
		this.members.values().forEach((member) -> statuses.add(member.status()));
		if (this.ring != null) {
			this.offers.forEach((name, offer) -> {
				if (!this.members.containsKey(name)) {
					statuses.add(new ClusterStatus(name, offer.provider(), State.ELSEWHERE, null, offer.since()));
				}
			});
		}
		statuses.sort(Comparator.comparing(ClusterStatus::name).thenComparing(ClusterStatus::provider));
		return statuses;
	}

	/**
	 * Registers what is done to the client of every cluster before its caches and
	 * controllers are built on it, such as instrumenting it for metrics; a provider may
	 * hand the same client again when it engages a cluster again, so it should be
	 * idempotent.
	 * @param configurer the configurer
	 */
	public void configureClients(Consumer<ApiClient> configurer) {
		this.clientConfigurers.add(Objects.requireNonNull(configurer, "configurer must not be null"));
	}

	/**
	 * Registers a listener told the name of every cluster once it was disengaged (its
	 * controllers and caches stopped), before the same name may be engaged again: to drop
	 * what was kept per cluster, such as its metrics.
	 * @param listener the listener; called on the thread that disengaged the cluster
	 */
	public void onDisengaged(Consumer<String> listener) {
		this.disengagedListeners.add(Objects.requireNonNull(listener, "listener must not be null"));
	}

	/**
	 * Registers a listener told every cluster once its manager, with the fleet
	 * controllers, was built and before it starts; a start that is retried builds a new
	 * one, once the last one stopped. To bind what is kept per cluster, such as the
	 * metrics of its caches.
	 * @param listener the listener; called on the cluster's own thread
	 */
	public void onClusterBuilt(Consumer<Cluster> listener) {
		this.builtListeners.add(Objects.requireNonNull(listener, "listener must not be null"));
	}

	private Cluster built(Cluster cluster) {
		for (Consumer<Cluster> listener : this.builtListeners) {
			try {
				listener.accept(cluster);
			}
			catch (RuntimeException ex) {
				logger.warn("Listener of built clusters failed: cluster={}", cluster.name(), ex);
			}
		}
		return cluster;
	}

	private void disengaged(String name) {
		for (Consumer<String> listener : this.disengagedListeners) {
			try {
				listener.accept(name);
			}
			catch (RuntimeException ex) {
				logger.warn("Listener of disengaged clusters failed: cluster={}", name, ex);
			}
		}
	}

	@Override
	public void start(StopSignal stop) throws Exception {
		synchronized (this.controllers) {
			this.started = true;
		}
		StopSignal providersStop = new StopSignal();
		List<Thread> threads = new ArrayList<>();
		synchronized (this.engagements) {
			this.running = true;
		}
		logger.info("Starting fleet: providers={} controllers={} ring={}", this.providers.size(), controllerNames(),
				(this.ring != null) ? this.ring.config().ringName() : "none");
		Thread rebalancer = null;
		if (this.ring != null && this.held != null) {
			ShardRing shared = this.ring;
			HeldKeys keys = this.held;
			rebalancer = new Thread(() -> rebalanceUntil(shared.config().retryPeriod(), keys, providersStop),
					"operator-fleet-rebalance");
			rebalancer.setDaemon(true);
			rebalancer.start();
		}
		for (int i = 0; i < this.providers.size(); i++) {
			ClusterProvider provider = this.providers.get(i);
			Engagements engagements = new Engagements(i);
			Thread thread = new Thread(() -> {
				try {
					provider.run(engagements, providersStop);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				catch (Exception ex) {
					logger.error("Cluster provider failed, its clusters stay engaged: provider={}", provider, ex);
				}
			}, "operator-fleet-provider-" + i);
			thread.setDaemon(true);
			thread.start();
			threads.add(thread);
		}
		try {
			stop.await();
		}
		finally {
			stopAll(providersStop, threads, rebalancer);
		}
	}

	private List<String> controllerNames() {
		synchronized (this.controllers) {
			return List.copyOf(this.controllers.keySet());
		}
	}

	/**
	 * Stops the providers and disengages every cluster at once. Returns only once every
	 * engagement ended, even when interrupted (the home manager's graceful shutdown
	 * timeout passed): the interrupt hurries the clusters' stops, which interrupt their
	 * reconciles, and is kept for the caller. A cluster whose reconciles ignore that too
	 * keeps the fleet's runnable alive, which the home manager reports as stuck.
	 */
	private void stopAll(StopSignal providersStop, List<Thread> providers, @Nullable Thread rebalancer) {
		List<Member> ending;
		synchronized (this.engagements) {
			// from here on a provider's report is ignored
			this.running = false;
			ending = new ArrayList<>(this.members.values());
			this.members.clear();
			this.refused.clear();
			this.offers.clear();
		}
		providersStop.fire();
		this.rebalance.release();
		ending.forEach(this::retire);
		// it holds the lock at most for a pass, which engages nothing once not running
		boolean interrupted = (rebalancer != null) && join(rebalancer, null);
		for (Thread provider : providers) {
			interrupted |= join(provider, PROVIDER_STOP);
			if (provider.isAlive()) {
				logger.warn("Cluster provider did not stop, its reports are ignored: thread={}", provider.getName());
			}
		}
		List<Thread> retiring;
		synchronized (this.engagements) {
			retiring = new ArrayList<>(this.retiring);
		}
		for (Thread thread : retiring) {
			if (interrupted) {
				// hurried: the engagements' reconciles are interrupted now
				thread.interrupt();
			}
			interrupted |= join(thread, null);
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
		logger.info("Fleet stopped: clusters={}", ending.size());
	}

	/**
	 * Waits for a thread to end, at most the given time ({@code null}: without bound). An
	 * interrupt of the calling thread is passed on to it once, and waiting goes on.
	 * @return whether the calling thread was interrupted meanwhile
	 */
	private static boolean join(Thread thread, @Nullable Duration timeout) {
		boolean interrupted = false;
		long deadline = (timeout != null) ? System.nanoTime() + timeout.toNanos() : 0;
		while (thread.isAlive()) {
			try {
				if (timeout == null) {
					thread.join();
				}
				else {
					long left = deadline - System.nanoTime();
					if (left <= 0) {
						break;
					}
					thread.join(Math.max(1, left / 1_000_000));
				}
			}
			catch (InterruptedException ex) {
				if (!interrupted) {
					interrupted = true;
					thread.interrupt();
				}
			}
		}
		return interrupted;
	}

	/**
	 * Stops an engagement on a thread of its own, so that neither the lock of the
	 * engagements nor a provider waits for its controllers: its successor, if any, waits
	 * for it to end before it builds anything.
	 */
	private void retire(Member member) {
		Thread thread = new Thread(() -> {
			try {
				member.stop();
			}
			finally {
				synchronized (this.engagements) {
					this.retiring.remove(Thread.currentThread());
					this.stopping.remove(member.name(), member);
				}
			}
		}, "operator-fleet-disengage-" + member.name());
		synchronized (this.engagements) {
			this.retiring.add(thread);
			this.stopping.put(member.name(), member);
		}
		thread.start();
	}

	/**
	 * Engages a cluster its provider named, unless it is engaged; in a shared fleet only
	 * if the ring gives it to this replica, holding its key until the engagement ended.
	 * Called with {@code engagements} held.
	 */
	private void engage(String name) {
		Offer offer = this.offers.get(name);
		if (offer == null || this.members.containsKey(name)) {
			return;
		}
		String key = ringKey(name);
		if (this.held != null && !this.held.hold(key)) {
			return;
		}
		WriteFence fence = (this.held != null) ? this.held.fence() : null;
		Member member = new Member(name, offer.provider(), (cluster) -> {
			this.clientConfigurers.forEach((configurer) -> configurer.accept(offer.client()));
			return built(newCluster(cluster, memberBuilder(offer.client(), fence)));
		}, this.stopping.get(name), (ended) -> {
			try {
				disengaged(ended);
			}
			finally {
				if (this.held != null) {
					this.held.unhold(key);
				}
			}
		});
		this.members.put(name, member);
		member.start();
	}

	/**
	 * Returns the builder of a cluster's manager: its controllers write under the given
	 * fence (the shard Lease's, in a shared fleet) or, with none, the home manager's.
	 */
	private ManagerBuilder memberBuilder(ApiClient client, @Nullable WriteFence fence) {
		if (fence == null) {
			return this.home.builderForCluster(client);
		}
		WriteFence previous = WriteFence.current();
		WriteFence.enter(fence);
		try {
			return this.home.builderForCluster(client);
		}
		finally {
			WriteFence.enter(previous);
		}
	}

	/**
	 * Keeps a shared fleet's engagements to the clusters the ring gives this replica:
	 * woken when the given keys may have changed, and every retry period of the ring,
	 * since a Lease past its renew deadline changes what is given without a notice.
	 */
	private void rebalanceUntil(Duration period, HeldKeys keys, StopSignal stop) {
		while (!stop.isStopRequested()) {
			synchronized (this.engagements) {
				if (!this.running) {
					return;
				}
				for (Member member : List.copyOf(this.members.values())) {
					if (!keys.permits(ringKey(member.name()))) {
						// another replica's now, or none's while this replica's shard
						// Lease is not valid
						logger.info("Cluster no longer permitted to this replica by the shard ring, disengaging: "
								+ "cluster={}", member.name());
						this.members.remove(member.name());
						retire(member);
					}
				}
				for (String name : List.copyOf(this.offers.keySet())) {
					engage(name);
				}
			}
			try {
				this.rebalance.tryAcquire(period.toNanos(), TimeUnit.NANOSECONDS);
				this.rebalance.drainPermits();
			}
			catch (InterruptedException ex) {
				return;
			}
		}
	}

	/**
	 * Builds the manager of one engagement of a cluster, with every fleet controller.
	 */
	private Cluster newCluster(String name, ManagerBuilder manager) {
		Cluster cluster = new Cluster(name, manager.build());
		List<FleetControllerBuilder<?>> controllers;
		synchronized (this.controllers) {
			controllers = List.copyOf(this.controllers.values());
		}
		controllers.forEach((controller) -> controller.addTo(cluster));
		return cluster;
	}

	@Override
	public String toString() {
		return "Fleet[providers=" + this.providers.size() + "]";
	}

	/**
	 * What one provider reports, applied to the fleet.
	 */
	private final class Engagements implements ClusterProvider.Clusters {

		private final int provider;

		Engagements(int provider) {
			this.provider = provider;
		}

		@Override
		public void engage(String name, ApiClient client) {
			requireName(name);
			Objects.requireNonNull(client, "client must not be null");
			synchronized (Fleet.this.engagements) {
				if (!Fleet.this.running || !ownsOrFree(name)) {
					return;
				}
				Member predecessor = Fleet.this.members.remove(name);
				if (predecessor != null) {
					retire(predecessor);
				}
				Fleet.this.refused.remove(name);
				Fleet.this.offers.put(name, new Offer(this.provider, client, Instant.now()));
				Fleet.this.engage(name);
			}
		}

		@Override
		public void disengage(String name) {
			synchronized (Fleet.this.engagements) {
				ClusterStatus refusal = Fleet.this.refused.get(name);
				if (refusal != null && refusal.provider() == this.provider) {
					Fleet.this.refused.remove(name);
				}
				Offer offer = Fleet.this.offers.get(name);
				if (offer != null && offer.provider() == this.provider) {
					Fleet.this.offers.remove(name);
					stopMember(name);
				}
			}
		}

		@Override
		public void refuse(String name, String reason) {
			requireName(name);
			synchronized (Fleet.this.engagements) {
				if (!Fleet.this.running || !ownsOrFree(name)) {
					return;
				}
				Fleet.this.offers.remove(name);
				stopMember(name);
				logger.warn("Cluster refused by its provider: cluster={} provider={} reason=\"{}\"", name,
						this.provider, reason);
				Fleet.this.refused.put(name,
						new ClusterStatus(name, this.provider, State.REFUSED, reason, Instant.now()));
			}
		}

		/**
		 * Whether this provider may report a cluster of that name: no other provider's
		 * cluster has it; one that has is left as it is, and the clash is reported.
		 */
		private boolean ownsOrFree(String name) {
			Offer offer = Fleet.this.offers.get(name);
			ClusterStatus refusal = Fleet.this.refused.get(name);
			int owner = (offer != null) ? offer.provider() : (refusal != null) ? refusal.provider() : this.provider;
			if (owner != this.provider) {
				logger.warn("Cluster name taken by another provider, ignored: cluster={} provider={} owner={}", name,
						this.provider, owner);
				return false;
			}
			return true;
		}

		private void stopMember(String name) {
			Member member = Fleet.this.members.remove(name);
			if (member != null) {
				retire(member);
			}
		}

		private void requireName(String name) {
			if (name == null || name.isBlank()) {
				throw new IllegalArgumentException("A cluster's name must not be blank");
			}
		}

	}

	/**
	 * A cluster a provider named, with the client to reach it.
	 */
	private record Offer(int provider, ApiClient client, Instant since) {

	}

	/**
	 * Builds a {@link Fleet} and adds it to its home manager.
	 */
	public static final class Builder {

		private final Manager home;

		private final List<ClusterProvider> providers = new ArrayList<>();

		private @Nullable ShardRing ring;

		private Builder(Manager home) {
			this.home = Objects.requireNonNull(home, "home must not be null");
		}

		/**
		 * Adds a provider of clusters.
		 * @param provider the provider
		 * @return this builder
		 */
		public Builder provider(ClusterProvider provider) {
			this.providers.add(Objects.requireNonNull(provider, "provider must not be null"));
			return this;
		}

		/**
		 * Shares the clusters over a shard ring joined by the home manager: the fleet
		 * runs on every replica, and each engages the clusters the ring gives it (their
		 * keys are {@link Fleet#ringKey}). A cluster moves to another replica only once
		 * its engagement here ended, and this replica leaves the ring only once all
		 * ended. Member controllers write under this replica's shard Lease's fence, not
		 * the leader's.
		 * @param ring the ring
		 * @return this builder
		 */
		public Builder sharedOver(ShardRing ring) {
			this.ring = Objects.requireNonNull(ring, "ring must not be null");
			return this;
		}

		/**
		 * Builds the fleet and adds it to the home manager as the runnable
		 * {@value Fleet#RUNNABLE_NAME}: leader-only, or on every replica if shared over a
		 * ring.
		 * @return the fleet
		 * @throws IllegalArgumentException if the home manager has a fleet already
		 */
		public Fleet build() {
			Fleet fleet = new Fleet(this.home, this.providers, this.ring);
			this.home.add(RUNNABLE_NAME, fleet);
			return fleet;
		}

	}

}
