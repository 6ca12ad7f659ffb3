package io.kubeboot.operator.autoconfigure;

import java.nio.file.Path;
import java.util.List;

import io.kubeboot.operator.autoconfigure.InvalidOperatorPropertyException.Problem;
import io.kubeboot.operator.sharding.ShardingConfig;
import org.jspecify.annotations.Nullable;
import org.springframework.util.StringUtils;

/**
 * Turns {@code operator.sharding.*} into a {@link ShardingConfig}, filling in the
 * defaults that depend on where the operator runs and on leader election's settings.
 */
final class ShardingSettings {

	static final String LABEL_VALUE_RULE = "must be a label value: at most 63 letters, digits, '-', '_' or '.', "
			+ "starting and ending with a letter or digit";

	private ShardingSettings() {
	}

	static boolean isLabelValue(String value) {
		return ShardingConfig.isValidRingName(value);
	}

	/**
	 * Creates the configuration of this replica's membership in the ring.
	 * @param sharding the {@code operator.sharding.*} properties, validated
	 * @param election the {@code operator.leader-election.*} properties, validated
	 * @param applicationName {@code spring.application.name}
	 * @param namespaceFile the file holding the pod's namespace
	 * @return the configuration
	 * @throws InvalidOperatorPropertyException if the ring is not set and the name
	 * derived from the application name is no label value
	 */
	static ShardingConfig from(OperatorProperties.Sharding sharding, OperatorProperties.LeaderElection election,
			@Nullable String applicationName, Path namespaceFile) {
		String ring = StringUtils.hasText(sharding.getRing()) ? sharding.getRing()
				: (StringUtils.hasText(applicationName) ? applicationName : "operator");
		if (!isLabelValue(ring)) {
			String reason = "is not set, and its default '" + ring + "' (from spring.application.name) "
					+ LABEL_VALUE_RULE;
			throw new InvalidOperatorPropertyException("operator.sharding.ring " + reason,
					List.of(new Problem("operator.sharding.ring", null, null, reason)),
					"Set operator.sharding.ring to the name of the ring, the same on every replica.");
		}
		String namespace = StringUtils.hasText(sharding.getNamespace()) ? sharding.getNamespace()
				: (StringUtils.hasText(election.getNamespace()) ? election.getNamespace()
						: LeaderElectionSettings.podNamespace(namespaceFile));
		String identity = StringUtils.hasText(sharding.getIdentity()) ? sharding.getIdentity()
				: (StringUtils.hasText(election.getIdentity()) ? election.getIdentity()
						: LeaderElectionSettings.generatedIdentity());
		return new ShardingConfig(namespace, ring, identity, sharding.getLeaseDuration(), sharding.getRenewDeadline(),
				sharding.getRetryPeriod(), sharding.getVirtualNodes(), sharding.getMode());
	}

}
