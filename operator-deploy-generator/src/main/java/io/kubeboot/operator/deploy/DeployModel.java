package io.kubeboot.operator.deploy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import io.kubeboot.operator.rbac.Permission;
import io.kubeboot.operator.rbac.internal.DeclaredNames;
import io.kubeboot.operator.rbac.internal.KindNames;
import io.kubeboot.operator.webhook.Conversion;
import org.jspecify.annotations.Nullable;

/**
 * What the code of an operator says about how it runs, as the manifests need it: its
 * name, the ports and paths it serves (probes, metrics, webhooks), the admission webhooks
 * and conversions it serves, the RBAC its manager needs, leader election, the namespaces
 * it watches, its shutdown time, and the CustomResourceDefinitions and admission policies
 * its build generated. {@link DeployModels} reads it from an application;
 * {@link DeployManifests} renders it, with the {@link DeploySettings} the code does not
 * know. Immutable.
 */
public final class DeployModel {

	private static final Pattern NAME = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");

	private final Builder settings;

	private DeployModel(Builder builder) {
		this.settings = builder.copy();
	}

	/**
	 * Starts describing an operator.
	 * @param name its name ({@code spring.application.name}): the Deployment's, the
	 * ServiceAccount's and the roles'; a DNS label of at most 40 characters, so the names
	 * made from it ({@code <name>-webhook-tls}, ...) stay within Kubernetes' limits
	 * @return the builder
	 * @throws IllegalArgumentException if the name is not such a label
	 */
	static Builder builder(String name) {
		if (name == null || !NAME.matcher(name).matches() || name.length() > 40) {
			throw new IllegalArgumentException("The operator's name '" + name + "' (spring.application.name) must be "
					+ "lower-case letters, digits and '-', starting with a letter, at most 40 characters: the "
					+ "manifests' names are made from it");
		}
		return new Builder(name);
	}

	/**
	 * Returns the operator's name.
	 * @return the name
	 */
	String name() {
		return this.settings.name;
	}

	/**
	 * Returns what the model was read from, named in the manifests' headers.
	 * @return such as {@code io.kubeboot.sample.SampleOperatorApplication}
	 */
	String source() {
		return this.settings.source;
	}

	/**
	 * Returns the application's HTTP port ({@code server.port}).
	 * @return the port, or {@code null} without a web server
	 */
	@Nullable Integer applicationPort() {
		return this.settings.applicationPort;
	}

	/**
	 * Returns Actuator's port when it has one of its own
	 * ({@code management.server.port}).
	 * @return the port, or {@code null} when Actuator shares the application's port
	 */
	@Nullable Integer managementPort() {
		return this.settings.managementPort;
	}

	/**
	 * Returns the liveness probe's path.
	 * @return the path, or {@code null} for no HTTP probes
	 */
	@Nullable String livenessPath() {
		return this.settings.livenessPath;
	}

	/**
	 * Returns the readiness probe's path.
	 * @return the path, or {@code null} for no HTTP probes
	 */
	@Nullable String readinessPath() {
		return this.settings.readinessPath;
	}

	/**
	 * Whether the probes are served on Actuator's port rather than the application's.
	 * @return {@code true} on the management port
	 */
	boolean probesOnManagementPort() {
		return this.settings.probesOnManagementPort;
	}

	/**
	 * Returns the path Prometheus scrapes, on Actuator's port.
	 * @return the path, such as {@code /actuator/prometheus}, or {@code null} if the
	 * operator exposes no metrics over HTTP
	 */
	@Nullable String metricsPath() {
		return this.settings.metricsPath;
	}

	/**
	 * Whether the application guards its metrics endpoint itself
	 * ({@code operator.metrics.auth.enabled}): the default of the chart's
	 * {@code metrics.secure}.
	 * @return {@code true} if it does
	 */
	boolean metricsAuth() {
		return this.settings.metricsAuth;
	}

	/**
	 * Returns the webhook server's port ({@code operator.webhook.port}).
	 * @return the port, or {@code null} if the operator serves no webhook
	 */
	@Nullable Integer webhookPort() {
		return this.settings.webhookPort;
	}

	/**
	 * Returns where the webhook server reads its certificate
	 * ({@code operator.webhook.cert-dir}).
	 * @return the directory
	 */
	String webhookCertDir() {
		return this.settings.webhookCertDir;
	}

	/**
	 * Returns the names of the certificate's and key's files in the certificate directory
	 * ({@code operator.webhook.cert-name} and {@code key-name}).
	 * @return the two names, {@code tls.crt} and {@code tls.key} by default
	 */
	List<String> webhookCertFiles() {
		return List.of(this.settings.webhookCertName, this.settings.webhookKeyName);
	}

