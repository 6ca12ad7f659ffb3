package io.kubeboot.operator.micrometer;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names the observation of a leader transition {@code operator.leader.election}, its span
 * {@code leader <transition>}, with the low-cardinality key {@code transition}
 * ({@code acquired}, {@code lost}, {@code stopped}) and the high-cardinality keys
 * {@code lease} ({@code namespace/name}: no series of the metrics names a namespace) and
 * {@code identity}. Replace it with a
 * {@code GlobalObservationConvention} of {@link LeaderElectionObservationContext}.
 */
public class DefaultLeaderElectionObservationConvention
		implements ObservationConvention<LeaderElectionObservationContext> {

	/** The instance {@link ObservationTracing} uses. */
	public static final DefaultLeaderElectionObservationConvention INSTANCE = new DefaultLeaderElectionObservationConvention();

	@Override
	public String getName() {
		return "operator.leader.election";
	}

	@Override
	public String getContextualName(LeaderElectionObservationContext context) {
		return "leader " + context.getTransition();
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(LeaderElectionObservationContext context) {
		return KeyValues.of("transition", context.getTransition());
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(LeaderElectionObservationContext context) {
		return KeyValues.of("lease", context.getLease(), "identity", context.getIdentity());
	}

	@Override
	public boolean supportsContext(Observation.Context context) {
		return context instanceof LeaderElectionObservationContext;
	}

}
