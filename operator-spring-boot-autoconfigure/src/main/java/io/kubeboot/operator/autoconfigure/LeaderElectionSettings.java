package io.kubeboot.operator.autoconfigure;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.kubeboot.operator.autoconfigure.InvalidOperatorPropertyException.Problem;
import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.config.InvalidConfigException.Violation;
import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import org.jspecify.annotations.Nullable;
import org.springframework.util.StringUtils;

/**
 * Turns {@code operator.leader-election.*} into a {@link LeaderElectionConfig}, filling
 * in the defaults that depend on where the operator runs.
 */
final class LeaderElectionSettings {

	static final Path SERVICE_ACCOUNT_NAMESPACE = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");

	/**
	 * The property below {@code operator.leader-election} of each setting of
	 * {@link LeaderElectionConfig} that is not named alike.
	 */
	static final Map<String, String> PROPERTIES = Map.of("name", "lease-name");

	private LeaderElectionSettings() {
	}

	/**
	 * Creates the configuration of leader election.
	 * @param properties the {@code operator.leader-election.*} properties, checked
	 * @param applicationName {@code spring.application.name}
	 * @param namespaceFile the file holding the pod's namespace
	 * @return the configuration
	 * @throws InvalidOperatorPropertyException if the lease name is not set and the one
	 * derived from the application name is no valid name of a Lease
	 */
	static LeaderElectionConfig from(OperatorLeaderElectionProperties properties, @Nullable String applicationName,
			Path namespaceFile) {
		String leaseName = StringUtils.hasText(properties.getLeaseName()) ? properties.getLeaseName()
				: (StringUtils.hasText(applicationName) ? applicationName + "-leader" : "operator-leader");
		String namespace = StringUtils.hasText(properties.getNamespace()) ? properties.getNamespace()
				: podNamespace(namespaceFile);
		String identity = StringUtils.hasText(properties.getIdentity()) ? properties.getIdentity()
				: generatedIdentity();
		try {
			return new LeaderElectionConfig(namespace, leaseName, identity, properties.getLeaseDuration(),
					properties.getRenewDeadline(), properties.getRetryPeriod(), properties.isReleaseOnShutdown(),
					properties.getLostLeasePolicy());
		}
		catch (InvalidConfigException ex) {
			// the properties were checked on their own: what can be at fault is the
			// name derived from the application's
			Violation name = ex.violations()
				.stream()
				.filter((v) -> v.setting().equals("name"))
				.findFirst()
				.orElse(null);
			if (name == null || StringUtils.hasText(properties.getLeaseName())) {
				throw ex;
			}
			String reason = "is not set, and its default '" + leaseName + "' (from spring.application.name) "
					+ name.rule();
			throw new InvalidOperatorPropertyException("operator.leader-election.lease-name " + reason,
					List.of(new Problem("operator.leader-election.lease-name", null, null, reason)),
					"Set operator.leader-election.lease-name to the name of the Lease, or change "
							+ "spring.application.name to a lowercase name.");
		}
	}

	/**
	 * Creates the configuration the properties give on their own, to check them whether
	 * leader election is on or not: what is found only when it starts (the namespace, and
	 * the name and identity unless set) has a valid stand-in.
	 * @param properties the {@code operator.leader-election.*} properties
	 * @return the configuration
	 * @throws InvalidConfigException naming every value at fault
	 */
	static LeaderElectionConfig withStandIns(OperatorLeaderElectionProperties properties) {
		String namespace = StringUtils.hasLength(properties.getNamespace()) ? properties.getNamespace() : "default";
		String leaseName = (properties.getLeaseName() != null) ? properties.getLeaseName() : "operator-leader";
		String identity = StringUtils.hasText(properties.getIdentity()) ? properties.getIdentity() : "operator";
		return new LeaderElectionConfig(namespace, leaseName, identity, properties.getLeaseDuration(),
				properties.getRenewDeadline(), properties.getRetryPeriod(), properties.isReleaseOnShutdown(),
				properties.getLostLeasePolicy());
	}

	static String podNamespace(Path namespaceFile) {
		try {
			if (Files.isReadable(namespaceFile)) {
				String namespace = Files.readString(namespaceFile, StandardCharsets.UTF_8).trim();
				if (!namespace.isEmpty()) {
					return namespace;
				}
			}
		}
		catch (IOException ex) {
			// not in a pod
		}
		return "default";
	}

	/**
	 * Returns an identity for this replica: the host name (the pod's name), an underscore
	 * and a random UUID, unique even among processes on one host.
	 * @return the identity
	 */
	static String generatedIdentity() {
		return hostName() + "_" + UUID.randomUUID();
	}

	private static String hostName() {
		String fromEnvironment = System.getenv("HOSTNAME");
		if (StringUtils.hasText(fromEnvironment)) {
			return fromEnvironment;
		}
		try {
			return InetAddress.getLocalHost().getHostName();
		}
		catch (IOException ex) {
			return "operator";
		}
	}

}
