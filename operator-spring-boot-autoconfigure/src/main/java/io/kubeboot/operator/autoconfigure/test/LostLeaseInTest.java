package io.kubeboot.operator.autoconfigure.test;

import java.time.Instant;

import io.kubeboot.operator.autoconfigure.ManagerBuilderCustomizer;
import io.kubeboot.operator.manager.ManagerBuilder;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;

/**
 * What a lost Lease does in a test: instead of halting the JVM (the {@code exit} policy's
 * action, which would end the test run without a report), it is logged and remembered,
 * and {@link ControlPlaneTestExecutionListener} fails the test and closes the context.
 * Applied after the application's own customizers.
 */
class LostLeaseInTest implements ManagerBuilderCustomizer, Ordered {

	private static final Logger logger = LoggerFactory.getLogger(LostLeaseInTest.class);

	private volatile @Nullable Instant lostAt;

	@Override
	public void customize(ManagerBuilder builder) {
		builder.onLostLeaseExit(this::leaseLost);
	}

	private void leaseLost() {
		this.lostAt = Instant.now();
		logger.error("Leader election lost in a test: the JVM is not halted; the test fails and its "
				+ "application context is closed");
	}

	/**
	 * Returns when the Lease was lost, if it was.
	 * @return the time of the loss, or {@code null}
	 */
	@Nullable Instant lostAt() {
		return this.lostAt;
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
