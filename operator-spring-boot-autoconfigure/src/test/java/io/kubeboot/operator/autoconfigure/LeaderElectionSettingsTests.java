package io.kubeboot.operator.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class LeaderElectionSettingsTests {

	@Test
	void podNamespaceShouldComeFromTheServiceAccountFile(@TempDir Path directory) throws Exception {
		Path file = Files.writeString(directory.resolve("namespace"), "operators\n");
		assertThat(LeaderElectionSettings.podNamespace(file)).isEqualTo("operators");
	}

	@Test
	void podNamespaceShouldBeDefaultOutsideAPod(@TempDir Path directory) {
		assertThat(LeaderElectionSettings.podNamespace(directory.resolve("missing"))).isEqualTo("default");
	}

	@Test
	void leaseNameShouldFallBackWithoutApplicationName(@TempDir Path directory) {
		OperatorLeaderElectionProperties properties = new OperatorLeaderElectionProperties();
		assertThat(LeaderElectionSettings.from(properties, null, directory.resolve("missing")).name())
			.isEqualTo("operator-leader");
	}

}
