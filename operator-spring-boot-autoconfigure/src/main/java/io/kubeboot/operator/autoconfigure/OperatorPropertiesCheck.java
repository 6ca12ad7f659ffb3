package io.kubeboot.operator.autoconfigure;

import java.beans.PropertyDescriptor;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.kubeboot.operator.cache.UnscopedInformerAdvice;
import io.kubeboot.operator.client.ClientConfig;
import io.kubeboot.operator.config.internal.ConfigChecks;
import io.kubeboot.operator.events.EventRecorderConfig;
import io.kubeboot.operator.manager.ControllerConfig;
import io.kubeboot.operator.manager.ManagerConfig;
import io.kubeboot.operator.sharding.ShardingConfig;
import io.kubeboot.operator.webhook.WebhookServerConfig;
import io.kubeboot.operator.workqueue.RateLimiters;
import org.springframework.beans.BeanUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.context.properties.source.UnboundElementsSourceFilter;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.env.Environment;

/**
 * Checks every {@code operator.*} property at once, when the first of the operator's
 * properties beans has been bound and before anything reads it, so that one start-up
 * names every property at fault. The rules are the core's: each group of properties is
 * handed to the configuration record it sets ({@link ManagerConfig},
 * {@link io.kubeboot.operator.leaderelection.LeaderElectionConfig}, ...), and
 * {@link PropertyProblems} names each value a record rejects as the property it came
 * from. Checked here are only what the core never sees: keys under {@code operator} that
 * are no property, and settings of one group that another group's contradicts.
 */
final class OperatorPropertiesCheck implements BeanPostProcessor {

	/**
	 * The operator's properties, one class per group.
	 */
	static final List<Class<?>> PROPERTIES = List.of(OperatorProperties.class, OperatorClientProperties.class,
			OperatorControllerProperties.class, OperatorLeaderElectionProperties.class,
			OperatorShardingProperties.class, OperatorHealthProperties.class, OperatorEventsProperties.class,
			OperatorWebhookProperties.class, OperatorCacheProperties.class, OperatorMetricsAuthProperties.class,
			OperatorTracingProperties.class, OperatorClustersProperties.class);

	private static final ConfigurationPropertyName OPERATOR = ConfigurationPropertyName.of("operator");

	/**
	 * The group of the test support, which binds it itself when it runs a control plane.
	 */
	private static final ConfigurationPropertyName LOCAL_CONTROL_PLANE = ConfigurationPropertyName
		.of("operator.local-control-plane");

	private final BeanFactory beanFactory;

	private final Environment environment;

	private boolean checked;

	OperatorPropertiesCheck(BeanFactory beanFactory, Environment environment) {
		this.beanFactory = beanFactory;
		this.environment = environment;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (!this.checked && PROPERTIES.contains(bean.getClass())) {
			this.checked = true;
			check(bean);
		}
		return bean;
	}

