package io.kubeboot.operator.starter;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the starter alone brings to a Spring Boot web application (this module's tests
 * have the starter and {@code spring-boot-starter-webmvc}, nothing else of ours or of
 * Actuator): the probes and {@code /actuator/prometheus} with controller-runtime's
 * series, with no property set but the cluster to talk to.
 */
@WithControlPlane
class StarterIntegrationTests {

	private final HttpClient http = HttpClient.newHttpClient();

	@Test
	void webApplicationWithTheStarterAnswersProbesAndPrometheus(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		ApiClient client = controlPlane.adminClient();
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(WebOperator.class)
			.initializers((initialized) -> ((GenericApplicationContext) initialized).registerBean("kubernetesApiClient",
					ApiClient.class, () -> client))
			.run("--server.port=0", "--server.address=127.0.0.1", "--operator.namespace=" + namespace,
					"--spring.main.banner-mode=off")) {
			int port = ((WebServerApplicationContext) context).getWebServer().getPort();
			await().atMost(Duration.ofSeconds(30)).until(() -> get(port, "/readyz").statusCode() == 200);
			assertThat(get(port, "/healthz").statusCode()).isEqualTo(200);
			assertThat(get(port, "/actuator/health/liveness").body()).isEqualTo("{\"status\":\"UP\"}");
			assertThat(get(port, "/actuator/health/readiness").body()).isEqualTo("{\"status\":\"UP\"}");
			// Spring Boot's default shows no components: the operator's needs
			// management.endpoint.health.show-components or show-details
			assertThat(get(port, "/actuator/health").body())
				.isEqualTo("{\"groups\":[\"liveness\",\"readiness\"],\"status\":\"UP\"}");
			HttpResponse<String> prometheus = get(port, "/actuator/prometheus");
			assertThat(prometheus.statusCode()).isEqualTo(200);
			assertThat(prometheus.body())
				.contains("controller_runtime_reconcile_total{controller=\"configmap\",result=\"success\"}")
				.contains("workqueue_depth{controller=\"configmap\",name=\"configmap\",priority=\"0\"}")
				.contains("rest_client_requests_total{");
		}
	}

	private HttpResponse<String> get(int port, String path) throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class WebOperator {

		/**
		 * Registered as component scanning would: {@code @Reconciles} is a
		 * {@code @Component}, and one nested in a configuration class is registered.
		 */
		@Reconciles(V1ConfigMap.class)
		static class ConfigMapReconciler {

			Result reconcile(Request request) {
				return Result.done();
			}

		}

	}

}
