package io.kubeboot.operator.autoconfigure;

import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LeaderElectionListener;
import org.springframework.context.ApplicationEventPublisher;

/**
 * Publishes leadership transitions as {@link LeadershipEvent application events}.
 */
final class LeadershipEventPublisher implements LeaderElectionListener {

	private final ApplicationEventPublisher publisher;

	private final LeaderElectionConfig config;

	LeadershipEventPublisher(ApplicationEventPublisher publisher, LeaderElectionConfig config) {
		this.publisher = publisher;
		this.config = config;
	}

	@Override
	public void startedLeading(String identity) {
		this.publisher.publishEvent(new LeadershipEvent.StartedLeading(this.config, identity));
	}

	@Override
	public void stoppedLeading(String identity, boolean lost) {
		this.publisher.publishEvent(new LeadershipEvent.StoppedLeading(this.config, identity, lost));
	}

	@Override
	public void newLeader(String holder) {
		this.publisher.publishEvent(new LeadershipEvent.NewLeader(this.config, holder));
	}

}