	/**
	 * Returns the admission webhooks the operator serves.
	 * @return the webhooks, validating then mutating, by name
	 */
	List<WebhookRegistration> webhooks() {
		return List.copyOf(this.settings.webhooks);
	}

	/**
	 * Returns the custom resources whose versions the operator converts.
	 * @return CRD names such as {@code storagebuckets.storage.kubeboot.io}
	 */
	List<String> conversions() {
		return List.copyOf(this.settings.conversions);
	}

	/**
	 * Returns the CustomResourceDefinitions the build generated, as YAML.
	 * @return the files' contents
	 */
	List<String> crds() {
		return List.copyOf(this.settings.crds);
	}

	/**
	 * Returns the custom resources the operator reconciles, caches, serves webhooks for
	 * or converts, whose CRDs the manifests must hold unless someone else installs them.
	 * @return CRD names such as {@code storagebuckets.storage.kubeboot.io}
	 */
	Set<String> customKinds() {
		return Set.copyOf(this.settings.customKinds);
	}

	/**
	 * Returns the admission policies the build generated, as YAML.
	 * @return the files' contents
	 */
	List<String> policies() {
		return List.copyOf(this.settings.policies);
	}

	/**
	 * Returns what the manager needs RBAC to allow.
	 * @return the permissions
	 */
	List<Permission> permissions() {
		return List.copyOf(this.settings.permissions);
	}

	/**
	 * Returns what RBAC must allow in every member cluster of the operator's fleet.
	 * @return the permissions, empty without a fleet
	 */
	List<Permission> memberPermissions() {
		return List.copyOf(this.settings.memberPermissions);
	}

	/**
	 * Returns the namespaces the operator watches ({@code operator.namespaces}, or the
	 * one of {@code operator.namespace}).
	 * @return the namespaces, empty for all namespaces
	 */
	List<String> watchNamespaces() {
		return List.copyOf(this.settings.watchNamespaces);
	}

	/**
	 * Whether the application names its namespace with {@code operator.namespace}, which
	 * the Deployment then clears, since {@code operator.namespaces} may not be set with
	 * it.
	 * @return {@code true} if {@code operator.namespace} is set
	 */
	boolean namespaceProperty() {
		return this.settings.namespaceProperty;
	}

	/**
	 * Whether the operator elects a leader ({@code operator.leader-election.enabled}).
	 * @return {@code true} if it does
	 */
	boolean leaderElection() {
		return this.settings.leaderElection;
	}

	/**
	 * Returns the name of leader election's Lease
	 * ({@code operator.leader-election.lease-name}), whose RBAC the manifests hold even
	 * while leader election is off, since the chart's {@code leaderElection.enabled} may
	 * turn it on.
	 * @return the name, {@code <name>-leader} unless the application names another
	 */
	String leaseName() {
		return (this.settings.leaseName != null) ? this.settings.leaseName : this.settings.name + "-leader";
	}

	/**
	 * Whether the application names its Lease; otherwise the chart names it after the
	 * release, so that two releases in one namespace elect apart.
	 * @return {@code true} with {@code operator.leader-election.lease-name}
	 */
	boolean leaseNamed() {
		return this.settings.leaseName != null;
	}

	/**
	 * Returns the namespace of the Lease when the application names one
	 * ({@code operator.leader-election.namespace}).
	 * @return the namespace, or {@code null} for the pod's namespace
	 */
	@Nullable String leaseNamespace() {
		return this.settings.leaseNamespace;
	}

	/**
	 * Returns how long in-flight work may take to finish on shutdown
	 * ({@code operator.graceful-shutdown-timeout}).
	 * @return the timeout, negative for no bound
	 */
	Duration gracefulShutdownTimeout() {
		return this.settings.gracefulShutdownTimeout;
	}

	/**
	 * Builds a {@link DeployModel}. Not thread-safe.
	 */
	static final class Builder {

		private final String name;

		private String source;

		private @Nullable Integer applicationPort;

		private @Nullable Integer managementPort;

		private @Nullable String livenessPath;

		private @Nullable String readinessPath;

		private boolean probesOnManagementPort;

		private @Nullable String metricsPath;

		private boolean metricsAuth;

		private @Nullable Integer webhookPort;

		private String webhookCertDir = "/tmp/k8s-webhook-server/serving-certs";

		private String webhookCertName = "tls.crt";

		private String webhookKeyName = "tls.key";

		private final List<WebhookRegistration> webhooks = new ArrayList<>();

		private final List<String> conversions = new ArrayList<>();

		private final List<String> crds = new ArrayList<>();

		private final List<String> policies = new ArrayList<>();

		private final Set<String> customKinds = new TreeSet<>();

		private final List<Permission> permissions = new ArrayList<>();

		private final List<Permission> memberPermissions = new ArrayList<>();

