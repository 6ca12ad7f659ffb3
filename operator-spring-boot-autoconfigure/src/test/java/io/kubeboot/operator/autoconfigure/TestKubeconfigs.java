package io.kubeboot.operator.autoconfigure;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Lets tests of auto-configurations in other packages have the client auto-configured
 * from a kubeconfig file of theirs, as if {@code KUBECONFIG} named it.
 */
public final class TestKubeconfigs {

	private TestKubeconfigs() {
	}

	/**
	 * Writes a kubeconfig for the server into the directory and makes the runner's
	 * auto-configured client read it.
	 * @param runner the runner
	 * @param directory where to write it
	 * @param server the URL of the API server
	 * @return the runner
	 * @throws IOException if the file cannot be written
	 */
	public static ApplicationContextRunner withKubeconfig(ApplicationContextRunner runner, Path directory,
			String server) throws IOException {
		Path kubeconfig = KubernetesConfigLocatorTests.kubeconfig(directory.resolve("config"), server, "test");
		return runner.withBean(KubernetesConfigLocator.class,
				() -> new KubernetesConfigLocator(Map.of("KUBECONFIG", kubeconfig.toString())::get, null, directory));
	}

}
