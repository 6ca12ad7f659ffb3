package io.kubeboot.operator.autoconfigure;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.kubeboot.operator.autoconfigure.InvalidOperatorPropertyException.Problem;
import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.config.InvalidConfigException.Violation;
import io.kubeboot.operator.sharding.ShardingConfig;
import org.jspecify.annotations.Nullable;
import org.springframework.util.StringUtils;

/**
 * Turns {@code operator.sharding.*} into a {@link ShardingConfig}, filling in the
 * defaults that depend on where the operator runs and on leader election's settings.
 */
final class ShardingSettings {

	/**
	 * The property below {@code operator.sharding} of each setting of
	 * {@link ShardingConfig} that is not named alike.
	 */
	static final Map<String, String> PROPERTIES = Map.of("ringName", "ring");

	private ShardingSettings() {
	}

	/**
	 * Creates the configuration of this replica's membership in the ring.
	 * @param sharding the {@code operator.sharding.*} properties, checked
	 * @param election the {@code operator.leader-election.*} properties, checked
	 * @param applicationName {@code spring.application.name}
	 * @param namespaceFile the file holding the pod's namespace
	 * @return the configuration
	 * @throws InvalidOperatorPropertyException if the ring is not set and the name
	 * derived from the application name is no label value
	 */
	static ShardingConfig from(OperatorShardingProperties sharding, OperatorLeaderElectionProperties election,
			@Nullable String applicationName, Path namespaceFile) {
		String ring = StringUtils.hasText(sharding.getRing()) ? sharding.getRing()
				: (StringUtils.hasText(applicationName) ? applicationName : "operator");
		String namespace = StringUtils.hasText(sharding.getNamespace()) ? sharding.getNamespace()
				: (StringUtils.hasText(election.getNamespace()) ? election.getNamespace()
						: LeaderElectionSettings.podNamespace(namespaceFile));
		String identity = StringUtils.hasText(sharding.getIdentity()) ? sharding.getIdentity()
				: (StringUtils.hasText(election.getIdentity()) ? election.getIdentity()
						: LeaderElectionSettings.generatedIdentity());
		try {
			return new ShardingConfig(namespace, ring, identity, sharding.getLeaseDuration(),
					sharding.getRenewDeadline(), sharding.getRetryPeriod(), sharding.getVirtualNodes(),
					sharding.getMode());
		}
		catch (InvalidConfigException ex) {
			// the properties were checked on their own: what can be at fault is the ring
			// named after the application
			Violation ringName = ex.violations()
				.stream()
				.filter((v) -> v.setting().equals("ringName"))
				.findFirst()
				.orElse(null);
			if (ringName == null || StringUtils.hasText(sharding.getRing())) {
				throw ex;
			}
			String reason = "is not set, and its default '" + ring + "' (from spring.application.name) "
					+ ringName.rule();
			throw new InvalidOperatorPropertyException("operator.sharding.ring " + reason,
					List.of(new Problem("operator.sharding.ring", null, null, reason)),
					"Set operator.sharding.ring to the name of the ring, the same on every replica.");
		}
	}

	/**
	 * Creates the configuration the properties give on their own, to check them whether
	 * sharding is on or not: what is found only when the replica joins (the namespace,
	 * and the ring and identity unless set) has a valid stand-in.
	 * @param properties the {@code operator.sharding.*} properties
	 * @return the configuration
	 * @throws InvalidConfigException naming every value at fault
	 */
	static ShardingConfig withStandIns(OperatorShardingProperties properties) {
		String namespace = StringUtils.hasLength(properties.getNamespace()) ? properties.getNamespace() : "default";
		String ring = (properties.getRing() != null) ? properties.getRing() : "operator";
		String identity = (properties.getIdentity() != null) ? properties.getIdentity() : "operator";
		return new ShardingConfig(namespace, ring, identity, properties.getLeaseDuration(),
				properties.getRenewDeadline(), properties.getRetryPeriod(), properties.getVirtualNodes(),
				properties.getMode());
	}

}
