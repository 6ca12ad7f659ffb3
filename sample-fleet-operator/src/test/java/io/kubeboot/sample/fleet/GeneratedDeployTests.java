package io.kubeboot.sample.fleet;

import java.io.IOException;
import java.nio.file.Path;

import io.kubeboot.operator.deploy.DeployManifests;
import io.kubeboot.operator.deploy.DeployModels;
import io.kubeboot.operator.deploy.DeploySettings;
import org.junit.jupiter.api.Test;

/**
 * Everything in {@code deploy/} is what the sample's code generates with the settings of
 * {@code src/main/deploy/settings.yaml}, {@code member-rbac.yaml} for the member clusters
 * among it; {@code SampleFleetOperatorIntegrationTests} engages a member through the
 * roles of that file alone. Refresh {@code deploy/} by running this test with
 * {@code -Ddeploy.update=true}.
 */
class GeneratedDeployTests {

	static final Path DEPLOY = Path.of("deploy");

	static final Path SETTINGS = Path.of("src", "main", "deploy", "settings.yaml");

	static final String REGENERATE = "in sample-fleet-operator, mvn test -Dtest=GeneratedDeployTests "
			+ "-Ddeploy.update=true";

	@Test
	void deployHoldsWhatTheCodeGenerates() throws IOException {
		DeployManifests manifests = DeployManifests
			.of(DeployModels.of(SampleFleetOperatorApplication.class), DeploySettings.read(SETTINGS))
			.refreshedBy(REGENERATE);
		manifests.check(DEPLOY, Boolean.getBoolean("deploy.update"));
	}

}
