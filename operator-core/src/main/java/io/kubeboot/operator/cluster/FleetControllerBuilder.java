package io.kubeboot.operator.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.controller.ControllerBuilder;
import io.kubeboot.operator.handler.MapFunction;
import io.kubeboot.operator.client.internal.KindResolver;
import io.kubeboot.operator.reconcile.Reconciler;
import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;

/**
 * Builds a controller that runs in every engaged cluster of a fleet, the counterpart of
 * multicluster-runtime's {@code mcbuilder.ControllerManagedBy(mgr).For(...)}: in each
 * cluster it is a {@link Controller} of that cluster's manager, named
 * {@code <name>@<cluster>} in its logs, threads and metrics, reconciling the kind there
 * with what {@link #configure} sets, and asked also by the changes of the home kinds of
 * {@link #watchesHome}.
 *
 * @param <T> the reconciled model type
 */
public final class FleetControllerBuilder<T extends KubernetesObject> {

	private final Fleet fleet;

	private final Class<T> forType;

	private @Nullable String name;

	private final List<Consumer<ControllerBuilder<T>>> configuration = new ArrayList<>();

	private final List<HomeFanOut<?>> homeKinds = new ArrayList<>();

	private @Nullable FleetReconciler reconciler;

	FleetControllerBuilder(Fleet fleet, Class<T> forType) {
		this.fleet = fleet;
		this.forType = Objects.requireNonNull(forType, "forType must not be null");
		KindResolver.declaredKind(forType);
	}

	/**
	 * Names the controller; by default the lower-cased kind.
	 * @param name a name unique within the fleet
	 * @return this builder
	 */
	public FleetControllerBuilder<T> named(String name) {
		if (name == null || name.isBlank()) {
			throw new IllegalArgumentException("name must not be blank");
		}
		this.name = name;
		return this;
	}

	/**
	 * Configures the controller of each cluster as a single-cluster one is configured:
	 * owned and watched kinds (mapped within that cluster), selectors, event filters, a
	 * finalizer, workers, its queue. Called once per engagement of each cluster.
	 * @param configuration what to set on each cluster's builder; it must not call
	 * {@code named} or {@code complete}
	 * @return this builder
	 */
	public FleetControllerBuilder<T> configure(Consumer<ControllerBuilder<T>> configuration) {
		this.configuration.add(Objects.requireNonNull(configuration, "configuration must not be null"));
		return this;
	}

	/**
	 * Watches a kind of the home cluster: each change of one of its objects maps to
	 * requests that are queued in every engaged cluster (a hub's description of what
	 * every member must hold, say). Its informer is one of the home manager's caches.
	 * @param <W> the watched model type
	 * @param homeType the home kind
	 * @param mapFunction maps a changed home object to the requests of each cluster
	 * @return this builder
	 */
	public <W extends KubernetesObject> FleetControllerBuilder<T> watchesHome(Class<W> homeType,
			MapFunction<W> mapFunction) {
		return watchesHome(homeType, null, null, mapFunction);
	}

	/**
	 * Watches the objects of a kind of the home cluster in one namespace, or those a
	 * label selector selects: each change maps to requests queued in every engaged
	 * cluster.
	 * @param <W> the watched model type
	 * @param homeType the home kind
	 * @param namespace the namespace, {@code null} for the home manager's namespaces
	 * @param labelSelector a label selector, {@code null} for every object
	 * @param mapFunction maps a changed home object to the requests of each cluster
	 * @return this builder
	 */
	public <W extends KubernetesObject> FleetControllerBuilder<T> watchesHome(Class<W> homeType,
			@Nullable String namespace, @Nullable String labelSelector, MapFunction<W> mapFunction) {
		Objects.requireNonNull(mapFunction, "mapFunction must not be null");
		this.homeKinds.add(new HomeFanOut<>(controllerName(),
				this.fleet.home().cache().informer(homeType, namespace, labelSelector), mapFunction));
		return this;
	}

	/**
	 * Adds the controller to the fleet: it runs in every cluster engaged from then on.
	 * @param reconciler the reconciler, called with the cluster of each request
	 * @throws IllegalStateException if the fleet runs already
	 * @throws IllegalArgumentException if the fleet has a controller of that name
	 */
	public void complete(FleetReconciler reconciler) {
		Objects.requireNonNull(reconciler, "reconciler must not be null");
		this.reconciler = reconciler;
		this.fleet.add(controllerName(), this);
	}

	private String controllerName() {
		return (this.name != null) ? this.name : KindResolver.declaredKind(this.forType).kind().toLowerCase();
	}

	/**
	 * Adds this controller to the manager of one engagement of a cluster.
	 */
	void addTo(Cluster cluster) {
		FleetReconciler fleetReconciler = Objects.requireNonNull(this.reconciler, "not completed");
		ControllerBuilder<T> builder = Controller.builder(cluster.manager(), this.forType);
		this.configuration.forEach((step) -> step.accept(builder));
		builder.named(controllerName() + "@" + cluster.name());
		this.homeKinds.forEach((home) -> builder.watches(home.source()));
		String clusterName = cluster.name();
		Reconciler reconciler = (request) -> {
			MDC.put("cluster", clusterName);
			try {
				return fleetReconciler.reconcile(cluster, request);
			}
			finally {
				MDC.remove("cluster");
			}
		};
		builder.complete(reconciler);
	}

}
