package io.kubeboot.operator.it;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/**
 * An operator as a user writes one, a web application with Actuator and a reconciler,
 * started in a JVM of its own by {@link StartupFailureIntegrationTests} with the
 * environment each test needs.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class StartupFailureApplication {

	public static void main(String[] args) {
		SpringApplication.run(StartupFailureApplication.class, args);
	}

	/**
	 * A bean as component scanning would find it: {@code @Reconciles} is a
	 * {@code @Component}, and a component nested in a configuration class is registered.
	 */
	@Reconciles(V1ConfigMap.class)
	static class ConfigMapReconciler {

		Result reconcile(Request request) {
			return Result.done();
		}

	}

}
