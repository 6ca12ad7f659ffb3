package io.kubeboot.operator.test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A JVM that ends without running its shutdown hooks leaves no control plane behind: no
 * process and no work directory.
 */
class ControlPlaneWorkDirectoryIntegrationTests {

	@TempDir
	Path work;

	@Test
	@EnabledOnOs(OS.LINUX)
	void haltedJvmLeavesNoProcessAndNoWorkDirectory() throws Exception {
		Path tmp = Files.createDirectory(this.work.resolve("tmp"));
		Path log = this.work.resolve("halted.log");
		Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"), HaltedJvm.class.getName())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
		List<String> output = Files.readAllLines(log, StandardCharsets.UTF_8);
		String workDir = output.stream()
			.filter((line) -> line.startsWith("work directory: "))
			.map((line) -> line.substring("work directory: ".length()))
			.findFirst()
			.orElseThrow(() -> new AssertionError("No control plane started:\n" + String.join("\n", output)));
		assertThat(process.exitValue()).isEqualTo(1);
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			assertThat(ProcessHandle.allProcesses()
				.filter((other) -> other.info().commandLine().orElse("").contains(workDir))).isEmpty();
			try (Stream<Path> left = Files.list(tmp)) {
				assertThat(left).isEmpty();
			}
		});
	}

}
