package io.kubeboot.operator.autoconfigure.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;

import io.kubeboot.operator.autoconfigure.KubernetesConnectionDetails;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.ControlPlaneExtension;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Registers the {@link KubernetesConnectionDetails} of the shared control plane (starting
 * it if needed, and applying the CRDs of
 * {@code operator.local-control-plane.crd-locations} to it) and the
 * {@link LostLeaseInTest} policy in a test's application context, serves its webhooks
 * self-signed on a free port ({@link LocalControlPlaneWebhookDefaults}) and points the
 * CRDs it converts at them ({@link LocalControlPlaneConversions}). Instances of one
 * Kubernetes version are equal, so test classes that differ in nothing else share a
 * cached context.
 */
class ControlPlaneContextCustomizer implements ContextCustomizer {

	static final String CONNECTION_DETAILS_BEAN = "operatorTestControlPlaneConnectionDetails";

	static final String LOST_LEASE_BEAN = "operatorTestLostLease";

	static final String CONVERSIONS_BEAN = "operatorTestLocalControlPlaneConversions";

	private final String kubernetesVersion;

	ControlPlaneContextCustomizer(String kubernetesVersion) {
		this.kubernetesVersion = kubernetesVersion;
	}

	@Override
	public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
		ControlPlane controlPlane = ControlPlaneExtension.controlPlane(this.kubernetesVersion);
		// before the manager starts: its kinds must be served
		LocalControlPlaneCrds.apply(controlPlane, context.getEnvironment(), context, false);
		String kubeconfig = read(controlPlane);
		ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
		beanFactory.registerSingleton(CONNECTION_DETAILS_BEAN, new ControlPlaneConnectionDetails(kubeconfig));
		beanFactory.registerSingleton(LOST_LEASE_BEAN, new LostLeaseInTest());
		context.addBeanFactoryPostProcessor(new LocalControlPlaneWebhookDefaults(context.getEnvironment()));
		beanFactory.registerSingleton(CONVERSIONS_BEAN,
				new LocalControlPlaneConversions(controlPlane.adminClient(), beanFactory));
	}

	static String read(ControlPlane controlPlane) {
		try {
			return Files.readString(controlPlane.kubeconfig(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read the kubeconfig of " + controlPlane, ex);
		}
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return other != null && other.getClass() == getClass()
				&& ((ControlPlaneContextCustomizer) other).kubernetesVersion.equals(this.kubernetesVersion);
	}

	@Override
	public int hashCode() {
		return this.kubernetesVersion.hashCode();
	}

	/**
	 * The admin user's kubeconfig of a local control plane.
	 */
	record ControlPlaneConnectionDetails(String kubeconfig) implements KubernetesConnectionDetails {

		@Override
		public String toString() {
			return "ControlPlaneConnectionDetails[local control plane of operator-spring-boot-test]";
		}

	}

}
