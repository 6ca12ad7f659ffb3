package com.example.shop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.kubeboot.operator.deploy.DeployManifests;
import io.kubeboot.operator.deploy.DeployModels;
import io.kubeboot.operator.deploy.DeploySettings;
import org.junit.jupiter.api.Test;

/**
 * Everything in {@code deploy/} is what the operator's code generates, with the settings of
 * {@code src/main/deploy/settings.yaml}: the CRD ({@code operator-crd-generator} wrote it
 * when the model compiled), the RBAC its reconcilers, Lease and Events need, the
 * Deployment with the ports and probes of {@code application.yaml}, the Services, the
 * NetworkPolicy, the ServiceMonitor, and a Helm chart of the same objects in
 * {@code deploy/chart}. The application is built as it runs, but not started and apart
 * from this machine's environment variables ({@link DeployModels}); nothing talks to a
 * cluster.
 * <p>
 * A new project's first build writes {@code deploy/}: commit it. From then on the build
 * fails while a file there differs from what the code generates, printing the lines that
 * differ; after changing the code or the settings, regenerate it with
 * {@code mvn test -Dtest=GeneratedDeployTests -Ddeploy.update=true}.
 */
class GeneratedDeployTests {

	static final Path DEPLOY = Path.of("deploy");

	static final Path SETTINGS = Path.of("src", "main", "deploy", "settings.yaml");

	static final String REGENERATE = "mvn test -Dtest=GeneratedDeployTests -Ddeploy.update=true";

	@Test
	void deployHoldsWhatTheCodeGenerates() throws IOException {
		DeployManifests manifests = DeployManifests
			.of(DeployModels.of(OperatorApplication.class), DeploySettings.read(SETTINGS))
			.refreshedBy(REGENERATE);
		manifests.check(DEPLOY, Boolean.getBoolean("deploy.update") || !Files.exists(DEPLOY));
	}

}
