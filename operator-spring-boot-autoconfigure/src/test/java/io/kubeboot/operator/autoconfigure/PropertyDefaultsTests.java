package io.kubeboot.operator.autoconfigure;

import java.beans.PropertyDescriptor;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import io.kubeboot.operator.cache.ObjectBudgets;
import io.kubeboot.operator.cache.UnscopedInformerPolicy;
import io.kubeboot.operator.client.ClientConfig;
import io.kubeboot.operator.cluster.KubeconfigSecrets;
import io.kubeboot.operator.events.EventRecorderConfig;
import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LeaseTimings;
import io.kubeboot.operator.manager.ControllerConfig;
import io.kubeboot.operator.manager.ManagerConfig;
import io.kubeboot.operator.manager.ManagerHealth;
import io.kubeboot.operator.sharding.ShardingConfig;
import io.kubeboot.operator.tracing.TraceContextAnnotation;
import io.kubeboot.operator.webhook.WebhookServerConfig;
import io.kubeboot.operator.workqueue.RateLimiters;
import org.junit.jupiter.api.Test;
import org.springframework.beans.BeanUtils;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.core.annotation.MergedAnnotations;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every default of an {@code operator.*} property is the default of the core's
 * configuration it sets, or one of the starter's own. The properties keep their defaults
 * as literals, for the configuration processor to write them into the metadata (and so
 * into {@code docs/reference/properties.md}); a default changed on one side only fails
 * here.
 */
class PropertyDefaultsTests {

	/**
	 * The properties whose defaults are the core's, with the core's default.
	 */
	private static final Map<String, Object> CORE_DEFAULTS = coreDefaults();

	/**
	 * The properties the core has no default for: the starter's switches, and values
	 * found where the operator runs when the property is not set.
	 */
	private static final Set<String> STARTERS_OWN = Set.of("operator.enabled", "operator.auto-startup",
			"operator.namespace", "operator.keep-alive", "operator.controllers", "operator.leader-election.enabled",
			"operator.leader-election.lease-name", "operator.leader-election.namespace",
			"operator.leader-election.identity", "operator.sharding.enabled", "operator.sharding.ring",
			"operator.sharding.namespace", "operator.sharding.identity", "operator.sharding.controllers",
			"operator.health.probe-interval", "operator.health.healthz-enabled", "operator.events.enabled",
			"operator.events.component", "operator.webhook.cert-dir", "operator.webhook.cert-name",
			"operator.webhook.key-name", "operator.webhook.cert-check-interval", "operator.webhook.self-signed",
			"operator.webhook.self-signed-hosts", "operator.metrics.auth.enabled", "operator.metrics.auth.endpoints",
			"operator.metrics.auth.audiences", "operator.metrics.auth.allowed-cache-ttl",
			"operator.metrics.auth.denied-cache-ttl", "operator.metrics.auth.cache-size",
			"operator.tracing.observation-timers", "operator.clusters.enabled", "operator.clusters.kubeconfigs",
			"operator.clusters.connection-details", "operator.clusters.secrets.namespace");

	@Test
	void everyPropertyHasTheCoresDefaultOrIsTheStartersOwn() {
		Set<String> known = new TreeSet<>(CORE_DEFAULTS.keySet());
		known.addAll(STARTERS_OWN);
		assertThat(defaults().keySet()).as("the properties, each listed in CORE_DEFAULTS or STARTERS_OWN")
			.containsExactlyInAnyOrderElementsOf(known);
	}

	@Test
	void theDefaultsAreTheCores() {
		Map<String, Object> defaults = defaults();
		CORE_DEFAULTS.forEach((property, core) -> assertThat(defaults.get(property)).as("the default of %s", property)
			.isEqualTo(core));
	}

