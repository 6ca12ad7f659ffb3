package io.kubeboot.operator.micrometer;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names the observation of a leadership {@code operator.leader.election}, its span
 * {@code leadership} (from the Lease acquired to the leadership lost or stopped), with
 * the low-cardinality key {@code transition} ({@code acquired} while it lasts, then
 * {@code lost} or {@code stopped}) and the high-cardinality keys {@code lease}
 * ({@code namespace/name}: no series of the metrics names a namespace) and
 * {@code identity}. Replace it with a {@code GlobalObservationConvention} of
 * {@link LeaderElectionObservationContext}.
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
		return "leadership";
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
