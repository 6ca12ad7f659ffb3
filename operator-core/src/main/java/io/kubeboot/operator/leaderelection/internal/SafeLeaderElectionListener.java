package io.kubeboot.operator.leaderelection.internal;

import io.kubeboot.operator.leaderelection.LeaderElectionListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Guards the election thread against a listener that throws: the exception is logged and
 * the election goes on.
 */
public final class SafeLeaderElectionListener implements LeaderElectionListener {

	private static final Logger logger = LoggerFactory.getLogger(SafeLeaderElectionListener.class);

	private final LeaderElectionListener delegate;

	/**
	 * Wraps a listener.
	 * @param delegate the listener to call
	 */
	public SafeLeaderElectionListener(LeaderElectionListener delegate) {
		this.delegate = delegate;
	}

	@Override
	public void startedLeading(String identity) {
		call(() -> this.delegate.startedLeading(identity), "startedLeading");
	}

	@Override
	public void stoppedLeading(String identity, boolean lost) {
		call(() -> this.delegate.stoppedLeading(identity, lost), "stoppedLeading");
	}

	@Override
	public void newLeader(String holder) {
		call(() -> this.delegate.newLeader(holder), "newLeader");
	}

	private static void call(java.lang.Runnable callback, String name) {
		try {
			callback.run();
		}
		catch (RuntimeException ex) {
			logger.error("Leader election listener failed, ignored: callback={}", name, ex);
		}
	}

}
