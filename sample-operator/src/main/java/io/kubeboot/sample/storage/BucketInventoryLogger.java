package io.kubeboot.sample.storage;

import java.time.Duration;

import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerRunnable;
import io.kubeboot.operator.manager.StopSignal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Logs how many buckets the cache holds, and how many are available, every
 * {@code sample.buckets.inventory-interval}, on every replica. A {@link ManagerRunnable}
 * bean is started and stopped by the manager; this one opts out of leader election, so a
 * standby logs too, which shows that its cache is warm and ready for a takeover.
 */
@Component
class BucketInventoryLogger implements ManagerRunnable {

	private static final Logger logger = LoggerFactory.getLogger(BucketInventoryLogger.class);

	private final BucketInventory inventory;

	private final Manager manager;

	private final Duration interval;

	BucketInventoryLogger(BucketInventory inventory, Manager manager, BucketProperties properties) {
		this.inventory = inventory;
		this.manager = manager;
		this.interval = properties.inventoryInterval();
	}

	@Override
	public void start(StopSignal stop) throws InterruptedException {
		// a stop-aware sleep: returns true, ending the loop, as soon as the manager stops
		while (!stop.await(this.interval)) {
			BucketInventory.Counts counts = this.inventory.count();
			logger.info("Bucket inventory: buckets={} available={} unavailable={} leader={}", counts.buckets(),
					counts.available(), counts.unavailable(), this.manager.isLeader());
		}
	}

	@Override
	public boolean needsLeaderElection() {
		return false;
	}

}
