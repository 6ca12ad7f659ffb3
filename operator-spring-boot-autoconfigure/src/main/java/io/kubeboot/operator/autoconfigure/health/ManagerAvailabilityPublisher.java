package io.kubeboot.operator.autoconfigure.health;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.kubeboot.operator.autoconfigure.ManagerLifecycle;
import io.kubeboot.operator.healthz.CheckResult;
import io.kubeboot.operator.manager.ManagerHealth;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.ContextClosedEvent;

/**
 * Maps the manager's health onto Spring Boot's availability states, which Actuator's
 * {@code liveness} and {@code readiness} probe groups report: while a liveness check
 * fails, {@link LivenessState#BROKEN}; while a readiness check fails,
 * {@link ReadinessState#REFUSING_TRAFFIC}. It only undoes the states it set itself, so
 * the application's own transitions (such as Boot refusing traffic on shutdown) are never
 * overridden; it stops as soon as the context closes. The checks run every
 * {@code operator.health.probe-interval} on one daemon thread.
 */
class ManagerAvailabilityPublisher implements SmartLifecycle, ApplicationListener<ContextClosedEvent> {

	private static final Logger logger = LoggerFactory.getLogger(ManagerAvailabilityPublisher.class);

	private final ManagerHealth health;

	private final ApplicationAvailability availability;

	private final ApplicationEventPublisher publisher;

	private final Duration interval;

	private volatile @Nullable ScheduledExecutorService executor;

	private volatile boolean closing;

	private boolean brokeLiveness;

	private boolean refusedTraffic;

	ManagerAvailabilityPublisher(ManagerHealth health, ApplicationAvailability availability,
			ApplicationEventPublisher publisher, Duration interval) {
		this.health = health;
		this.availability = availability;
		this.publisher = publisher;
		this.interval = interval;
	}

	@Override
	public void start() {
		ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor((runnable) -> {
			Thread thread = new Thread(runnable, "operator-health");
			thread.setDaemon(true);
			return thread;
		});
		scheduler.scheduleWithFixedDelay(this::evaluate, 0, this.interval.toMillis(), TimeUnit.MILLISECONDS);
		this.executor = scheduler;
	}

	@Override
	public void stop() {
		ScheduledExecutorService scheduler = this.executor;
		if (scheduler != null) {
			scheduler.shutdownNow();
			this.executor = null;
		}
	}

	@Override
	public boolean isRunning() {
		return this.executor != null;
	}

	@Override
	public int getPhase() {
		return ManagerLifecycle.PHASE + 1; // starts after the manager, stops before it
	}

	@Override
	public void onApplicationEvent(ContextClosedEvent event) {
		this.closing = true;
	}

	synchronized void evaluate() {
		if (this.closing) {
			return;
		}
		try {
			List<CheckResult> liveness = this.health.liveness();
			if (!ManagerHealth.allPassed(liveness)) {
				if (this.availability.getLivenessState() != LivenessState.BROKEN) {
					logger.error("Operator is not live: {}", ManagerHealth.failures(liveness));
					AvailabilityChangeEvent.publish(this.publisher, this, LivenessState.BROKEN);
					this.brokeLiveness = true;
				}
			}
			else if (this.brokeLiveness) {
				logger.info("Operator is live again");
				AvailabilityChangeEvent.publish(this.publisher, this, LivenessState.CORRECT);
				this.brokeLiveness = false;
			}
			List<CheckResult> readiness = this.health.readiness();
			if (!ManagerHealth.allPassed(readiness)) {
				if (this.availability.getReadinessState() != ReadinessState.REFUSING_TRAFFIC) {
					logger.warn("Operator is not ready: {}", ManagerHealth.failures(readiness));
					AvailabilityChangeEvent.publish(this.publisher, this, ReadinessState.REFUSING_TRAFFIC);
					this.refusedTraffic = true;
				}
			}
			else if (this.refusedTraffic) {
				logger.info("Operator is ready again");
				AvailabilityChangeEvent.publish(this.publisher, this, ReadinessState.ACCEPTING_TRAFFIC);
				this.refusedTraffic = false;
			}
		}
		catch (RuntimeException ex) {
			logger.warn("Evaluating the operator's health failed", ex);
		}
	}

}