	private void check(Object bound) {
		OperatorProperties operator = get(OperatorProperties.class, bound);
		OperatorClientProperties client = get(OperatorClientProperties.class, bound);
		OperatorControllerProperties controller = get(OperatorControllerProperties.class, bound);
		OperatorLeaderElectionProperties election = get(OperatorLeaderElectionProperties.class, bound);
		OperatorShardingProperties sharding = get(OperatorShardingProperties.class, bound);
		OperatorHealthProperties health = get(OperatorHealthProperties.class, bound);
		OperatorEventsProperties events = get(OperatorEventsProperties.class, bound);
		OperatorWebhookProperties webhook = get(OperatorWebhookProperties.class, bound);
		OperatorCacheProperties cache = get(OperatorCacheProperties.class, bound);
		OperatorMetricsAuthProperties metricsAuth = get(OperatorMetricsAuthProperties.class, bound);
		PropertyProblems problems = new PropertyProblems(ConfigurationPropertySources.get(this.environment));
		checkUnknownKeys(problems);
		Map<String, String> managerProperties = new HashMap<>(
				NamespaceSettings.properties(operator.getNamespace(), operator.getNamespaces()));
		managerProperties.put("watchFailureThreshold", "health.watch-failure-threshold");
		problems.check("operator", managerProperties,
				() -> new ManagerConfig(operator.getSyncPeriod(), operator.getGracefulShutdownTimeout(),
						operator.getCacheSyncTimeout(), operator.getWatchTimeout(), operator.getWatchSilenceThreshold(),
						health.getWatchFailureThreshold(), operator.getListPageSize(), operator.isStreamingLists(),
						NamespaceSettings.from(operator.getNamespace(), operator.getNamespaces()),
						operator.isStripManagedFields()));
		NamespaceSettings.checkNotBoth(problems, operator.getNamespace(), operator.getNamespaces());
		problems.check("operator.client", Map.of(),
				() -> new ClientConfig(client.getQps(), client.getBurst(), client.getTimeout()));
		problems.check("operator.controller", Map.of(),
				() -> new ControllerConfig(controller.getMaxConcurrentReconciles(), controller.isPriorityQueue(),
						controller.getReconcileTimeout()));
		OperatorControllerProperties.RateLimiter limiter = controller.getRateLimiter();
		problems.check("operator.controller.rate-limiter", Map.of("base", "base-delay", "max", "max-delay"),
				() -> RateLimiters.controllerRateLimiter(limiter.getBaseDelay(), limiter.getMaxDelay(),
						limiter.getQps(), limiter.getBurst()));
		operator.getControllers()
			.forEach((name, overrides) -> problems.check("operator." + OperatorProperties.controllerKey(name), Map.of(),
					() -> new ControllerConfig(
							(overrides.getMaxConcurrentReconciles() != null) ? overrides.getMaxConcurrentReconciles()
									: ControllerConfig.DEFAULT.maxConcurrentReconciles(),
							ControllerConfig.DEFAULT.priorityQueue(), (overrides.getReconcileTimeout() != null)
									? overrides.getReconcileTimeout() : ControllerConfig.DEFAULT.reconcileTimeout())));
		problems.check("operator.leader-election", LeaderElectionSettings.PROPERTIES,
				() -> LeaderElectionSettings.withStandIns(election));
		problems.check("operator.sharding", ShardingSettings.PROPERTIES, () -> ShardingSettings.withStandIns(sharding));
		checkShardedControllers(problems, sharding, election);
		// the interval of the availability publisher, a part of this starter: the core
		// has no such setting
		if (health.getProbeInterval() == null || health.getProbeInterval().isNegative()
				|| health.getProbeInterval().isZero()) {
			problems.add("operator.health.probe-interval", health.getProbeInterval(), "must be positive");
		}
		// unset, the component is made from the application's name, whatever it is
		problems.check("operator.events", Map.of(),
				() -> new EventRecorderConfig(
						(events.getComponent() != null) ? events.getComponent()
								: EventRecorderConfig.DEFAULT.component(),
						events.getQueueCapacity(), events.getAggregationInterval(), events.getQps(), events.getBurst(),
						EventRecorderConfig.DEFAULT.cacheSize(), events.getFlushTimeout(), events.getApi()));
		problems.check("operator.webhook", Map.of(), () -> new WebhookServerConfig(webhook.getBindAddress(),
				webhook.getPort(), webhook.getHandlerTimeout()));
		problems.check("operator.cache", cache.propertiesBySetting(), cache::toObjectBudgets);
		problems.check("operator.cache", cache.propertiesBySetting(),
				() -> cache.toUnscopedInformerPolicy(UnscopedInformerAdvice.BUILDER));
		checkMetricsAuth(problems, metricsAuth);
		checkClusters(problems, get(OperatorClustersProperties.class, bound));
		problems.throwIfAny(OperatorPropertiesFailureAnalyzer.ACTION);
	}

	/**
	 * Checks the clusters of the fleet, a part of this starter's wiring: the core's
	 * providers report a file that cannot be read only once the fleet runs.
	 */
	private static void checkClusters(PropertyProblems problems, OperatorClustersProperties clusters) {
		OperatorClustersProperties.Secrets secrets = clusters.getSecrets();
		clusters.getKubeconfigs().forEach((name, file) -> {
			String key = "operator.clusters.kubeconfigs." + name;
			if (file == null || !Files.isRegularFile(file) || !Files.isReadable(file)) {
				problems.add(key, file, "must be a kubeconfig file this process can read");
			}
		});
		clusters.getConnectionDetails().forEach((name, bean) -> {
			String key = "operator.clusters.connection-details." + name;
			if (bean == null || bean.isBlank()) {
				problems.add(key, bean, "must name a KubernetesConnectionDetails bean");
			}
			if (clusters.getKubeconfigs().containsKey(name)) {
				problems.add(key, bean, "names cluster " + name
						+ ", which operator.clusters.kubeconfigs names too: give each cluster one name");
			}
		});
		if (secrets.getNamespace() != null && !ConfigChecks.isDnsLabel(secrets.getNamespace())) {
			problems.add("operator.clusters.secrets.namespace", secrets.getNamespace(), ConfigChecks.DNS_LABEL_RULE);
		}
		if (secrets.getKey() == null || secrets.getKey().isBlank()) {
			problems.add("operator.clusters.secrets.key", secrets.getKey(), "must name a key of the Secrets' data");
		}
		if (secrets.getLabelSelector() == null || secrets.getLabelSelector().isBlank()) {
			problems.add("operator.clusters.secrets.label-selector", secrets.getLabelSelector(),
					"must select the kubeconfig Secrets: a namespace's other Secrets are never clusters");
		}
		if (!clusters.isEnabled()) {
			if (!clusters.getKubeconfigs().isEmpty()) {
				problems.add("operator.clusters.kubeconfigs", String.join(", ", clusters.getKubeconfigs().keySet()),
						"names clusters while operator.clusters.enabled is false, which engages none: set it to true");
			}
			if (!clusters.getConnectionDetails().isEmpty()) {
				problems.add("operator.clusters.connection-details",
						String.join(", ", clusters.getConnectionDetails().keySet()),
						"names clusters while operator.clusters.enabled is false, which engages none: set it to true");
			}
			if (secrets.getNamespace() != null) {
				problems.add("operator.clusters.secrets.namespace", secrets.getNamespace(),
						"is set while operator.clusters.enabled is false, which engages no cluster: set it to true");
			}
		}
	}

