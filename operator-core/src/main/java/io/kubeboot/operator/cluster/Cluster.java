package io.kubeboot.operator.cluster;

import java.util.List;
import java.util.Objects;

import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;

/**
 * An engaged cluster of a {@link Fleet}: its name, the caches of the kinds its fleet
 * controllers watch there, and a client that reads from them and writes to its API
 * server, the counterpart of controller-runtime's {@code cluster.Cluster}. Its caches and
 * client are those of the cluster's current engagement: a cluster engaged again (with a
 * new kubeconfig) is a new {@code Cluster}.
 */
public final class Cluster {

	private final String name;

	private final Manager manager;

	Cluster(String name, Manager manager) {
		this.name = Objects.requireNonNull(name, "name must not be null");
		this.manager = Objects.requireNonNull(manager, "manager must not be null");
	}

	/**
	 * Returns the cluster's name, as its provider gave it (a kubeconfig Secret's name, a
	 * property's key).
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Returns the client of this cluster: reads from its caches, writes to its API
	 * server, with the home manager's field manager, timeout and rate limit.
	 * @return the client
	 */
	public Client client() {
		return this.manager.client();
	}

	/**
	 * Returns the caches of this cluster.
	 * @return the cache
	 */
	public Cache cache() {
		return this.manager.cache();
	}

	/**
	 * Returns the controllers of this engagement, one per fleet controller, each named
	 * {@code <name>@<cluster>}.
	 * @return the controllers
	 */
	public List<Controller> controllers() {
		return Controller.of(this.manager);
	}

	/**
	 * Returns the manager that runs this cluster's caches and controllers.
	 */
	Manager manager() {
		return this.manager;
	}

	@Override
	public String toString() {
		return "Cluster[" + this.name + "]";
	}

}
