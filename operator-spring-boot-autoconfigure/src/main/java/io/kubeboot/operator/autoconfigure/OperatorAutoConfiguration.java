package io.kubeboot.operator.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.cache.WatchedNamespaces;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.cluster.ClusterProvider;
import io.kubeboot.operator.cluster.Fleet;
import io.kubeboot.operator.cluster.KubeconfigSecrets;
import io.kubeboot.operator.cluster.StaticClusters;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.controller.Enqueuer;
import io.kubeboot.operator.healthz.Check;
import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerBuilder;
import io.kubeboot.operator.manager.ManagerRunnable;
import io.kubeboot.operator.metrics.WebhookMetrics;
import io.kubeboot.operator.sharding.ShardRing;
import io.kubeboot.operator.sharding.ShardingConfig;
import io.kubeboot.operator.tracing.OperatorTracing;
import io.kubeboot.operator.webhook.CertificateMetrics;
import io.kubeboot.operator.webhook.ServingCertificate;
import io.kubeboot.operator.webhook.WebhookServer;
import io.kubeboot.operator.workqueue.RateLimiters;
import io.kubernetes.client.openapi.ApiClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.support.DefaultLifecycleProcessor;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/**
 * Auto-configures an operator: a Kubernetes {@link ApiClient} (unless the application
 * defines one; from its {@link KubernetesConnectionDetails} if it has them, else see
 * {@link KubernetesConfigLocator}), the {@link Manager} with a controller for every
 * {@link io.kubeboot.operator.annotation.Reconciles @Reconciles} bean and every
 * {@link ManagerRunnable} bean, the {@link Cache} reconcilers read from, and the
 * {@link ManagerLifecycle} that runs it all with the application context.
 */
@AutoConfiguration
@ConditionalOnClass({ ApiClient.class, Manager.class })
@ConditionalOnBooleanProperty(name = "operator.enabled", matchIfMissing = true)
@EnableConfigurationProperties({ OperatorProperties.class, OperatorClientProperties.class,
		OperatorControllerProperties.class, OperatorLeaderElectionProperties.class, OperatorShardingProperties.class,
		OperatorHealthProperties.class, OperatorEventsProperties.class, OperatorWebhookProperties.class,
		OperatorCacheProperties.class, OperatorMetricsAuthProperties.class, OperatorTracingProperties.class,
		OperatorClustersProperties.class })