		private final List<String> watchNamespaces = new ArrayList<>();

		private boolean namespaceProperty;

		private boolean leaderElection;

		private @Nullable String leaseName;

		private @Nullable String leaseNamespace;

		private Duration gracefulShutdownTimeout = Duration.ofSeconds(30);

		private Builder(String name) {
			this.name = name;
			this.source = name;
		}

		private Builder copy() {
			Builder copy = new Builder(this.name);
			copy.source = this.source;
			copy.applicationPort = this.applicationPort;
			copy.managementPort = this.managementPort;
			copy.livenessPath = this.livenessPath;
			copy.readinessPath = this.readinessPath;
			copy.probesOnManagementPort = this.probesOnManagementPort;
			copy.metricsPath = this.metricsPath;
			copy.metricsAuth = this.metricsAuth;
			copy.webhookPort = this.webhookPort;
			copy.webhookCertDir = this.webhookCertDir;
			copy.webhookCertName = this.webhookCertName;
			copy.webhookKeyName = this.webhookKeyName;
			copy.webhooks.addAll(this.webhooks);
			copy.conversions.addAll(this.conversions);
			copy.crds.addAll(this.crds);
			copy.policies.addAll(this.policies);
			copy.customKinds.addAll(this.customKinds);
			copy.permissions.addAll(this.permissions);
			copy.memberPermissions.addAll(this.memberPermissions);
			copy.watchNamespaces.addAll(this.watchNamespaces);
			copy.namespaceProperty = this.namespaceProperty;
			copy.leaderElection = this.leaderElection;
			copy.leaseName = this.leaseName;
			copy.leaseNamespace = this.leaseNamespace;
			copy.gracefulShutdownTimeout = this.gracefulShutdownTimeout;
			return copy;
		}

		/**
		 * Names what the model is read from, for the manifests' headers.
		 * @param source such as the application's class
		 * @return this builder
		 */
		Builder source(String source) {
			this.source = Objects.requireNonNull(source, "source must not be null");
			return this;
		}

		/**
		 * Sets the application's HTTP port.
		 * @param port the port
		 * @return this builder
		 */
		Builder applicationPort(int port) {
			this.applicationPort = port(port, "applicationPort");
			return this;
		}

		/**
		 * Gives Actuator a port of its own.
		 * @param port the port
		 * @return this builder
		 */
		Builder managementPort(int port) {
			this.managementPort = port(port, "managementPort");
			return this;
		}

		/**
		 * Sets the paths of the kubelet's probes.
		 * @param liveness the liveness (and startup) probe's path
		 * @param readiness the readiness probe's path
		 * @param onManagementPort whether they are served on Actuator's port
		 * @return this builder
		 */
		Builder probes(String liveness, String readiness, boolean onManagementPort) {
			this.livenessPath = path(liveness, "liveness");
			this.readinessPath = path(readiness, "readiness");
			this.probesOnManagementPort = onManagementPort;
			return this;
		}

		/**
		 * Sets the path Prometheus scrapes, on Actuator's port.
		 * @param path the path
		 * @return this builder
		 */
		Builder metricsPath(String path) {
			this.metricsPath = path(path, "metricsPath");
			return this;
		}

		/**
		 * Says whether the application guards its metrics endpoint itself.
		 * @param enabled {@code operator.metrics.auth.enabled}
		 * @return this builder
		 */
		Builder metricsAuth(boolean enabled) {
			this.metricsAuth = enabled;
			return this;
		}

		/**
		 * Sets the webhook server's port and certificate directory.
		 * @param port the port
		 * @param certDir the directory the certificate Secret is mounted in
		 * @return this builder
		 */
		Builder webhookServer(int port, String certDir) {
			this.webhookPort = port(port, "webhookPort");
			this.webhookCertDir = path(certDir, "certDir");
			return this;
		}

		/**
		 * Names the certificate's and key's files in the certificate directory.
		 * @param certName the certificate's, such as {@code tls.crt}
		 * @param keyName the key's, such as {@code tls.key}
		 * @return this builder
		 */
		Builder webhookCertFiles(String certName, String keyName) {
			this.webhookCertName = path(certName, "certName");
			this.webhookKeyName = path(keyName, "keyName");
			return this;
		}

		/**
		 * Adds an admission webhook.
		 * @param webhook the webhook
		 * @return this builder
		 */
		Builder webhook(WebhookRegistration webhook) {
			this.webhooks.add(Objects.requireNonNull(webhook, "webhook must not be null"));
			return this;
		}

		/**
		 * Adds a custom resource whose versions the operator converts.
		 * @param crdName the CRD's name, such as
		 * {@code storagebuckets.storage.kubeboot.io}
		 * @return this builder
		 */
		Builder conversion(String crdName) {
			this.conversions.add(Objects.requireNonNull(crdName, "crdName must not be null"));
			return this;
		}

