package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.support.GenericApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An operator application with Spring Boot's structured console logs in the Elastic
 * Common Schema ({@code logging.structured.format.console=ecs}), against a real
 * kube-apiserver: every line logged during a reconcile, the reconciler's own and the
 * framework's error line, is one JSON object with the reconcile's MDC keys as fields.
 */
@WithControlPlane
@ExtendWith(OutputCaptureExtension.class)
class StructuredLogsIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	@Test
	void everyLineOfAReconcileCarriesItsControllerObjectAndReconcileIdAsEcsFields(ControlPlane controlPlane,
			TestNamespace namespace, CapturedOutput output) throws Exception {
		ApiClient client = controlPlane.adminClient();
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(LoggingApplication.class)
			.initializers((initialized) -> ((GenericApplicationContext) initialized).registerBean("kubernetesApiClient",
					ApiClient.class, () -> client))
			.run("--spring.main.web-application-type=none", "--spring.main.banner-mode=off",
					"--spring.application.name=shop-operator", "--logging.structured.format.console=ecs",
					"--operator.namespace=" + namespace)) {
			V1ConfigMap settings = new V1ConfigMap().metadata(new V1ObjectMeta().name("settings"));
			new CoreV1Api(client).createNamespacedConfigMap(namespace.name(), settings).execute();
			await().atMost(WAIT).until(() -> context.getBean(LoggingReconciler.class).reconciles.get() >= 2);
		}
		List<JsonObject> reconciling = lines(output, "Reconciling the settings");
		JsonObject error = lines(output,
				"Reconciler error: controller=configmap request=" + namespace + "/settings triggers=[created]")
			.get(0);
		assertThat(reconciling).hasSizeGreaterThanOrEqualTo(2);
		for (JsonObject line : List.of(reconciling.get(0), reconciling.get(1), error)) {
			assertThat(line.get("controller").getAsString()).isEqualTo("configmap");
			assertThat(line.get("namespace").getAsString()).isEqualTo(namespace.name());
			assertThat(line.get("name").getAsString()).isEqualTo("settings");
			assertThat(line.get("reconcileID").getAsString()).matches("[0-9a-f-]{36}");
			assertThat(line.getAsJsonObject("ecs").get("version").getAsString()).isNotBlank();
			assertThat(line.getAsJsonObject("service").get("name").getAsString()).isEqualTo("shop-operator");
		}
		// the failed reconcile's own line and the framework's report of it are one
		// reconcile
		assertThat(error.get("reconcileID")).isEqualTo(reconciling.get(0).get("reconcileID"));
		assertThat(error.getAsJsonObject("log").get("level").getAsString()).isEqualTo("ERROR");
		assertThat(error.getAsJsonObject("error").get("message").getAsString()).isEqualTo("the backend is down");
		// the retry is another reconcile
		assertThat(reconciling.get(1).get("reconcileID")).isNotEqualTo(reconciling.get(0).get("reconcileID"));
	}

	/**
	 * The JSON lines of the output whose message is the given one.
	 */
	private static List<JsonObject> lines(CapturedOutput output, String message) {
		List<JsonObject> lines = new ArrayList<>();
		for (String line : output.getOut().lines().toList()) {
			if (line.startsWith("{")) {
				JsonObject json = JsonParser.parseString(line).getAsJsonObject();
				if (json.has("message") && json.get("message").getAsString().equals(message)) {
					lines.add(json);
				}
			}
		}
		assertThat(lines).as("lines with the message %s", message).isNotEmpty();
		return lines;
	}

	/**
	 * Logs every reconcile, and fails the first.
	 */
	static class LoggingReconciler {

		private static final Logger logger = LoggerFactory.getLogger(LoggingReconciler.class);

		final AtomicInteger reconciles = new AtomicInteger();

		public Result reconcile(Request request) {
			logger.info("Reconciling the {}", request.name());
			if (this.reconciles.incrementAndGet() == 1) {
				throw new IllegalStateException("the backend is down");
			}
			return Result.done();
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class LoggingApplication {

		@Bean
		@Reconciles(V1ConfigMap.class)
		LoggingReconciler loggingReconciler() {
			return new LoggingReconciler();
		}

	}

}
