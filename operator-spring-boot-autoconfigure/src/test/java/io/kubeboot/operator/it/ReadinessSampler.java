package io.kubeboot.operator.it;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import io.kubeboot.operator.healthz.CheckResult;
import io.kubeboot.operator.manager.ManagerHealth;

/**
 * Samples readiness every 50 ms in the background, to tell whether it ever failed and
 * why.
 */
final class ReadinessSampler implements AutoCloseable {

	private final AtomicBoolean notReady = new AtomicBoolean();

	private final Set<String> failures = ConcurrentHashMap.newKeySet();

	private final Thread thread;

	ReadinessSampler(ManagerHealth health) {
		this.thread = new Thread(() -> {
			while (!Thread.currentThread().isInterrupted()) {
				List<CheckResult> readiness = health.readiness();
				if (!ManagerHealth.allPassed(readiness)) {
					this.notReady.set(true);
					this.failures.add(ManagerHealth.failures(readiness));
				}
				try {
					Thread.sleep(50);
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		}, "readiness-sampler");
		this.thread.setDaemon(true);
		this.thread.start();
	}

	boolean sawNotReady() {
		return this.notReady.get();
	}

	Set<String> failures() {
		return this.failures;
	}

	@Override
	public void close() throws InterruptedException {
		this.thread.interrupt();
		this.thread.join();
	}

}
