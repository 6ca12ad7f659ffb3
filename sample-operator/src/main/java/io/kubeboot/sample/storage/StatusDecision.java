package io.kubeboot.sample.storage;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.kubeboot.sample.storage.v1alpha1.Condition;
import io.kubeboot.sample.storage.v1alpha1.StorageBucket;
import io.kubeboot.sample.storage.v1alpha1.StorageBucketStatus;

/**
 * The status a probe leads to, and whether it is worth a write to the API server.
 * <p>
 * Writing the status after every probe would turn every probe into an API write (and a
 * watch event to every replica): 1000 buckets probed every 30 seconds would be 33 writes
 * per second for nothing. So the status is written only when what it says changes (the
 * {@code Available} condition apart from its transition time, or the observed
 * generation), and otherwise once {@code status.lastProbeTime} is older than
 * {@code sample.buckets.status-refresh-interval}, so that it still shows the operator is
 * at work.
 *
 * @param status the status to write
 * @param write whether to write it
 * @param transition whether {@code Available} changed its status (or appears for the
 * first time): worth an Event
 */
record StatusDecision(StorageBucketStatus status, boolean write, boolean transition) {

	/**
	 * Decides.
	 * @param bucket the bucket as cached, with the status written last
	 * @param probe what the probe found
	 * @param now the time of the probe, with whole seconds as Kubernetes stores them
	 * @param refreshInterval how old {@code lastProbeTime} may get
	 * @return the decision
	 */
	static StatusDecision decide(StorageBucket bucket, ProbeResult probe, OffsetDateTime now,
			Duration refreshInterval) {
		Long generation = bucket.getMetadata().getGeneration();
		StorageBucketStatus current = (bucket.getStatus() != null) ? bucket.getStatus() : new StorageBucketStatus();
		Condition previous = current.condition(Condition.AVAILABLE).orElse(null);
		Condition available = new Condition().type(Condition.AVAILABLE)
			.status(probe.available() ? Condition.TRUE : Condition.FALSE)
			.reason(probe.reason())
			.message(probe.message())
			.observedGeneration(generation);
		boolean transition = previous == null || !available.getStatus().equals(previous.getStatus());
		// lastTransitionTime moves only when the status does, as the API conventions ask
		available.lastTransitionTime(
				(transition || previous.getLastTransitionTime() == null) ? now : previous.getLastTransitionTime());
		boolean changed = !available.sameObservation(previous)
				|| !Objects.equals(generation, current.getObservedGeneration());
		boolean stale = current.getLastProbeTime() == null
				|| !current.getLastProbeTime().plus(refreshInterval).isAfter(now);
		StorageBucketStatus next = new StorageBucketStatus().observedGeneration(generation)
			.lastProbeTime(now)
			.conditions(replace(current.getConditions(), available));
		return new StatusDecision(next, changed || stale, transition);
	}

	/**
	 * Replaces the condition of the same type and keeps the others: a merge patch
	 * replaces the whole list, and conditions are not this operator's alone to drop.
	 */
	private static List<Condition> replace(List<Condition> conditions, Condition replacement) {
		List<Condition> result = new ArrayList<>();
		for (Condition condition : conditions) {
			if (!replacement.getType().equals(condition.getType())) {
				result.add(condition);
			}
		}
		result.add(replacement);
		return result;
	}

}
