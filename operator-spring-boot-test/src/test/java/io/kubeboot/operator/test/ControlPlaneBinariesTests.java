package io.kubeboot.operator.test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import io.kubeboot.operator.test.ControlPlaneBinaries.Candidate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for the binary lookup of {@link ControlPlaneBinaries}, without real environment
 * variables.
 */
class ControlPlaneBinariesTests {

	@TempDir
	Path temp;

	@Test
	void emptyAssetDirectoryFailsWithInstructions() throws IOException {
		Path empty = Files.createDirectory(this.temp.resolve("assets"));
		Path home = Files.createDirectory(this.temp.resolve("home"));
		List<Candidate> candidates = ControlPlaneBinaries.candidates(Map.of("KUBEBUILDER_ASSETS", empty.toString()),
				new Properties(), home);
		assertThatExceptionOfType(ControlPlaneException.class).isThrownBy(() -> ControlPlaneBinaries.locate(candidates))
			.withMessageContaining("'etcd' and 'kube-apiserver'")
			.withMessageContaining("environment variable KUBEBUILDER_ASSETS (" + empty + "): etcd is missing, "
					+ "kube-apiserver is missing")
			.withMessageContaining("system property OPERATOR_CONTROL_PLANE_DIR: not set")
			.withMessageContaining("environment variable OPERATOR_CONTROL_PLANE_DIR: not set")
			.withMessageContaining("default cache directory ("
					+ home.resolve(".cache/operator-spring-boot/control-plane") + "): no such directory")
			.withMessageContaining("run scripts/install-control-plane.sh from the project root")
			.withMessageContaining("or set KUBEBUILDER_ASSETS");
	}

	@Test
	void directoryWithOnlyOneBinaryIsSkipped() throws IOException {
		Path partial = Files.createDirectory(this.temp.resolve("partial"));
		executable(partial.resolve("etcd"));
		Path complete = Files.createDirectory(this.temp.resolve("complete"));
		executable(complete.resolve("etcd"));
		executable(complete.resolve("kube-apiserver"));
		Properties properties = new Properties();
		properties.setProperty("OPERATOR_CONTROL_PLANE_DIR", complete.toString());
		ControlPlaneBinaries binaries = ControlPlaneBinaries.locate(ControlPlaneBinaries
			.candidates(Map.of("KUBEBUILDER_ASSETS", partial.toString()), properties, this.temp));
		assertThat(binaries.directory()).isEqualTo(complete.toAbsolutePath());
		assertThat(binaries.etcd()).isEqualTo(complete.resolve("etcd").toAbsolutePath());
		assertThat(binaries.kubeApiServer()).isEqualTo(complete.resolve("kube-apiserver").toAbsolutePath());
	}

	@Test
	void nonExecutableBinaryIsReported() throws IOException {
		Path dir = Files.createDirectory(this.temp.resolve("dir"));
		executable(dir.resolve("etcd"));
		Files.writeString(dir.resolve("kube-apiserver"), "");
		assertThatExceptionOfType(ControlPlaneException.class)
			.isThrownBy(() -> ControlPlaneBinaries.locate(List.of(new Candidate("test", dir))))
			.withMessageContaining("kube-apiserver is not executable");
	}

	@Test
	void lookupOrderIsAssetsThenPropertyThenEnvironmentThenCache() {
		Properties properties = new Properties();
		properties.setProperty("OPERATOR_CONTROL_PLANE_DIR", "/b");
		List<Candidate> candidates = ControlPlaneBinaries.candidates(
				Map.of("KUBEBUILDER_ASSETS", "/a", "OPERATOR_CONTROL_PLANE_DIR", "/c"), properties, Path.of("/home/u"));
		assertThat(candidates).extracting(Candidate::directory)
			.containsExactly(Path.of("/a"), Path.of("/b"), Path.of("/c"),
					Path.of("/home/u/.cache/operator-spring-boot/control-plane"));
	}

	private static void executable(Path file) throws IOException {
		Files.writeString(file, "#!/bin/sh\n");
		Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
	}

}
