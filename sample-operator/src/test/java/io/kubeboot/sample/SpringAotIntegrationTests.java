package io.kubeboot.sample;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The packaged sample, whose build ran Spring Boot's AOT processing
 * ({@code spring-boot:process-aot}), started as its image starts it, with
 * {@code -Dspring.aot.enabled=true}: the bean definitions generated at build time replace
 * the configuration classes, and the operator reconciles a bucket as without them.
 */
@WithControlPlane
class SpringAotIntegrationTests {

	private static final Duration RUN = Duration.ofMinutes(3);

	@Test
	void theAotProcessedOperatorReconciles(ControlPlane controlPlane, TestNamespace namespace) throws Exception {
		StorageBuckets.installCrd(controlPlane.adminClient());
		StorageBuckets buckets = new StorageBuckets(controlPlane.adminClient(), namespace.name());
		List<String> launcher = launcher();
		try (BucketEndpoint endpoint = BucketEndpoint.start();
				OperatorProcess operator = OperatorProcess.start(launcher, null, controlPlane.kubeconfig(),
						SampleArguments.replica(namespace, "aot-processed"))) {
			buckets.create("photos", endpoint.url());
			await().atMost(RUN).until(() -> buckets.availableStatus("photos").equals("True"));
			assertThat(operator.output())
				.anyMatch((line) -> line.contains("Starting AOT-processed SampleOperatorApplication"));
			assertThat(operator.output()).noneMatch((line) -> line.contains(" ERROR "));
		}
	}

	@Test
	void aPropertyThatDecidedTheBeansAtBuildTimeCannotChangeAtRunTime(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		List<String> launcher = launcher();
		String[] replica = SampleArguments.replica(namespace, "aot-secured-metrics");
		String[] arguments = Arrays.copyOf(replica, replica.length + 1);
		// as a chart's metrics.secure=true sets OPERATOR_METRICS_AUTH_ENABLED
		arguments[replica.length] = "--operator.metrics.auth.enabled=true";
		StorageBuckets.installCrd(controlPlane.adminClient());
		try (OperatorProcess operator = OperatorProcess.start(launcher, null, controlPlane.kubeconfig(), arguments)) {
			// without the check it would start, with unsecured metrics
			await().atMost(RUN)
				.until(() -> operator.logged("APPLICATION FAILED TO START") || operator.logged("Starting workers"));
			assertThat(operator.logged("Starting workers")).as("started despite the property").isFalse();
			assertThat(operator.waitForExit(RUN.toSeconds())).isNotZero();
			assertThat(String.join("\n", operator.output())).contains("Property: operator.metrics.auth.enabled")
				.contains("Reason: it is true here, but was false when spring-boot:process-aot generated the "
						+ "application's beans, and Spring AOT (-Dspring.aot.enabled=true) keeps the beans of the "
						+ "build: the property would be ignored")
				.doesNotContain("Starting workers");
		}
	}

	private static List<String> launcher() throws IOException {
		return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Dspring.aot.enabled=true",
				"-jar", AotCacheIntegrationTests.packagedJar().toAbsolutePath().toString());
	}

}
