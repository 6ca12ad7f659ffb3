package io.kubeboot.operator.it.boot;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.kubeboot.operator.autoconfigure.LeadershipEvent;
import io.kubeboot.operator.it.example.ExampleOperatorApplication;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code @SpringBootTest} classes annotated with {@code @WithControlPlane}, run in a JVM
 * of their own as Surefire runs them, with a temporary directory of their own: the
 * example of {@code docs/guides/testing.md}, with leader election on, passes twice in one
 * JVM beside a class with another context configuration; a lost Lease fails its test
 * instead of halting the JVM; and the run leaves nothing in the temporary directory.
 */
class SpringBootTestRunIntegrationTests {

	private static final String DOCS_EXAMPLE = "io.kubeboot.operator.it.example.ConfigMapSecretReconcilerIntegrationTests";

	private static final Duration RUN_TIMEOUT = Duration.ofMinutes(5);

	@TempDir
	Path work;

	@Test
	void docsExamplePassesTwiceInOneJvmBesideAnotherContextAndLeavesNothingBehind() throws Exception {
		Path tmp = Files.createDirectory(this.work.resolve("tmp"));
		List<String> output = run(tmp, DOCS_EXAMPLE + "," + OtherContext.class.getName(), DOCS_EXAMPLE);
		assertThat(output).as(String.join("\n", output))
			.contains("JUnitRun execution 1: found=2 succeeded=2 failed=0",
					"JUnitRun execution 2: found=1 succeeded=1 failed=0", JUnitRun.FINISHED)
			.noneMatch((line) -> line.contains("Leader election lost"));
		assertNothingLeftIn(tmp);
	}

	@Test
	void lostLeaseFailsItsTestAndTheNextTestGetsAFreshContextWithoutHaltingTheJvm() throws Exception {
		Path tmp = Files.createDirectory(this.work.resolve("tmp"));
		List<String> output = run(tmp, LeaseTakenOver.class.getName());
		assertThat(output).as(String.join("\n", output))
			.contains("JUnitRun execution 1: found=2 succeeded=1 failed=1", JUnitRun.FINISHED)
			.anyMatch((line) -> line.startsWith("JUnitRun failure: leaseTakenOverByAnotherHolder(")
					&& line.contains("lost its Lease"))
			.anyMatch((line) -> line.contains("Leader election lost in a test: the JVM is not halted"));
		assertNothingLeftIn(tmp);
	}

	private List<String> run(Path tmp, String... executions) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Djava.io.tmpdir=" + tmp,
						"-cp", System.getProperty("java.class.path"), JUnitRun.class.getName()));
		command.addAll(List.of(executions));
		Path log = this.work.resolve("run.log");
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
		builder.environment().remove("OPERATOR_TEST_KEEP_CONTROL_PLANE");
		builder.environment().remove("KUBECONFIG");
		Process process = builder.start();
		if (!process.waitFor(RUN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
			process.destroyForcibly().waitFor();
		}
		List<String> output = Files.readAllLines(log, StandardCharsets.UTF_8);
		assertThat(process.exitValue()).as("exit status of the test JVM; its output:\n" + String.join("\n", output))
			.isZero();
		return output;
	}

	private static void assertNothingLeftIn(Path tmp) {
		// the watchdog of the ended JVM notices within a second that it is gone
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			try (Stream<Path> left = Files.list(tmp)) {
				assertThat(left).isEmpty();
			}
		});
	}

	/**
	 * The documentation's example application with another context configuration.
	 */
	@SpringBootTest(classes = ExampleOperatorApplication.class,
			properties = { "operator.leader-election.enabled=true", "operator.controller.max-concurrent-reconciles=2" })
	@WithControlPlane
	static class OtherContext {

		@Autowired
		Manager manager;

		@Test
		void leads() {
			await().atMost(Duration.ofSeconds(30)).until(this.manager::isLeader);
		}

	}

	/**
	 * Another holder takes the Lease over while the first test runs.
	 */
	@SpringBootTest(classes = { ExampleOperatorApplication.class, LeaseTakenOver.Events.class },
			properties = { "operator.leader-election.enabled=true", "operator.leader-election.lease-name=taken-over",
					"operator.leader-election.lease-duration=3s", "operator.leader-election.renew-deadline=2s",
					"operator.leader-election.retry-period=500ms" })
	@WithControlPlane
	@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
	static class LeaseTakenOver {

		static Manager first;

		@Autowired
		Manager manager;

		@Autowired
		Events events;

		@Test
		@Order(1)
		void leaseTakenOverByAnotherHolder(ApiClient admin) throws Exception {
			first = this.manager;
			await().atMost(Duration.ofSeconds(30)).until(this.manager::isLeader);
			CoordinationV1Api leases = new CoordinationV1Api(admin);
			// read and replaced again when a renewal lands in between (409)
			await().atMost(Duration.ofSeconds(30)).ignoreException(ApiException.class).until(() -> {
				V1Lease lease = leases.readNamespacedLease("taken-over", "default").execute();
				lease.getSpec().holderIdentity("another-holder").renewTime(OffsetDateTime.now());
				leases.replaceNamespacedLease("taken-over", "default", lease).execute();
				return true;
			});
			await().atMost(Duration.ofSeconds(30))
				.until(() -> this.events.stopped.stream().anyMatch(LeadershipEvent.StoppedLeading::isLost));
		}

		@Test
		@Order(2)
		void nextTestGetsAFreshContext() {
			assertThat(this.manager).isNotSameAs(first);
			await().atMost(Duration.ofSeconds(30)).until(this.manager::isLeader);
		}

		@Configuration(proxyBeanMethods = false)
		static class Events {

			final List<LeadershipEvent.StoppedLeading> stopped = new CopyOnWriteArrayList<>();

			@EventListener
			void stopped(LeadershipEvent.StoppedLeading event) {
				this.stopped.add(event);
			}

		}

	}

}