		/**
		 * Adds the custom resource a conversion converts.
		 * @param conversion the conversion
		 * @return this builder
		 */
		Builder conversion(Conversion<?> conversion) {
			KindNames.Name names = DeclaredNames.INSTANCE.resolve(conversion.hubType());
			return conversion(names.plural() + "." + names.group());
		}

		/**
		 * Adds a CustomResourceDefinition, as the generator wrote it.
		 * @param yaml the file's content
		 * @return this builder
		 */
		Builder crd(String yaml) {
			this.crds.add(Objects.requireNonNull(yaml, "yaml must not be null"));
			return this;
		}

		/**
		 * Adds the custom resources the operator uses, whose CRDs the manifests must
		 * hold.
		 * @param crdNames CRD names such as {@code storagebuckets.storage.kubeboot.io}
		 * @return this builder
		 */
		Builder customKinds(Set<String> crdNames) {
			this.customKinds.addAll(crdNames);
			return this;
		}

		/**
		 * Adds admission policies, as the generator wrote them.
		 * @param yaml the file's content
		 * @return this builder
		 */
		Builder policy(String yaml) {
			this.policies.add(Objects.requireNonNull(yaml, "yaml must not be null"));
			return this;
		}

		/**
		 * Adds what the manager needs RBAC to allow.
		 * @param permissions such as {@code manager.requiredPermissions()}
		 * @return this builder
		 */
		Builder permissions(List<Permission> permissions) {
			this.permissions.addAll(permissions);
			return this;
		}

		/**
		 * Adds what RBAC must allow in every member cluster of the operator's fleet.
		 * @param permissions such as {@code fleet.memberPermissions()}
		 * @return this builder
		 */
		Builder memberPermissions(List<Permission> permissions) {
			this.memberPermissions.addAll(permissions);
			return this;
		}

		/**
		 * Sets the namespaces the operator watches, as {@code operator.namespaces} does.
		 * @param namespaces the namespaces, none for all
		 * @return this builder
		 */
		Builder watchNamespaces(List<String> namespaces) {
			this.watchNamespaces.clear();
			for (String namespace : namespaces) {
				if (namespace != null && !namespace.isBlank() && !this.watchNamespaces.contains(namespace.strip())) {
					this.watchNamespaces.add(namespace.strip());
				}
			}
			this.namespaceProperty = false;
			return this;
		}

		/**
		 * Sets the one namespace the operator watches, as {@code operator.namespace}
		 * does.
		 * @param namespace the namespace, or {@code null} for all
		 * @return this builder
		 */
		Builder watchNamespace(@Nullable String namespace) {
			watchNamespaces((namespace != null) ? List.of(namespace) : List.of());
			this.namespaceProperty = !this.watchNamespaces.isEmpty();
			return this;
		}

		/**
		 * Turns leader election on or off.
		 * @param enabled whether the operator elects a leader
		 * @param leaseName the Lease's name when the application names one, else
		 * {@code null} ({@code <name>-leader})
		 * @param leaseNamespace the Lease's namespace when the application names one,
		 * else {@code null} (the pod's namespace)
		 * @return this builder
		 */
		Builder leaderElection(boolean enabled, @Nullable String leaseName, @Nullable String leaseNamespace) {
			this.leaderElection = enabled;
			this.leaseName = (leaseName == null || leaseName.isBlank()) ? null : leaseName.strip();
			this.leaseNamespace = (leaseNamespace == null || leaseNamespace.isBlank()) ? null : leaseNamespace;
			return this;
		}

		/**
		 * Sets how long in-flight work may take to finish on shutdown.
		 * @param timeout the timeout, negative for no bound
		 * @return this builder
		 */
		Builder gracefulShutdownTimeout(Duration timeout) {
			this.gracefulShutdownTimeout = Objects.requireNonNull(timeout, "timeout must not be null");
			return this;
		}

		/**
		 * Builds the model.
		 * @return the model
		 */
		DeployModel build() {
			Set<String> names = new HashSet<>();
			for (WebhookRegistration webhook : this.webhooks) {
				if (!names.add(webhook.name())) {
					throw new IllegalArgumentException("Two webhooks are named " + webhook.name()
							+ ": the API server refuses a configuration with duplicate names");
				}
			}
			return new DeployModel(this);
		}

		private static int port(int port, String what) {
			if (port < 1 || port > 65535) {
				throw new IllegalArgumentException(what + " must be 1 to 65535, not " + port);
			}
			return port;
		}

		private static String path(String path, String what) {
			if (path == null || path.isBlank()) {
				throw new IllegalArgumentException(what + " must not be blank");
			}
			return path;
		}

	}

}