	/**
	 * Checks the metrics endpoint's access reviews, a part of this starter: the core has
	 * no such settings.
	 */
	private static void checkMetricsAuth(PropertyProblems problems, OperatorMetricsAuthProperties auth) {
		if (auth.getAllowedCacheTtl() == null || auth.getAllowedCacheTtl().isNegative()) {
			problems.add("operator.metrics.auth.allowed-cache-ttl", auth.getAllowedCacheTtl(), "must not be negative");
		}
		if (auth.getDeniedCacheTtl() == null || auth.getDeniedCacheTtl().isNegative()) {
			problems.add("operator.metrics.auth.denied-cache-ttl", auth.getDeniedCacheTtl(), "must not be negative");
		}
		if (auth.getCacheSize() < 1) {
			problems.add("operator.metrics.auth.cache-size", auth.getCacheSize(), "must be at least 1");
		}
		List<String> endpoints = auth.getEndpoints();
		for (int i = 0; i < endpoints.size(); i++) {
			if (endpoints.get(i) == null || endpoints.get(i).isBlank()) {
				problems.add("operator.metrics.auth.endpoints[" + i + "]", endpoints.get(i),
						"must name an Actuator endpoint, such as prometheus");
			}
		}
		if (auth.isEnabled() && endpoints.isEmpty()) {
			problems.add("operator.metrics.auth.endpoints", "", "must name at least one Actuator endpoint to guard, "
					+ "such as prometheus, while operator.metrics.auth.enabled is true");
		}
	}

	/**
	 * Reports the keys under {@code operator} that no properties class binds. The binder
	 * reports those under the other groups' prefixes; the keys directly under
	 * {@code operator} are left to this check, as the binder of
	 * {@link OperatorProperties} would take the other groups' keys for unknown ones.
	 */
	private void checkUnknownKeys(PropertyProblems problems) {
		List<ConfigurationPropertyName> known = new ArrayList<>();
		for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(OperatorProperties.class)) {
			if (property.getReadMethod() != null && !property.getName().equals("class")) {
				known.add(OPERATOR.append(DataObjectPropertyName.toDashedForm(property.getName())));
			}
		}
		for (Class<?> type : PROPERTIES) {
			ConfigurationPropertyName prefix = ConfigurationPropertyName
				.of(MergedAnnotations.from(type).get(ConfigurationProperties.class).getString("prefix"));
			if (!prefix.equals(OPERATOR)) {
				known.add(prefix);
			}
		}
		known.add(LOCAL_CONTROL_PLANE);
		// as the binder, ignoring environment variables and system properties
		UnboundElementsSourceFilter filter = new UnboundElementsSourceFilter();
		Set<String> unknown = new LinkedHashSet<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(this.environment)) {
			if (source instanceof IterableConfigurationPropertySource iterable && filter.apply(source)) {
				iterable.stream()
					.filter((name) -> OPERATOR.isAncestorOf(name)
							&& known.stream().noneMatch((key) -> key.equals(name) || key.isAncestorOf(name)))
					.forEach((name) -> unknown.add(name.toString()));
			}
		}
		unknown.forEach((name) -> problems.add(name, null, "is not an operator property"));
	}

	/**
	 * Checks what sharding's properties say about the controllers and leader election,
	 * which {@link ShardingConfig} does not hold.
	 */
	private static void checkShardedControllers(PropertyProblems problems, OperatorShardingProperties sharding,
			OperatorLeaderElectionProperties election) {
		List<String> controllers = sharding.getControllers();
		for (int i = 0; i < controllers.size(); i++) {
			if (controllers.get(i) == null || controllers.get(i).isBlank()) {
				problems.add("operator.sharding.controllers[" + i + "]", controllers.get(i), "must name a controller");
			}
		}
		if (!sharding.isEnabled() && !controllers.isEmpty()) {
			problems.add("operator.sharding.controllers", String.join(",", controllers),
					"names controllers to shard, but operator.sharding.enabled is false: set it to true, or remove "
							+ "the names");
		}
		if (sharding.isEnabled() && sharding.getMode() == ShardingConfig.Mode.LABEL && !election.isEnabled()) {
			problems.add("operator.sharding.mode", "label", "needs operator.leader-election.enabled=true: the "
					+ "sharder that labels the objects runs on the leader");
		}
	}

	private <T> T get(Class<T> type, Object bound) {
		// the bean just bound is still being created: the factory would refuse it
		return type.isInstance(bound) ? type.cast(bound) : this.beanFactory.getBean(type);
	}

}
