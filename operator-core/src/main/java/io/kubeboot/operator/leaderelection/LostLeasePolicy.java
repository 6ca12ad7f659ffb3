package io.kubeboot.operator.leaderelection;

/**
 * What a replica does when it loses the Lease while leading.
 */
public enum LostLeasePolicy {

	/**
	 * Exit the process with a non-zero status at once, skipping graceful shutdown, as
	 * controller-runtime does; Kubernetes restarts the pod, which then campaigns as a
	 * standby. The safest choice: nothing of the old term can run on.
	 */
	EXIT,

	/**
	 * Stop every controller and leader-only runnable completely, then campaign again in
	 * the same process. Keeps the caches warm; relies on every leader-only runnable
	 * stopping when asked.
	 */
	RE_ELECT

}
