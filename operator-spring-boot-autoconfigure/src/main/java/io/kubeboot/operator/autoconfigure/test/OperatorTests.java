package io.kubeboot.operator.autoconfigure.test;

import io.kubeboot.operator.test.WithControlPlane;
import org.springframework.test.context.TestContextAnnotationUtils;
import org.springframework.util.ClassUtils;

/**
 * Which test classes the test support applies to: those annotated with
 * {@link WithControlPlane @WithControlPlane}, when {@code operator-spring-boot-test} is
 * on the class path.
 */
final class OperatorTests {

	private static final boolean TEST_SUPPORT_PRESENT = ClassUtils
		.isPresent("io.kubeboot.operator.test.WithControlPlane", OperatorTests.class.getClassLoader());

	private OperatorTests() {
	}

	static boolean isOperatorTest(Class<?> testClass) {
		return TEST_SUPPORT_PRESENT && TestContextAnnotationUtils.hasAnnotation(testClass, WithControlPlane.class);
	}

}
