package io.kubeboot.sample;

import java.io.IOException;
import java.nio.file.Path;

import io.kubeboot.operator.deploy.DeployManifests;
import io.kubeboot.operator.deploy.DeployModels;
import io.kubeboot.operator.deploy.DeploySettings;
import org.junit.jupiter.api.Test;

/**
 * Everything in {@code deploy/} is what the sample's code generates, with the settings of
 * {@code src/main/deploy/settings.yaml}: the application is built as it runs (its
 * {@code application.yaml}, its beans, but none of this machine's environment variables
 * or system properties), its manager, webhooks, ports and probes are read
 * ({@link DeployModels}), and the manifests and the Helm chart rendered from them
 * ({@link DeployManifests}) must equal the files checked in, none missing and none more.
 * Nothing talks to a cluster: the manager is built but not started.
 * <p>
 * The rendered files are written to {@code target/deploy} too. After changing the code or
 * the settings, refresh {@code deploy/} by running this test with
 * {@code -Ddeploy.update=true}. {@code GeneratedManifestsIntegrationTests} has the API
 * server accept the files and {@code helm} lint and render the chart.
 */
class GeneratedDeployTests {

	static final Path SETTINGS = Path.of("src", "main", "deploy", "settings.yaml");

	static final String REGENERATE = "in sample-operator, mvn test -Dtest=GeneratedDeployTests -Ddeploy.update=true";

	@Test
	void deployHoldsWhatTheCodeGenerates() throws IOException {
		DeployManifests manifests = DeployManifests
			.of(DeployModels.of(SampleOperatorApplication.class), DeploySettings.read(SETTINGS))
			.refreshedBy(REGENERATE);
		manifests.writeTo(Path.of("target", "deploy"));
		manifests.check(Manifests.DEPLOY, Boolean.getBoolean("deploy.update"));
	}

}
