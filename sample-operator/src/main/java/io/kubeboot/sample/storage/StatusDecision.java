package io.kubeboot.sample.storage;

import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.kubeboot.operator.model.Condition;
import io.kubeboot.operator.model.Conditions;
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
		Condition available = Condition
			.of(StorageBucketStatus.AVAILABLE, probe.available() ? Condition.TRUE : Condition.FALSE, probe.reason(),
					probe.message())
			.observedGeneration(generation);
		boolean transition = current.condition(StorageBucketStatus.AVAILABLE)
			.map((previous) -> !available.getStatus().equals(previous.getStatus()))
			.orElse(true);
		// a copy: the cached status is shared; the others' conditions are kept, as a
		// merge patch replaces the whole list and they are not this operator's to drop
		List<Condition> conditions = new ArrayList<>(current.getConditions());
		// the probe's time, should the status change, which moves lastTransitionTime
		boolean changed = Conditions.set(conditions, available, Clock.fixed(now.toInstant(), ZoneOffset.UTC))
				|| !Objects.equals(generation, current.getObservedGeneration());
		boolean stale = current.getLastProbeTime() == null
				|| !current.getLastProbeTime().plus(refreshInterval).isAfter(now);
		StorageBucketStatus next = new StorageBucketStatus().observedGeneration(generation)
			.lastProbeTime(now)
			.conditions(conditions);
		return new StatusDecision(next, changed || stale, transition);
	}

}
