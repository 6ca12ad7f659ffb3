package io.kubeboot.operator.manager;

/**
 * Where a {@link Manager} is in its life.
 */
public enum ManagerState {

	/** Created, not started. */
	NEW,

	/** Resolving kinds, starting informers and waiting for them to sync. */
	STARTING,

	/** Caches synced and runnables started (controllers too, once leading). */
	RUNNING,

	/** Stopping its runnables. */
	STOPPING,

	/** Stopped; it cannot be started again. */
	STOPPED,

	/** A start step or a runnable failed; everything was stopped. */
	FAILED

}
