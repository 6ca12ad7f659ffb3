package io.kubeboot.operator.autoconfigure.test;

import java.time.Instant;

import org.springframework.context.ApplicationContext;
import org.springframework.test.annotation.DirtiesContext.HierarchyMode;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.support.AbstractTestExecutionListener;
import org.springframework.util.ClassUtils;

/**
 * Keeps the operators of tests annotated with
 * {@link io.kubeboot.operator.test.WithControlPlane @WithControlPlane} from outliving
 * their test class, and turns a lost Lease into a test failure.
 * <ul>
 * <li>After such a test class, its application context is closed (as
 * {@code @DirtiesContext} would), so its operator stops, releasing its Lease, before the
 * next class starts and before the shared control plane stops at the end of the run. Left
 * in Spring's context cache, it would keep reconciling the objects of later tests and
 * hold the Lease that their operators campaign for, and a context that Spring pauses
 * cannot start its manager again.</li>
 * <li>If the operator lost its Lease, the test that runs (or the next one that uses the
 * context) fails with an {@link AssertionError}, and the context is closed so that the
 * next test gets a fresh one.</li>
 * </ul>
 */
class ControlPlaneTestExecutionListener extends AbstractTestExecutionListener {

	/**
	 * After Spring's own listeners' {@code before} methods, before their {@code after}
	 * methods.
	 */
	static final int ORDER = 10_000;

	@Override
	public int getOrder() {
		return ORDER;
	}

	@Override
	public void beforeTestMethod(TestContext testContext) {
		failIfLeaseLost(testContext);
	}

	@Override
	public void afterTestMethod(TestContext testContext) {
		failIfLeaseLost(testContext);
	}

	@Override
	public void afterTestClass(TestContext testContext) {
		Class<?> testClass = testContext.getTestClass();
		// a @Nested class shares the context of the class around it, which still runs
		if (OperatorTests.isOperatorTest(testClass) && !ClassUtils.isInnerClass(testClass)
				&& testContext.hasApplicationContext()) {
			testContext.markApplicationContextDirty(HierarchyMode.EXHAUSTIVE);
		}
	}

	private static void failIfLeaseLost(TestContext testContext) {
		if (!OperatorTests.isOperatorTest(testContext.getTestClass()) || !testContext.hasApplicationContext()) {
			return;
		}
		ApplicationContext context = testContext.getApplicationContext();
		LostLeaseInTest lostLease = context.getBeanProvider(LostLeaseInTest.class).getIfAvailable();
		Instant lostAt = (lostLease != null) ? lostLease.lostAt() : null;
		if (lostAt != null) {
			testContext.markApplicationContextDirty(HierarchyMode.EXHAUSTIVE);
			throw new AssertionError("The operator of this test's application context lost its Lease at " + lostAt
					+ " (see the log for the lease and why); a test never halts the JVM, so the context was "
					+ "closed instead and the next test gets a new one");
		}
	}

}
