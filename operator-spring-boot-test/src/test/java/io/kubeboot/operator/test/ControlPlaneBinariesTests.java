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

	@Test
	void theInstallScriptsLayoutGivesTheNewestVersionOrTheOneAskedFor() throws IOException {
		Path cache = Files.createDirectory(this.temp.resolve("cache"));
		for (String version : List.of("1.34.4", "1.37.2", "1.34.10", "1.36.3")) {
			Path directory = Files.createDirectories(cache.resolve("k8s").resolve(version + "-linux-amd64"));
			executable(directory.resolve("etcd"));
			executable(directory.resolve("kube-apiserver"));
		}
		// only etcd: skipped
		executable(Files.createDirectories(cache.resolve("k8s/1.38.0-linux-amd64")).resolve("etcd"));
		List<Candidate> candidates = List.of(new Candidate("test", cache));
		assertThat(locate(candidates, null).directory()).isEqualTo(cache.resolve("k8s/1.37.2-linux-amd64"));
		assertThat(locate(candidates, "1.34").directory()).isEqualTo(cache.resolve("k8s/1.34.10-linux-amd64"));
		assertThat(locate(candidates, "1.34.4").directory()).isEqualTo(cache.resolve("k8s/1.34.4-linux-amd64"));
		assertThatExceptionOfType(ControlPlaneException.class).isThrownBy(() -> locate(candidates, "1.33"))
			.withMessageContaining("of Kubernetes 1.33")
			.withMessageContaining("test (" + cache + "): no version 1.33 installed under k8s/")
			.withMessageContaining("run scripts/install-control-plane.sh 1.33.x");
	}

	@Test
	void aDirectoryOfAnotherVersionThanTheOneAskedForIsSkipped() throws IOException {
		Path assets = Files.createDirectory(this.temp.resolve("assets"));
		executable(assets.resolve("etcd"));
		executable(assets.resolve("kube-apiserver"));
		Path other = Files.createDirectory(this.temp.resolve("other"));
		executable(other.resolve("etcd"));
		executable(other.resolve("kube-apiserver"));
		List<Candidate> candidates = List.of(new Candidate("assets", assets), new Candidate("other", other));
		ControlPlaneBinaries binaries = ControlPlaneBinaries.locate(candidates, "1.34",
				(binary) -> KubernetesVersion.parse(binary.startsWith(assets) ? "v1.37.2" : "v1.34.4"));
		assertThat(binaries.directory()).isEqualTo(other.toAbsolutePath());
		assertThatExceptionOfType(ControlPlaneException.class)
			.isThrownBy(() -> ControlPlaneBinaries.locate(candidates.subList(0, 1), "1.34",
					(binary) -> KubernetesVersion.parse("v1.37.2")))
			.withMessageContaining("assets (" + assets + "): holds Kubernetes v1.37.2, not 1.34");
	}

	private static ControlPlaneBinaries locate(List<Candidate> candidates, String version) {
		return ControlPlaneBinaries.locate(candidates, version, (binary) -> {
			throw new AssertionError("no --version needed for " + binary);
		});
	}

	private static void executable(Path file) throws IOException {
		Files.writeString(file, "#!/bin/sh\n");
		Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
	}

}
