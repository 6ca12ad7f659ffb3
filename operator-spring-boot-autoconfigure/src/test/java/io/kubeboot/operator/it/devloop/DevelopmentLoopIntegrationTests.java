package io.kubeboot.operator.it.devloop;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The development loop: {@link TestGadgetOperatorApplication}, run as
 * {@code mvn spring-boot:test-run} runs it (a JVM of its own, with a temporary directory
 * of its own), starts a local control plane, applies the CRDs found at
 * {@code classpath*:META-INF/kubeboot/crds/*.yaml} before the manager starts, logs the
 * kubeconfig, reconciles what a user creates with it, and on Ctrl-C stops the operator
 * (releasing its Lease), then the control plane, leaving nothing behind.
 */
class DevelopmentLoopIntegrationTests {

	private static final Pattern READY = Pattern.compile(
			"Local control plane ready: server=(https://127\\.0\\.0\\.1:\\d+) kubeconfig=(\\S+) \\(use it with kubectl");

	@TempDir
	Path work;

	private Process process;

	@AfterEach
	void stop() throws InterruptedException {
		if (this.process != null && this.process.isAlive()) {
			this.process.destroyForcibly().waitFor();
		}
	}

	@Test
	void runsTheOperatorAgainstAThrowawayControlPlaneWithItsCrds() throws Exception {
		Path tmp = Files.createDirectory(this.work.resolve("tmp"));
		Path generated = Files.createDirectories(this.work.resolve("classes/META-INF/kubeboot/crds"));
		try (InputStream crd = getClass().getResourceAsStream("/devloop/gadgets-crd.yaml")) {
			Files.copy(crd, generated.resolve("gadgets.devloop.test.kubeboot.io.yaml"));
		}
		Path log = this.work.resolve("run.log");
		// in a session and process group of its own, as a terminal runs a command: a
		// Ctrl-C goes to the whole group. SIGINT handled as a terminal's command handles
		// it, even when this build was started in the background, which ignores it (and a
		// JVM started ignoring it never stops on it)
		List<String> command = new ArrayList<>(List.of("env", "--default-signal=INT", "setsid",
				Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Djava.io.tmpdir=" + tmp, "-cp",
				this.work.resolve("classes") + java.io.File.pathSeparator + System.getProperty("java.class.path"),
				TestGadgetOperatorApplication.class.getName(), "--server.port=0", "--server.address=127.0.0.1",
				"--operator.leader-election.enabled=true"));
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
		builder.environment().remove("KUBECONFIG");
		builder.environment().remove("OPERATOR_TEST_KEEP_CONTROL_PLANE");
		this.process = builder.start();

		Matcher ready = await().atMost(Duration.ofMinutes(2)).until(() -> {
			assertThat(this.process.isAlive()).as(() -> "the application exited:\n" + read(log)).isTrue();
			return READY.matcher(read(log));
		}, Matcher::find);
		Path kubeconfig = Path.of(ready.group(2));
		assertThat(kubeconfig).exists().startsWith(tmp.toRealPath());
		await().atMost(Duration.ofMinutes(2)).until(() -> read(log).contains("Starting workers"));
		String started = read(log);
		assertThat(started).contains("Applied CustomResourceDefinitions to the local control plane: "
				+ "crds=[gadgets.devloop.test.kubeboot.io] from=["
				+ generated.resolve("gadgets.devloop.test.kubeboot.io.yaml"));
		assertThat(started.indexOf("Applied CustomResourceDefinitions"))
			.isLessThan(started.indexOf("Starting manager"));

		// what a user does with kubectl --kubeconfig <the logged path>
		ApiClient client;
		try (Reader reader = Files.newBufferedReader(kubeconfig, StandardCharsets.UTF_8)) {
			client = ClientBuilder.kubeconfig(KubeConfig.loadKubeConfig(reader)).build();
		}
		assertThat(client.getBasePath()).isEqualTo(ready.group(1));
		DynamicKubernetesApi gadgets = new DynamicKubernetesApi("devloop.test.kubeboot.io", "v1", "gadgets", client);
		KubernetesApiResponse<DynamicKubernetesObject> created = gadgets
			.create(new DynamicKubernetesObject(JsonParser.parseString("""
					{"apiVersion": "devloop.test.kubeboot.io/v1", "kind": "Gadget",
					 "metadata": {"name": "blue-one", "namespace": "default"}, "spec": {"color": "blue"}}
					""").getAsJsonObject()));
		assertThat(created.isSuccess()).as(String.valueOf(created.getStatus())).isTrue();
		await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> {
			JsonObject gadget = gadgets.get("default", "blue-one").getObject().getRaw();
			assertThat(gadget.getAsJsonObject("status")).isNotNull();
			assertThat(gadget.getAsJsonObject("status").get("observedColor").getAsString()).isEqualTo("blue");
		});

		// Ctrl-C: SIGINT to the process group; etcd and kube-apiserver, in a group of
		// their own, go on until the operator has stopped and released its Lease
		new ProcessBuilder("kill", "-INT", "--", "-" + this.process.pid()).inheritIO().start().waitFor();
		assertThat(this.process.waitFor(2, TimeUnit.MINUTES)).as(() -> "still running:\n" + read(log)).isTrue();
		String output = read(log);
		assertThat(output).contains("Released leader lease", "Manager stopped")
			.doesNotContain("Could not release leader lease")
			.doesNotContain("List or watch failed");
		assertThat(output.indexOf("Manager stopped")).isGreaterThan(output.indexOf("Gadget reconciled"));
		// the watchdog of the ended JVM notices within a second that it is gone
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			try (Stream<Path> left = Files.list(tmp)) {
				assertThat(left).isEmpty();
			}
		});
	}

	private static String read(Path log) {
		try {
			return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
