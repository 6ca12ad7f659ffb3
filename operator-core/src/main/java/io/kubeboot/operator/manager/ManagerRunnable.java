package io.kubeboot.operator.manager;

import java.util.List;
import java.util.Objects;

import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.rbac.Permission;

/**
 * A long-running part of an operator that the {@link Manager} starts and stops with
 * everything else, the counterpart of controller-runtime's {@code manager.Runnable}.
 * <p>
 * {@link #start} is called on a thread of its own and should block until the stop signal
 * fires, then return promptly. Returning earlier is allowed and simply ends the runnable.
 * Throwing an exception fails the manager: everything is stopped and the manager reports
 * itself failed (liveness goes DOWN). If the runnable has not returned when the graceful
 * shutdown timeout expires, its thread is interrupted.
 * <p>
 * By default a runnable runs only on the elected leader; override
 * {@link #needsLeaderElection()} (or use {@link #onEveryReplica}) for work that every
 * replica must do, such as serving a webhook or warming a cache.
 */
@FunctionalInterface
public interface ManagerRunnable {

	/**
	 * Runs until the stop signal fires.
	 * @param stop fires when the manager stops this runnable
	 * @throws Exception if the runnable failed; the manager then fails as a whole
	 */
	void start(StopSignal stop) throws Exception;

	/**
	 * Whether this runnable runs only while this replica leads.
	 * @return {@code true} (the default) for leader-only, {@code false} for every replica
	 */
	default boolean needsLeaderElection() {
		return true;
	}

	/**
	 * Returns what this runnable needs RBAC to allow, for
	 * {@link Manager#requiredPermissions()}: the manager's rendered RBAC and its start-up
	 * self-check include it. A permission placed in no namespace goes to every namespace
	 * the manager's caches hold objects in.
	 * @return the permissions, none by default
	 */
	default List<Permission> requiredPermissions() {
		return List.of();
	}

	/**
	 * Returns the informers of the manager's cache this runnable reads, so that a failure
	 * to start one of them names the runnables that asked for it (an informer's field
	 * selector that the API server refuses, say).
	 * @return the informers' keys, none by default
	 */
	default List<InformerKey> informerKeys() {
		return List.of();
	}

	/**
	 * Adapts a function to a runnable that runs on every replica, leader or not.
	 * @param runnable the function
	 * @return a runnable that does not need leader election
	 */
	static ManagerRunnable onEveryReplica(ManagerRunnable runnable) {
		Objects.requireNonNull(runnable, "runnable must not be null");
		return new ManagerRunnable() {

			@Override
			public void start(StopSignal stop) throws Exception {
				runnable.start(stop);
			}

			@Override
			public boolean needsLeaderElection() {
				return false;
			}

			@Override
			public List<Permission> requiredPermissions() {
				return runnable.requiredPermissions();
			}

			@Override
			public List<InformerKey> informerKeys() {
				return runnable.informerKeys();
			}

			@Override
			public String toString() {
				return runnable.toString();
			}

		};
	}

}
