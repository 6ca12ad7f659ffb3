package io.kubeboot.operator.benchmarks.child;

/**
 * The reconcile every implementation runs, free of any Kubernetes client's model classes:
 * given a widget read from the implementation's cache, write
 * {@code status.observedGeneration} with a merge patch of the status subresource when it
 * differs from {@code metadata.generation}, and report to the harness. The
 * implementations on client-java apply it to their model through {@code WidgetWorkload};
 * the JOSDK implementation to its fabric8 model. Only the write differs between the
 * implementations.
 */
public final class Workload {

	/**
	 * Reconciles in parallel per operator.
	 */
	public static final int WORKERS = 4;

	private final Probe probe;

	/**
	 * Creates the workload.
	 * @param probe where to report
	 */
	public Workload(Probe probe) {
		this.probe = probe;
	}

	/**
	 * Marks the start of a reconcile; call it first thing.
	 * @return the start time in epoch milliseconds, for {@link #reconcile}
	 */
	public long started() {
		long now = System.currentTimeMillis();
		this.probe.reconcileStarted(now);
		return now;
	}

	/**
	 * Brings a widget's status up to date.
	 * @param namespace the widget's namespace
	 * @param name the widget's name
	 * @param generation its {@code metadata.generation}
	 * @param observedGeneration its {@code status.observedGeneration}, {@code null} if it
	 * has no status
	 * @param createdAt its {@code spec.createdAt}, or {@code null}
	 * @param startedAt what {@link #started()} returned
	 * @param write how the implementation writes the status
	 * @return whether the status was written
	 * @throws Exception if the write failed
	 */
	public boolean reconcile(String namespace, String name, Long generation, Long observedGeneration, Long createdAt,
			long startedAt, StatusWrite write) throws Exception {
		if (observedGeneration != null && observedGeneration.equals(generation)) {
			return false;
		}
		write.write(generation);
		this.probe.statusWritten(namespace + "/" + name, createdAt, startedAt);
		return true;
	}

	/**
	 * Writes {@code status.observedGeneration} with a merge patch of the status
	 * subresource.
	 */
	@FunctionalInterface
	public interface StatusWrite {

		/**
		 * Writes the status.
		 * @param observedGeneration the generation to write
		 * @throws Exception if the write failed
		 */
		void write(Long observedGeneration) throws Exception;

	}

}