	private static Map<String, Object> coreDefaults() {
		Map<String, Object> defaults = new HashMap<>();
		ManagerConfig manager = ManagerConfig.DEFAULT;
		defaults.put("operator.sync-period", manager.syncPeriod());
		defaults.put("operator.graceful-shutdown-timeout", manager.gracefulShutdownTimeout());
		defaults.put("operator.cache-sync-timeout", manager.cacheSyncTimeout());
		defaults.put("operator.watch-timeout", manager.watchTimeout());
		defaults.put("operator.watch-silence-threshold", manager.watchSilenceThreshold());
		defaults.put("operator.health.watch-failure-threshold", manager.watchFailureThreshold());
		defaults.put("operator.health.namespaces-in-readiness", ManagerHealth.DEFAULT_NAMESPACES_IN_READINESS);
		defaults.put("operator.list-page-size", manager.listPageSize());
		defaults.put("operator.streaming-lists", manager.streamingLists());
		defaults.put("operator.namespaces", manager.namespaces());
		defaults.put("operator.strip-managed-fields", manager.stripManagedFields());
		defaults.put("operator.client.qps", ClientConfig.DEFAULT.qps());
		defaults.put("operator.client.burst", ClientConfig.DEFAULT.burst());
		defaults.put("operator.client.timeout", ClientConfig.DEFAULT.timeout());
		defaults.put("operator.controller.max-concurrent-reconciles",
				ControllerConfig.DEFAULT.maxConcurrentReconciles());
		defaults.put("operator.controller.priority-queue", ControllerConfig.DEFAULT.priorityQueue());
		defaults.put("operator.controller.reconcile-timeout", ControllerConfig.DEFAULT.reconcileTimeout());
		defaults.put("operator.controller.rate-limiter.base-delay", RateLimiters.DEFAULT_BASE_DELAY);
		defaults.put("operator.controller.rate-limiter.max-delay", RateLimiters.DEFAULT_MAX_DELAY);
		defaults.put("operator.controller.rate-limiter.qps", RateLimiters.DEFAULT_QPS);
		defaults.put("operator.controller.rate-limiter.burst", RateLimiters.DEFAULT_BURST);
		for (String lease : List.of("operator.leader-election", "operator.sharding")) {
			defaults.put(lease + ".lease-duration", LeaseTimings.DEFAULT.leaseDuration());
			defaults.put(lease + ".renew-deadline", LeaseTimings.DEFAULT.renewDeadline());
			defaults.put(lease + ".retry-period", LeaseTimings.DEFAULT.retryPeriod());
		}
		defaults.put("operator.leader-election.release-on-shutdown", LeaderElectionConfig.DEFAULT_RELEASE_ON_SHUTDOWN);
		defaults.put("operator.leader-election.lost-lease-policy", LeaderElectionConfig.DEFAULT_LOST_LEASE_POLICY);
		defaults.put("operator.sharding.virtual-nodes", ShardingConfig.DEFAULT_VIRTUAL_NODES);
		defaults.put("operator.sharding.mode", ShardingConfig.DEFAULT_MODE);
		EventRecorderConfig events = EventRecorderConfig.DEFAULT;
		defaults.put("operator.events.queue-capacity", events.queueCapacity());
		defaults.put("operator.events.aggregation-interval", events.aggregationInterval());
		defaults.put("operator.events.qps", events.qps());
		defaults.put("operator.events.burst", events.burst());
		defaults.put("operator.events.flush-timeout", events.flushTimeout());
		defaults.put("operator.events.api", events.api());
		defaults.put("operator.webhook.port", WebhookServerConfig.DEFAULT.port());
		defaults.put("operator.webhook.bind-address", WebhookServerConfig.DEFAULT.bindAddress());
		defaults.put("operator.webhook.handler-timeout", WebhookServerConfig.DEFAULT.handlerTimeout());
		defaults.put("operator.cache.object-budget", ObjectBudgets.NONE.perInformer());
		defaults.put("operator.cache.object-budgets", ObjectBudgets.NONE.perKind());
		defaults.put("operator.cache.acknowledged-unscoped-kinds", UnscopedInformerPolicy.DEFAULT.acknowledgedKinds());
		defaults.put("operator.tracing.annotate-objects", TraceContextAnnotation.DEFAULT_WRITTEN);
		defaults.put("operator.clusters.secrets.label-selector", KubeconfigSecrets.DEFAULT_LABEL_SELECTOR);
		defaults.put("operator.clusters.secrets.key", KubeconfigSecrets.DEFAULT_KEY);
		return defaults;
	}

	/**
	 * Returns the default of every property, read from new instances of the properties
	 * classes.
	 */
	private static Map<String, Object> defaults() {
		Map<String, Object> defaults = new TreeMap<>();
		for (Class<?> type : OperatorPropertiesCheck.PROPERTIES) {
			String prefix = MergedAnnotations.from(type).get(ConfigurationProperties.class).getString("prefix");
			defaults.putAll(defaults(BeanUtils.instantiateClass(type), prefix));
		}
		return defaults;
	}

	private static Map<String, Object> defaults(Object properties, String prefix) {
		Map<String, Object> defaults = new TreeMap<>();
		BeanWrapper wrapper = new BeanWrapperImpl(properties);
		for (PropertyDescriptor descriptor : wrapper.getPropertyDescriptors()) {
			if (descriptor.getReadMethod() == null || descriptor.getName().equals("class")) {
				continue;
			}
			String property = prefix + "." + DataObjectPropertyName.toDashedForm(descriptor.getName());
			Object value = wrapper.getPropertyValue(descriptor.getName());
			if (value != null && value.getClass().getEnclosingClass() == properties.getClass()) {
				// a nested group, such as operator.controller.rate-limiter
				defaults.putAll(defaults(value, property));
			}
			else {
				defaults.put(property, value);
			}
		}
		return defaults;
	}

}
