package io.kubeboot.operator.autoconfigure;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import org.jspecify.annotations.Nullable;
import org.springframework.util.StringUtils;

/**
 * Turns {@code operator.leader-election.*} into a {@link LeaderElectionConfig}, filling
 * in the defaults that depend on where the operator runs.
 */
final class LeaderElectionSettings {

	static final Path SERVICE_ACCOUNT_NAMESPACE = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");

	private LeaderElectionSettings() {
	}

	static LeaderElectionConfig from(OperatorProperties.LeaderElection properties, @Nullable String applicationName,
			Path namespaceFile) {
		String leaseName = StringUtils.hasText(properties.getLeaseName()) ? properties.getLeaseName()
				: (StringUtils.hasText(applicationName) ? applicationName + "-leader" : "operator-leader");
		String namespace = StringUtils.hasText(properties.getNamespace()) ? properties.getNamespace()
				: podNamespace(namespaceFile);
		String identity = StringUtils.hasText(properties.getIdentity()) ? properties.getIdentity()
				: hostName() + "_" + UUID.randomUUID();
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
