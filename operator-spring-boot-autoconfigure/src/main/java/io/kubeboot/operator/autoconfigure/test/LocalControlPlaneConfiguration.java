package io.kubeboot.operator.autoconfigure.test;

import java.time.Duration;

import io.kubeboot.operator.autoconfigure.KubernetesConnectionDetails;
import io.kubeboot.operator.test.ControlPlane;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;

/**
 * Runs an application against a throwaway local control plane (etcd and kube-apiserver of
 * {@code operator-spring-boot-test}): the development loop, Spring Boot's way of running
 * an application with development-time services. Put a test application next to your
 * tests and run it with {@code mvn spring-boot:test-run} (or from the IDE):
 *
 * <pre class="code">
 * public class TestMyOperatorApplication {
 *
 *     public static void main(String[] args) {
 *         SpringApplication.from(MyOperatorApplication::main)
 *             .with(LocalControlPlaneConfiguration.class)
 *             .run(args);
 *     }
 *
 * }
 * </pre>
 *
 * The control plane starts with the application context, before anything reaches the API
 * server. The CRDs named by {@code operator.local-control-plane.crd-locations} (default:
 * the generated ones, {@code classpath*:META-INF/kubeboot/crds/*.yaml}) are applied and
 * established before the manager starts, the operator connects through a
 * {@link KubernetesConnectionDetails} bean, and the log names the admin kubeconfig for
 * {@code kubectl}. Webhooks are served self-signed on a free port of 127.0.0.1 unless
 * {@code operator.webhook.self-signed=false} or {@code operator.webhook.cert-dir} alone
 * is set, and the CRDs of the application's {@code Conversion} beans are pointed at them.
 * When the context closes, after the manager stopped, the control plane stops and its
 * files are deleted.
 * <p>
 * For the main method of a test application only: a {@code @SpringBootTest} annotated
 * with {@link io.kubeboot.operator.test.WithControlPlane @WithControlPlane} gets the
 * shared control plane of the test run, with the same CRDs applied, without it.
 */
@Configuration(proxyBeanMethods = false)
public class LocalControlPlaneConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(LocalControlPlaneConfiguration.class);

	/**
	 * How long the control plane may outlive a request to exit the JVM, for the
	 * application context to stop the operator and then close it.
	 */
	private static final Duration EXIT_GRACE = Duration.ofMinutes(2);

	/**
	 * The local control plane, stopped when the application context closes.
	 * @return the running control plane
	 */
	@Bean(destroyMethod = "close")
	ControlPlane operatorLocalControlPlane() {
		// on Ctrl-C the operator stops (releasing its Lease) before the control plane
		return ControlPlane.builder().exitGrace(EXIT_GRACE).start();
	}

	/**
	 * Serves the application's webhooks self-signed on a free port of 127.0.0.1, unless
	 * it chose their certificate.
	 * @param environment the environment
	 * @return the post-processor that adds the defaults
	 */
	@Bean
	static BeanFactoryPostProcessor operatorLocalControlPlaneWebhookDefaults(ConfigurableEnvironment environment) {
		return new LocalControlPlaneWebhookDefaults(environment);
	}

	/**
	 * Points the CRDs the application converts at its webhook server.
	 * @param controlPlane the control plane
	 * @param beanFactory the bean factory, for the webhook server and the conversions
	 * @return the lifecycle that points them
	 */
	@Bean
	LocalControlPlaneConversions operatorLocalControlPlaneConversions(ControlPlane controlPlane,
			ConfigurableListableBeanFactory beanFactory) {
		return new LocalControlPlaneConversions(controlPlane.adminClient(), beanFactory);
	}

	/**
	 * The connection details of the control plane's admin user, once the CRDs are
	 * established.
	 * @param controlPlane the control plane
	 * @param environment the environment
	 * @param resourceLoader the resource loader
	 * @return the connection details
	 */
	@Bean
	KubernetesConnectionDetails operatorLocalControlPlaneConnectionDetails(ControlPlane controlPlane,
			Environment environment, ResourceLoader resourceLoader) {
		LocalControlPlaneCrds.apply(controlPlane, environment, resourceLoader, true);
		logger.info(
				"Local control plane ready: server={} kubeconfig={} (use it with kubectl --kubeconfig; "
						+ "deleted when the application stops)",
				controlPlane.apiServerUrl(), controlPlane.kubeconfig());
		return new ControlPlaneContextCustomizer.ControlPlaneConnectionDetails(
				ControlPlaneContextCustomizer.read(controlPlane));
	}

}
