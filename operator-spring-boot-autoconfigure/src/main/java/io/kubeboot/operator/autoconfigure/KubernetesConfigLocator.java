package io.kubeboot.operator.autoconfigure;

import java.io.File;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.persister.FilePersister;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import io.kubernetes.client.util.credentials.TokenFileAuthentication;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the Kubernetes client configuration, unless {@link KubernetesConnectionDetails}
 * give it, where client-java's {@code ClientBuilder.standard()} looks, in its order: the
 * first file named by {@code KUBECONFIG}, {@code ~/.kube/config}, the in-cluster service
 * account. Unlike it, this says where the configuration came from, and when there is none
 * it fails naming every place it looked, instead of falling back to
 * {@code http://localhost:8080} (which is Spring Boot's own port).
 * <p>
 * The home directory is {@code HOME}, else the {@code user.home} system property. The
 * in-cluster configuration needs {@code KUBERNETES_SERVICE_HOST} and
 * {@code KUBERNETES_SERVICE_PORT}, as client-go's does, and the service account's token
 * and CA certificate.
 */
final class KubernetesConfigLocator {

	static final Path SERVICE_ACCOUNT = Path.of("/var/run/secrets/kubernetes.io/serviceaccount");

	static final String NO_CONFIGURATION_ACTION = "Point the operator at a cluster: set KUBECONFIG to a kubeconfig "
			+ "file, create ~/.kube/config (kubectl config view shows what kubectl uses), or run it in a pod with its "
			+ "service account token mounted; or define an ApiClient bean of your own. There is no fallback to "
			+ "http://localhost:8080.";

	static final String UNUSABLE_CONFIGURATION_ACTION = "Fix the kubeconfig file named above (kubectl config view "
			+ "--minify shows the current context as kubectl reads it), or point KUBECONFIG at another one.";

	/**
	 * The server of the client of a training run without configuration: {@code .invalid}
	 * never resolves (RFC 6761).
	 */
	static final String TRAINING_RUN_SERVER = "https://kubernetes.training-run.invalid";

	private static final Logger logger = LoggerFactory.getLogger(KubernetesConfigLocator.class);

	private final Function<String, @Nullable String> environment;

	private final @Nullable String userHome;

	private final Path serviceAccount;

	/**
	 * Creates a locator.
	 * @param environment the environment variables
	 * @param userHome the {@code user.home} system property
	 * @param serviceAccount the directory of the service account's token and CA
	 * certificate
	 */
	KubernetesConfigLocator(Function<String, @Nullable String> environment, @Nullable String userHome,
			Path serviceAccount) {
		this.environment = environment;
		this.userHome = userHome;
		this.serviceAccount = serviceAccount;
	}

	/**
	 * Returns a locator that reads this process's environment.
	 * @return the locator
	 */
	static KubernetesConfigLocator forThisProcess() {
		return new KubernetesConfigLocator(System::getenv, System.getProperty("user.home"), SERVICE_ACCOUNT);
	}

	/**
	 * Finds the configuration and builds a client from it.
	 * @return the client and where its configuration came from
	 * @throws KubernetesConfigurationException if there is none, naming every place
	 * looked at, or if the one found cannot be used
	 */
	KubernetesClientSource locate() {
		List<String> looked = new ArrayList<>();
		KubernetesClientSource source = fromKubeconfigVariable(looked);
		if (source == null) {
			source = fromHome(looked);
		}
		if (source == null) {
			source = fromServiceAccount(looked);
		}
		if (source == null) {
			StringBuilder message = new StringBuilder("No Kubernetes configuration found. Looked at:");
			looked.forEach((place) -> message.append("\n    ").append(place));
			throw new KubernetesConfigurationException(message.toString(), NO_CONFIGURATION_ACTION);
		}
		if (!looked.isEmpty() && looked.get(0).endsWith(" does not exist")) {
			// KUBECONFIG set, yet not used: say so, as kubectl would not look further
			logger.warn("KUBECONFIG names a file that does not exist, using the next place: KUBECONFIG={} "
					+ "source=\"{}\"", this.environment.apply("KUBECONFIG"), source.describe());
		}
		return source;
	}

	/**
	 * Builds the client from connection details, which replace every other place.
	 * @param details the connection details
	 * @return the client and where its configuration came from
	 * @throws KubernetesConfigurationException if their kubeconfig cannot be used
	 */
	static KubernetesClientSource fromConnectionDetails(KubernetesConnectionDetails details) {
		String name = details.getClass().getName();
		try {
			KubeConfig config = KubeConfig.loadKubeConfig(new StringReader(details.kubeconfig()));
			return new KubernetesClientSource(ClientBuilder.kubeconfig(config).build(),
					"the KubernetesConnectionDetails bean", config.getCurrentContext());
		}
		catch (IOException | RuntimeException ex) {
			throw new KubernetesConfigurationException(
					"Cannot create the Kubernetes client from the kubeconfig of " + name + ": " + ex.getMessage(),
					"Fix the kubeconfig the KubernetesConnectionDetails bean returns (its current context names the "
							+ "server and the credentials, with certificates embedded), or remove the bean to use "
							+ "KUBECONFIG, ~/.kube/config or the in-cluster service account.",
					ex);
		}
	}

	/**
	 * Builds a client for a {@linkplain TrainingRun training run} without configuration:
	 * its server is an address that cannot resolve, as the run halts before anything
	 * connects.
	 * @return the client and a description of it
	 */
	static KubernetesClientSource forTrainingRun() {
		ApiClient client = new ClientBuilder().setBasePath(TRAINING_RUN_SERVER).build();
		return new KubernetesClientSource(client,
				"none, a training run (spring.context.exit=onRefresh) that never connects", null);
	}

	private @Nullable KubernetesClientSource fromKubeconfigVariable(List<String> looked) {
		String variable = this.environment.apply("KUBECONFIG");
		if (variable == null || variable.isEmpty()) {
			looked.add("KUBECONFIG: not set");
			return null;
		}
		String[] files = variable.split(File.pathSeparator);
		Path file = Path.of(files[0]);
		if (!Files.isRegularFile(file)) {
			looked.add("KUBECONFIG: " + file.toAbsolutePath() + " does not exist");
			return null;
		}
		if (files.length > 1) {
			logger.warn("KUBECONFIG names several files; only the first is read: KUBECONFIG={} file={}", variable,
					file);
		}
		return fromKubeconfig(file, "KUBECONFIG=" + file);
	}

	private @Nullable KubernetesClientSource fromHome(List<String> looked) {
		String home = this.environment.apply("HOME");
		if (home == null || home.isEmpty()) {
			home = this.userHome;
		}
		if (home == null || home.isEmpty()) {
			looked.add("~/.kube/config: neither HOME nor the system property user.home is set");
			return null;
		}
		Path file = Path.of(home, ".kube", "config");
		if (!Files.isRegularFile(file)) {
			looked.add("~/.kube/config: " + file.toAbsolutePath() + " does not exist");
			return null;
		}
		return fromKubeconfig(file, "~/.kube/config (" + file + ")");
	}

	private @Nullable KubernetesClientSource fromServiceAccount(List<String> looked) {
		String host = this.environment.apply("KUBERNETES_SERVICE_HOST");
		String port = this.environment.apply("KUBERNETES_SERVICE_PORT");
		if (host == null || host.isEmpty() || port == null || port.isEmpty()) {
			looked.add("in-cluster: not in a pod (KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set)");
			return null;
		}
		Path token = this.serviceAccount.resolve("token");
		Path certificateAuthority = this.serviceAccount.resolve("ca.crt");
		for (Path file : List.of(token, certificateAuthority)) {
			if (!Files.isRegularFile(file)) {
				looked.add("in-cluster: KUBERNETES_SERVICE_HOST is set, but " + file
						+ " does not exist (is automountServiceAccountToken false?)");
				return null;
			}
		}
		String variables = "(KUBERNETES_SERVICE_HOST=" + host + ", KUBERNETES_SERVICE_PORT=" + port + ")";
		String where = "in-cluster " + variables;
		try {
			String server = new URI("https", null, host, Integer.parseInt(port), null, null, null).toString();
			ApiClient client = new ClientBuilder().setBasePath(server)
				.setCertificateAuthority(Files.readAllBytes(certificateAuthority))
				.setAuthentication(new TokenFileAuthentication(token.toString()))
				.build();
			return new KubernetesClientSource(client, where, null);
		}
		catch (IOException | URISyntaxException | RuntimeException ex) {
			throw new KubernetesConfigurationException(
					"Cannot use the in-cluster configuration " + variables + ": " + describe(ex),
					"Check the pod's environment and its mounted service account token (" + this.serviceAccount
							+ "), or point KUBECONFIG at a kubeconfig file.",
					ex);
		}
	}

	private KubernetesClientSource fromKubeconfig(Path file, String where) {
		KubeConfig config;
		try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
			config = KubeConfig.loadKubeConfig(reader);
		}
		catch (IOException | RuntimeException ex) {
			throw new KubernetesConfigurationException("Cannot read the kubeconfig " + where + ": " + describe(ex),
					UNUSABLE_CONFIGURATION_ACTION, ex);
		}
		String context = config.getCurrentContext();
		if (context == null) {
			throw new KubernetesConfigurationException("The kubeconfig " + where + " has no current-context",
					"Choose a context (kubectl config use-context <name>), or point KUBECONFIG at another file.");
		}
		if (config.getServer() == null) {
			throw new KubernetesConfigurationException(
					"The kubeconfig " + where + " names no server for its " + "current-context '" + context
							+ "' (no such context, no cluster, or a cluster without server)",
					UNUSABLE_CONFIGURATION_ACTION);
		}
		// as ClientBuilder.standard(): refreshed credentials are written back to the file
		config.setPersistConfig(new FilePersister(file.toFile()));
		config.setFile(file.toFile());
		try {
			return new KubernetesClientSource(ClientBuilder.kubeconfig(config).build(), where, context);
		}
		catch (IOException | RuntimeException ex) {
			throw new KubernetesConfigurationException(
					"Cannot use the kubeconfig " + where + ", context " + context + ": " + describe(ex),
					UNUSABLE_CONFIGURATION_ACTION, ex);
		}
	}

	private static String describe(Exception ex) {
		return (ex.getMessage() != null) ? ex.getClass().getSimpleName() + ": " + ex.getMessage()
				: ex.getClass().getSimpleName();
	}

}
