package io.kubeboot.operator.test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.VersionInfo;
import io.kubernetes.client.openapi.apis.VersionApi;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The control plane runs the Kubernetes version asked for, on the newest and the oldest
 * supported minor alike: the README's test command runs this class on both.
 */
@WithControlPlane
class ControlPlaneVersionsIntegrationTests {

	/** The versions the project is tested on, as the install script reads them. */
	private static final Path VERSIONS = Path.of("..", "scripts", "control-plane", "versions.env");

	@Test
	void theSharedControlPlaneRunsTheVersionAskedFor(ControlPlane controlPlane) throws Exception {
		String asked = System.getenv(ControlPlane.VERSION_PROPERTY);
		KubernetesVersion version = controlPlane.kubernetesVersion();
		if (asked != null && !asked.isBlank()) {
			assertThat(ControlPlaneBinaries.matches(version, asked)).as("%s is %s", version, asked).isTrue();
		}
		else {
			assertThat(version).isEqualTo(KubernetesVersion.parse(versions().getProperty("KUBERNETES_NEWEST")));
		}
		VersionInfo info = new VersionApi(controlPlane.adminClient()).getCode().execute();
		assertThat(info.getGitVersion()).isEqualTo(version.gitVersion());
		assertThat(info.getMinor()).isEqualTo(String.valueOf(version.minor()));
	}

	@Test
	void aControlPlaneOfTheOtherTestedVersionStartsFromItsAssetsDirectory(ControlPlane shared) throws Exception {
		Properties versions = versions();
		KubernetesVersion newest = KubernetesVersion.parse(versions.getProperty("KUBERNETES_NEWEST"));
		KubernetesVersion oldest = KubernetesVersion.parse(versions.getProperty("KUBERNETES_OLDEST"));
		KubernetesVersion other = (shared.kubernetesVersion().minor() == newest.minor()) ? oldest : newest;
		String release = other.major() + "." + other.minor() + "." + other.patch();
		// the directory KUBEBUILDER_ASSETS would name: etcd and kube-apiserver of one
		// version
		Path assets = ControlPlaneBinaries.locate(release).directory();
		try (ControlPlane controlPlane = ControlPlane.builder().binaryDirectory(assets).start()) {
			assertThat(controlPlane.kubernetesVersion()).isEqualTo(other);
			assertThat(controlPlane.binaryDirectory()).isEqualTo(assets);
			CoreV1Api api = new CoreV1Api(controlPlane.adminClient());
			V1ConfigMap created = api
				.createNamespacedConfigMap("default",
						new V1ConfigMap().metadata(new V1ObjectMeta().name("versions")).data(Map.of("k", "v")))
				.execute();
			assertThat(api.readNamespacedConfigMap("versions", "default").execute().getData())
				.isEqualTo(created.getData());
		}
	}

	@Test
	void aSharedControlPlaneOfAnotherMinorIsAskedForByVersion(ControlPlane shared) {
		Properties versions = versions();
		KubernetesVersion oldest = KubernetesVersion.parse(versions.getProperty("KUBERNETES_OLDEST"));
		String minor = oldest.major() + "." + oldest.minor();
		ControlPlane controlPlane = ControlPlaneExtension.controlPlane(minor);
		assertThat(controlPlane.kubernetesVersion().minor()).isEqualTo(oldest.minor());
		assertThat(ControlPlaneExtension.controlPlane(minor)).isSameAs(controlPlane);
	}

	private static Properties versions() {
		Properties versions = new Properties();
		try {
			versions.load(Files.newBufferedReader(VERSIONS));
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot read " + VERSIONS.toAbsolutePath(), ex);
		}
		return versions;
	}

}
