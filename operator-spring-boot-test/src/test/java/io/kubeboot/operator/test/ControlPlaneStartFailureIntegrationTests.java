package io.kubeboot.operator.test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Start failures of {@link ControlPlane} are reported with actionable messages and leave
 * nothing behind.
 */
class ControlPlaneStartFailureIntegrationTests {

	@Test
	void emptyBinaryDirectoryIsReportedWithInstallInstructions(@TempDir Path empty) throws IOException {
		List<Path> before = workDirs();
		assertThatExceptionOfType(ControlPlaneException.class)
			.isThrownBy(() -> ControlPlane.builder().binaryDirectory(empty).start())
			.withMessageContaining(empty + "): etcd is missing, kube-apiserver is missing")
			.withMessageContaining("scripts/install-control-plane.sh");
		assertThat(workDirs()).isEqualTo(before);
	}

	@Test
	void apiServerExitingEarlyIsReportedWithItsLog() throws IOException {
		List<Path> before = workDirs();
		assertThatExceptionOfType(ControlPlaneException.class)
			.isThrownBy(() -> ControlPlane.builder().apiServerFlag("--no-such-flag=1").start())
			.withMessageContaining("kube-apiserver exited with code")
			.withMessageContaining("kube-apiserver.log")
			.withMessageContaining("unknown flag: --no-such-flag");
		assertThat(workDirs()).isEqualTo(before);
		assertThat(ProcessHandle.current()
			.descendants()
			.filter(ProcessHandle::isAlive)
			.map(ProcessHandle::info)
			.filter((info) -> info.commandLine().orElse("").contains("kubeboot-control-plane-"))
			.filter((info) -> info.commandLine().orElse("").contains("no-such-flag"))).isEmpty();
	}

	private static List<Path> workDirs() throws IOException {
		try (Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
			return files.filter(Files::isDirectory)
				.filter((file) -> file.getFileName().toString().startsWith("kubeboot-control-plane-"))
				.sorted()
				.toList();
		}
	}

}
