package io.kubeboot.operator.autoconfigure.test;

import java.util.List;

import io.kubeboot.operator.test.ControlPlaneExtension;
import org.jspecify.annotations.Nullable;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;

/**
 * Connects the application context of a test class annotated with
 * {@link io.kubeboot.operator.test.WithControlPlane @WithControlPlane} to the local
 * control plane shared by the test JVM.
 */
class ControlPlaneContextCustomizerFactory implements ContextCustomizerFactory {

	@Override
	public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		return OperatorTests.isOperatorTest(testClass)
				? new ControlPlaneContextCustomizer(ControlPlaneExtension.kubernetesVersion(testClass)) : null;
	}

}
