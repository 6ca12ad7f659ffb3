package io.kubeboot.operator.manager;

import io.kubeboot.operator.leaderelection.LeaderElectionListener;
import io.kubeboot.operator.tracing.OperatorTracing;

/**
 * Records every leader transition of this replica with {@link OperatorTracing}, before
 * telling the application's listener.
 */
final class TracedLeaderElectionListener implements LeaderElectionListener {

	private final LeaderElectionListener listener;

	private final OperatorTracing tracing;

	private final String lease;

	TracedLeaderElectionListener(LeaderElectionListener listener, OperatorTracing tracing, String lease) {
		this.listener = listener;
		this.tracing = tracing;
		this.lease = lease;
	}

	@Override
	public void startedLeading(String identity) {
		record(identity, "acquired");
		this.listener.startedLeading(identity);
	}

	@Override
	public void stoppedLeading(String identity, boolean lost) {
		record(identity, lost ? "lost" : "stopped");
		this.listener.stoppedLeading(identity, lost);
	}

	@Override
	public void newLeader(String holder) {
		this.listener.newLeader(holder);
	}

	private void record(String identity, String transition) {
		if (!this.tracing.isNoop()) {
			this.tracing.leaderTransition(this.lease, identity, transition);
		}
	}

}