public final class OperatorAutoConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(OperatorAutoConfiguration.class);

	/**
	 * Checks every {@code operator.*} property as soon as the first group is bound.
	 * @param beanFactory the bean factory, for the other groups
	 * @param environment the environment, for where each property was set
	 * @return the check
	 */
	@Bean
	static OperatorPropertiesCheck operatorPropertiesCheck(ConfigurableListableBeanFactory beanFactory,
			Environment environment) {
		return new OperatorPropertiesCheck(beanFactory, environment);
	}

	@Bean
	@ConditionalOnMissingBean
	Manager operatorManager(ApiClient apiClient, OperatorProperties properties, OperatorClientProperties client,
			OperatorControllerProperties controller, OperatorLeaderElectionProperties election,
			OperatorHealthProperties health, OperatorCacheProperties cache, Environment environment,
			ApplicationEventPublisher publisher, ObjectProvider<ManagerBuilderCustomizer> customizers,
			ObjectProvider<WebhookServer> webhookServer, OperatorTracingProperties tracing,
			ObjectProvider<OperatorTracing> tracers, ConfigurableListableBeanFactory beanFactory) {
		OperatorControllerProperties.RateLimiter limits = controller.getRateLimiter();
		ManagerBuilder builder = Manager.builder(apiClient);
		if (election.isEnabled()) {
			LeaderElectionConfig config = LeaderElectionSettings.from(election,
					environment.getProperty("spring.application.name"),
					LeaderElectionSettings.SERVICE_ACCOUNT_NAMESPACE);
			builder.leaderElection(config).leaderElectionListener(new LeadershipEventPublisher(publisher, config));
		}
		builder.syncPeriod(properties.getSyncPeriod())
			.gracefulShutdownTimeout(properties.getGracefulShutdownTimeout())
			.cacheSyncTimeout(properties.getCacheSyncTimeout())
			.watchTimeout(properties.getWatchTimeout())
			.watchSilenceThreshold(properties.getWatchSilenceThreshold())
			.watchFailureThreshold(health.getWatchFailureThreshold())
			.listPageSize(properties.getListPageSize())
			.streamingLists(properties.isStreamingLists())
			.namespaces(NamespaceSettings.from(properties.getNamespace(), properties.getNamespaces()))
			.fieldManager(fieldManager(environment))
			.clientRateLimit(client.getQps(), client.getBurst())
			.clientTimeout(client.getTimeout())
			.stripManagedFields(properties.isStripManagedFields())
			.maxConcurrentReconciles(controller.getMaxConcurrentReconciles())
			.priorityQueue(controller.isPriorityQueue())
			.reconcileTimeout(controller.getReconcileTimeout())
			.rateLimiter(() -> RateLimiters.controllerRateLimiter(limits.getBaseDelay(), limits.getMaxDelay(),
					limits.getQps(), limits.getBurst()));
		builder.objectBudgets(cache.toObjectBudgets())
			.unscopedInformers(cache.toUnscopedInformerPolicy(new UnscopedInformerAdvisor(beanFactory, environment)));
		webhookServer.ifAvailable(builder::webhookServer);
		tracers.ifAvailable(builder::tracing);
		builder.traceContextAnnotation(tracing.isAnnotateObjects());
		CacheTransformBeans.registerAll(beanFactory, builder);
		customizers.orderedStream().forEach((customizer) -> customizer.customize(builder));
		Manager manager = builder.build();
		if (tracing.isAnnotateObjects() && manager.controllerDefaults().tracing() == OperatorTracing.NOOP) {
			logger.warn("operator.tracing.annotate-objects is on but nothing traces the operator, so no create "
					+ "carries a trace context: add Micrometer Tracing with a bridge (spring-boot-starter-opentelemetry, "
					+ "or the Brave bridge), or an OperatorTracing bean");
		}
		CacheIndexBeans.registerAll(beanFactory, manager.cache());
		return manager;
	}

	private static String fieldManager(Environment environment) {
		String applicationName = environment.getProperty("spring.application.name");
		return StringUtils.hasText(applicationName) ? applicationName : "operator";
	}

	/**
	 * The certificate of the webhook server: {@code operator.webhook.cert-dir}'s files,
	 * reloaded when they change, or a self-signed one.
	 * @param properties the properties
	 * @param metrics the certificate watcher's metrics, if the application has metrics
	 * @param environment the environment, for where the properties were set
	 * @return the certificate
	 */
	@Bean
	@ConditionalOnMissingBean
	@Conditional(WebhookBeans.OnWebhookBeans.class)
	ServingCertificate operatorWebhookCertificate(OperatorWebhookProperties properties,
			ObjectProvider<CertificateMetrics> metrics, Environment environment) {
		return WebhookBeans.certificate(properties, metrics.getIfAvailable(CertificateMetrics::none), environment);
	}

	/**
	 * The webhook server of the manager, when the application has validators, defaulters
	 * or conversions.
	 * @param certificate its certificate
	 * @param properties the properties
	 * @param metrics its metrics, if the application has metrics
	 * @param tracing where its requests are traced, if the application observes
	 * @return the server
	 */
	@Bean
	@ConditionalOnMissingBean
	@Conditional(WebhookBeans.OnWebhookBeans.class)
	WebhookServer operatorWebhookServer(ServingCertificate certificate, OperatorWebhookProperties properties,
			ObjectProvider<WebhookMetrics> metrics, ObjectProvider<OperatorTracing> tracing) {
		return WebhookBeans.server(certificate, properties, metrics.getIfAvailable(() -> WebhookMetrics.NOOP),
				tracing.getIfAvailable(() -> OperatorTracing.NOOP));
	}

	/**
	 * This replica's membership in the shard ring of {@code operator.sharding.*}, which
	 * the controllers named in {@code operator.sharding.controllers} are sharded over.
	 * @param manager the manager it joins with
	 * @param apiClient the client
	 * @param sharding the properties of sharding
	 * @param election the properties of leader election, for the defaults of sharding's
	 * @param environment the environment, for the application name
	 * @return the membership
	 */
	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBooleanProperty("operator.sharding.enabled")
	ShardRing operatorShardRing(Manager manager, ApiClient apiClient, OperatorShardingProperties sharding,
			OperatorLeaderElectionProperties election, Environment environment) {
		ShardingConfig config = ShardingSettings.from(sharding, election,
				environment.getProperty("spring.application.name"), LeaderElectionSettings.SERVICE_ACCOUNT_NAMESPACE);
		return ShardRing.join(manager, apiClient, config);
	}

	/**
	 * The fleet of clusters the fleet controllers run in, with the clusters of
	 * {@code operator.clusters.kubeconfigs} and
	 * {@code operator.clusters.connection-details}, those of the kubeconfig Secrets of
	 * {@code operator.clusters.secrets.*} and those of every {@link ClusterProvider}
	 * bean; shared over the shard ring if there is one.
	 * @param manager the home manager, which runs the fleet on the leader
	 * @param clusters the properties of the fleet
	 * @param providers the application's providers
	 * @param ring the shard ring of {@code operator.sharding.enabled}
	 * @param beans the beans, for the connection details the properties name
	 * @return the fleet
	 */
	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBooleanProperty("operator.clusters.enabled")
	Fleet operatorFleet(Manager manager, OperatorClustersProperties clusters, ObjectProvider<ClusterProvider> providers,
			ObjectProvider<ShardRing> ring, ListableBeanFactory beans) {
		Fleet.Builder builder = Fleet.builder(manager);
		ring.ifAvailable(builder::sharedOver);
		boolean named = false;
		if (!clusters.getKubeconfigs().isEmpty()) {
			builder.provider(StaticClusters.fromKubeconfigs(clusters.getKubeconfigs()));
			named = true;
		}
		if (!clusters.getConnectionDetails().isEmpty()) {
			builder.provider(StaticClusters.fromKubeconfigTexts(MemberConnectionDetails.kubeconfigs(clusters, beans)));
			named = true;
		}
		OperatorClustersProperties.Secrets secrets = clusters.getSecrets();
		if (secrets.getNamespace() != null) {
			builder.provider(KubeconfigSecrets.in(manager, secrets.getNamespace(), secrets.getLabelSelector(),
					secrets.getKey()));
			named = true;
		}
		for (ClusterProvider provider : providers.orderedStream().toList()) {
			builder.provider(provider);
			named = true;
		}
		if (!named) {
			String reason = "operator.clusters.enabled is true, and no cluster is named: set "
					+ "operator.clusters.kubeconfigs.<name>, operator.clusters.connection-details.<name> or "
					+ "operator.clusters.secrets.namespace, or declare a ClusterProvider bean";
			throw new InvalidOperatorPropertyException(reason, List
				.of(new InvalidOperatorPropertyException.Problem("operator.clusters.enabled", true, null, reason)),
					"Name the clusters of the fleet, or set operator.clusters.enabled=false.");
		}
		return builder.build();
	}

	@Bean
	@ConditionalOnMissingBean
	Cache operatorCache(Manager manager) {
		return manager.cache();
	}

	@Bean
	@ConditionalOnMissingBean
	Client operatorClient(Manager manager) {
		return manager.client();
	}

	/**
	 * The namespaces the manager watches, to change them while it runs.
	 * @param manager the manager
	 * @return its namespaces
	 */
	@Bean
	@ConditionalOnMissingBean
	WatchedNamespaces operatorNamespaces(Manager manager) {
		return manager.namespaces();
	}

	@Bean
	@ConditionalOnMissingBean
	ManagerLifecycle operatorManagerLifecycle(Manager manager, OperatorProperties properties, ApiClient apiClient,
			ObjectProvider<KubernetesClientSource> clientSource) {
		ManagerLifecycle lifecycle = new ManagerLifecycle(manager, properties.isAutoStartup(),
				properties.isKeepAlive());
		KubernetesClientSource source = clientSource.getIfAvailable();
		lifecycle.serverOrigin(apiClient.getBasePath(),
				(source != null) ? source.describe() : "the application's ApiClient bean");
		return lifecycle;
	}

	@Bean
	static PeriodicTriggerBeans operatorPeriodicTriggerBeans() {
		return new PeriodicTriggerBeans();
	}

	@Bean
	@ConditionalOnMissingBean
	Enqueuer operatorEnqueuer(Manager manager) {
		return new Enqueuer(manager);
	}

	@Bean
	static SmartInitializingSingleton operatorControllerRegistrar(ConfigurableListableBeanFactory beanFactory,
			Environment environment, PeriodicTriggerBeans periodicTriggers) {
		return () -> {
			Manager manager = beanFactory.getBean(Manager.class);
			ReconcilerBeans reconcilers = new ReconcilerBeans(beanFactory, environment,
					beanFactory.getBean(OperatorProperties.class),
					beanFactory.getBean(OperatorShardingProperties.class),
					beanFactory.getBean(OperatorLeaderElectionProperties.class),
					beanFactory.getBeanProvider(ShardRing.class).getIfAvailable());
			reconcilers.registerAll(manager, beanFactory.getBeanProvider(Fleet.class).getIfAvailable());
			reconcilers.checkControllerProperties(manager);
			reconcilers.checkShardedControllers(manager);
			beanFactory.getBean(OperatorCacheProperties.class).checkBudgetKinds(manager, environment);
			manager.webhookServer().ifPresent((server) -> WebhookBeans.registerAll(beanFactory, server));
			periodicTriggers.registerAll(manager, reconcilers, beanFactory, environment);
			Map<String, ManagerRunnable> runnables = beanFactory.getBeansOfType(ManagerRunnable.class);
			// controllers, and runnables such as the event recorder, were added under
			// names of their own when they were created
			List<ManagerRunnable> added = manager.runnables(ManagerRunnable.class);
			runnables.forEach((name, runnable) -> {
				if (!(runnable instanceof Controller) && added.stream().noneMatch((other) -> other == runnable)) {
					manager.add(name, runnable);
				}
			});
			for (String name : beanFactory.getBeanNamesForType(java.lang.Runnable.class, false, false)) {
				if (!runnables.containsKey(name)) {
					logger.warn(
							"Bean '{}' is a java.lang.Runnable, which the operator's manager does not run; "
									+ "implement {} to have it started and stopped with the controllers",
							name, ManagerRunnable.class.getName());
				}
			}
			// added once every bean exists: a check may depend on beans that need the
			// Manager, such as the Cache
			beanFactory.getBeanProvider(Check.class).orderedStream().forEach(manager::addCheck);
		};
	}

	@Bean
	static BeanPostProcessor operatorShutdownPhaseTimeout(Environment environment) {
		return new BeanPostProcessor() {

			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
				if (bean instanceof DefaultLifecycleProcessor processor) {
					Duration graceful = Binder.get(environment)
						.bind("operator.graceful-shutdown-timeout", Duration.class)
						.orElse(Duration.ofSeconds(30));
					// the manager may take the whole graceful timeout, then a few seconds
					// to interrupt
					long timeout = graceful.isNegative() ? Long.MAX_VALUE : graceful.plusSeconds(10).toMillis();
					processor.setTimeoutForShutdownPhase(ManagerLifecycle.PHASE, timeout);
				}
				return bean;
			}

		};
	}

	/**
	 * Applies {@code operator.namespace} and {@code operator.namespaces} as Spring Cloud
	 * refreshes the environment, when Spring Cloud Context is on the class path (named,
	 * so that this starter needs no Spring Cloud to compile or run).
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = NamespacesRefresh.ENVIRONMENT_CHANGE_EVENT)
	static class NamespacesRefreshConfiguration {

		@Bean
		@ConditionalOnMissingBean
		NamespacesRefresh operatorNamespacesRefresh(WatchedNamespaces namespaces, Environment environment,
				OperatorProperties properties) {
			return new NamespacesRefresh(namespaces, environment, NamespacesRefresh.ENVIRONMENT_CHANGE_EVENT,
					NamespaceSettings.from(properties.getNamespace(), properties.getNamespaces()));
		}

	}

	/**
	 * The client for the cluster, unless the application defines one: from the
	 * {@link KubernetesConnectionDetails} bean if there is one, else from the file named
	 * by {@code KUBECONFIG}, else {@code ~/.kube/config}, else the in-cluster service
	 * account. Without any of them start-up fails saying where it looked, except in a
	 * {@linkplain TrainingRun training run}, which never connects.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingBean(ApiClient.class)
	static class KubernetesClientConfiguration {

		@Bean
		KubernetesClientSource operatorKubernetesClientSource(
				ObjectProvider<KubernetesConnectionDetails> connectionDetails,
				ObjectProvider<KubernetesConfigLocator> locator, ListableBeanFactory beans, Environment environment) {
			KubernetesConnectionDetails details = MemberConnectionDetails.home(connectionDetails, beans, environment);
			// another locator only in tests, which cannot change this process's
			// environment
			KubernetesClientSource source;
			try {
				source = (details != null) ? KubernetesConfigLocator.fromConnectionDetails(details)
						: locator.getIfAvailable(KubernetesConfigLocator::forThisProcess).locate();
			}
			catch (KubernetesConfigurationException ex) {
				if (!TrainingRun.isActive()) {
					throw ex;
				}
				source = KubernetesConfigLocator.forTrainingRun();
			}
			logger.info("Kubernetes client configured: server={} source=\"{}\"", source.client().getBasePath(),
					source.describe());
			return source;
		}

		@Bean
		ApiClient kubernetesApiClient(KubernetesClientSource source) {
			return source.client();
		}

	}

}
