package io.kubeboot.operator.autoconfigure;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.annotation.Watches;
import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.healthz.Check;
import io.kubeboot.operator.healthz.CheckResult;
import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LostLeasePolicy;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerHealth;
import io.kubeboot.operator.manager.ManagerRunnable;
import io.kubeboot.operator.model.KubernetesKind;
import io.kubeboot.operator.reconcile.ReconcileContext;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.tracing.OperatorTracing;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.ConfigurationPropertiesAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.support.DefaultLifecycleProcessor;
import org.springframework.test.util.ReflectionTestUtils;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(OutputCaptureExtension.class)
class OperatorAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class))
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1"))
		.withPropertyValues("operator.auto-startup=false");

	@Test
	void runShouldCreateManagerCacheAndLifecycle() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(Manager.class);
			assertThat(context).hasSingleBean(Cache.class);
			assertThat(context).hasSingleBean(ManagerLifecycle.class);
			assertThat(context.getBean(Cache.class)).isSameAs(context.getBean(Manager.class).cache());
			assertThat(context.getBean(Manager.class).gracefulShutdownTimeout()).hasSeconds(30);
		});
	}

	@Test
	void runWithObjectBudgetsShouldGiveEachInformerItsKindsOrTheDefault() {
		this.contextRunner.withUserConfiguration(InterfaceReconcilerConfiguration.class)
			.withPropertyValues("operator.cache.object-budget=5000", "operator.cache.object-budgets.configmap=200")
			.run((context) -> {
				Cache cache = context.getBean(Cache.class);
				assertThat(cache.informer(V1ConfigMap.class, null, null).cost().objectBudget()).hasValue(200);
				assertThat(cache.informer(V1Pod.class, "shop", null).cost().objectBudget()).hasValue(5000);
			});
	}

	@Test
	void runWithABudgetOfAKindNoInformerCachesShouldFailNamingTheProperty() {
		this.contextRunner.withUserConfiguration(InterfaceReconcilerConfiguration.class)
			.withPropertyValues("operator.cache.object-budgets.secrets=200",
					"operator.cache.object-budgets.ConfigMap=5")
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(InvalidOperatorPropertyException.class)
				.hasMessage("operator.cache.object-budgets.secrets (200) names no kind an informer caches (ConfigMap): "
						+ "name a kind as the metrics' kind label does, such as Secret, or as kind.group for one API "
						+ "group's, such as Event.events.k8s.io"));
	}

	@Test
	void runWithoutObjectBudgetsShouldGiveNoInformerABudget() {
		this.contextRunner.run((context) -> assertThat(
				context.getBean(Cache.class).informer(V1Secret.class, null, null).cost().objectBudget())
			.isEmpty());
	}

	@Test
	void runWithoutApiClientBeanShouldCreateOneFromKubeconfig(@TempDir Path directory) throws IOException {
		Path kubeconfig = KubernetesConfigLocatorTests.kubeconfig(directory.resolve("config"), "https://127.0.0.1:6443",
				"dev");
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class))
			.withPropertyValues("operator.auto-startup=false")
			.withBean(KubernetesConfigLocator.class,
					() -> new KubernetesConfigLocator(Map.of("KUBECONFIG", kubeconfig.toString())::get, null,
							directory))
			.run((context) -> {
				assertThat(context.getBean(ApiClient.class).getBasePath()).isEqualTo("https://127.0.0.1:6443");
				assertThat(context.getBean(KubernetesClientSource.class).describe())
					.isEqualTo("KUBECONFIG=" + kubeconfig + ", context dev");
			});
	}

	@Test
	void runWithoutAnyKubernetesConfigurationShouldFailInsteadOfUsingLocalhost(@TempDir Path directory) {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class))
			.withPropertyValues("operator.auto-startup=false")
			.withBean(KubernetesConfigLocator.class,
					() -> new KubernetesConfigLocator(Map.<String, String>of()::get, directory.toString(), directory))
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(KubernetesConfigurationException.class)
				.hasMessageStartingWith("No Kubernetes configuration found. Looked at:\n    KUBECONFIG: not set\n"));
	}

	@Test
	void runWithUserApiClientShouldNotLookForConfiguration() {
		this.contextRunner
			.withBean(KubernetesConfigLocator.class,
					() -> new KubernetesConfigLocator(Map.<String, String>of()::get, null, Path.of("/nonexistent")))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(KubernetesClientSource.class));
	}

	@Test
	void runWithConnectionDetailsShouldCreateClientFromTheirKubeconfig() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class))
			.withPropertyValues("operator.auto-startup=false")
			.withBean(KubernetesConnectionDetails.class,
					() -> KubernetesConnectionDetails.ofKubeconfig(kubeconfig("https://127.0.0.1:16443")))
			.run((context) -> {
				assertThat(context).hasSingleBean(ApiClient.class);
				assertThat(context.getBean(ApiClient.class).getBasePath()).isEqualTo("https://127.0.0.1:16443");
			});
	}

	@Test
	void runWithConnectionDetailsAndUserApiClientShouldUseTheUserApiClient() {
		this.contextRunner
			.withBean(KubernetesConnectionDetails.class,
					() -> KubernetesConnectionDetails.ofKubeconfig(kubeconfig("https://127.0.0.1:16443")))
			.run((context) -> assertThat(context.getBean(ApiClient.class).getBasePath())
				.isEqualTo("https://127.0.0.1:1"));
	}

	@Test
	void runWithConnectionDetailsThatAreNoKubeconfigShouldFailNamingThem() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class))
			.withPropertyValues("operator.auto-startup=false")
			.withBean(KubernetesConnectionDetails.class,
					() -> KubernetesConnectionDetails.ofKubeconfig("clusters: [ not yaml"))
			.run((context) -> assertThat(context).getFailure()
				.hasStackTraceContaining("Cannot create the Kubernetes client from the kubeconfig of"));
	}

	private static String kubeconfig(String server) {
		return """
				apiVersion: v1
				kind: Config
				clusters:
				- name: test
				  cluster:
				    server: %s
				    insecure-skip-tls-verify: true
				users:
				- name: test
				  user:
				    token: secret-token
				contexts:
				- name: test
				  context:
				    cluster: test
				    user: test
				current-context: test
				""".formatted(server);
	}

	@Test
	void runWithUserApiClientShouldUseIt() {
		this.contextRunner.run((context) -> assertThat(context.getBean(ApiClient.class).getBasePath())
			.isEqualTo("https://127.0.0.1:1"));
	}

	@Test
	void runWithUserManagerShouldBackOff() {
		this.contextRunner.withUserConfiguration(UserManagerConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(Manager.class);
			assertThat(context.getBean(Manager.class)).isSameAs(context.getBean("myManager"));
		});
	}

	@Test
	void runWhenDisabledShouldNotCreateManager() {
		this.contextRunner.withPropertyValues("operator.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(Manager.class)
				.doesNotHaveBean(ManagerLifecycle.class));
	}

	@Test
	void runWithoutClientJavaShouldNotCreateManager() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(ApiClient.class))
			.run((context) -> assertThat(context).doesNotHaveBean(Manager.class));
	}

	@Test
	void runWithWatchSettingsShouldConfigureTheCache() {
		this.contextRunner.withPropertyValues("operator.watch-timeout=30s", "operator.watch-silence-threshold=45s")
			.run((context) -> assertThat(context.getBean(Manager.class).watchSilenceThreshold())
				.isEqualTo(Duration.ofSeconds(45)));
	}

	@Test
	void runWithListPageSizeShouldConfigureTheCache() {
		this.contextRunner.run((context) -> assertThat(context.getBean(Manager.class).listPageSize()).isEqualTo(500));
		this.contextRunner.withPropertyValues("operator.list-page-size=100")
			.run((context) -> assertThat(context.getBean(Manager.class).listPageSize()).isEqualTo(100));
	}

	@Test
	void runWithClientRateLimitShouldConfigureTheManager() {
		this.contextRunner.run((context) -> {
			assertThat(context.getBean(Manager.class).clientQps()).isZero();
			assertThat(context.getBean(Manager.class).clientBurst()).isEqualTo(10);
			assertThat(context.getBean(Manager.class).clientTimeout()).isEqualTo(Duration.ofSeconds(30));
		});
		this.contextRunner
			.withPropertyValues("operator.client.qps=20", "operator.client.burst=30", "operator.client.timeout=5s")
			.run((context) -> {
				assertThat(context.getBean(Manager.class).clientQps()).isEqualTo(20);
				assertThat(context.getBean(Manager.class).clientBurst()).isEqualTo(30);
				assertThat(context.getBean(Manager.class).clientTimeout()).isEqualTo(Duration.ofSeconds(5));
			});
	}

	@Test
	void runWithUnknownPropertyShouldFailNamingIt() {
		this.contextRunner.withPropertyValues("operator.sync-perod=1m")
			.run((context) -> assertThat(context).getFailure().rootCause().hasMessageContaining("operator.sync-perod"));
	}

	@Test
	void runWithReconcilerBeanShouldCreateController() {
		this.contextRunner.withUserConfiguration(InterfaceReconcilerConfiguration.class).run((context) -> {
			Controller controller = onlyController(context.getBean(Manager.class));
			assertThat(controller.name()).isEqualTo("configmap");
			assertThat(controller.maxConcurrentReconciles()).isEqualTo(1);
			assertThat(controller.watches()).hasSize(1);
			assertThat(controller.watches().get(0).type()).isEqualTo(V1ConfigMap.class);
		});
	}

	@Test
	void runWithReconcileMethodBeanShouldCreateControllerWithOwnsAndWatches() {
		this.contextRunner.withUserConfiguration(MethodReconcilerConfiguration.class)
			.withPropertyValues("app.namespace=team-a")
			.run((context) -> {
				Controller controller = onlyController(context.getBean(Manager.class));
				assertThat(controller.name()).isEqualTo("pods");
				assertThat(controller.maxConcurrentReconciles()).isEqualTo(3);
				assertThat(controller.watches()).extracting((key) -> key.type().getSimpleName() + "@" + key.namespace())
					.containsExactly("V1Pod@team-a", "V1ConfigMap@team-a", "V1Secret@team-a");
			});
	}

	@Test
	void runWithReconcileMethodTakingTheContextShouldCreateItsController() {
		this.contextRunner.withUserConfiguration(ContextReconcilerConfiguration.class)
			.run((context) -> assertThat(onlyController(context.getBean(Manager.class)).name()).isEqualTo("secret"));
	}

	@Test
	void runWithControllerOverrideShouldUseIt() {
		this.contextRunner.withUserConfiguration(InterfaceReconcilerConfiguration.class)
			.withPropertyValues("operator.controllers.configmap.max-concurrent-reconciles=4")
			.run((context) -> assertThat(onlyController(context.getBean(Manager.class)).maxConcurrentReconciles())
				.isEqualTo(4));
	}

	@Test
	void runWithDefaultMaxConcurrentReconcilesShouldUseIt() {
		this.contextRunner.withUserConfiguration(InterfaceReconcilerConfiguration.class)
			.withPropertyValues("operator.controller.max-concurrent-reconciles=2")
			.run((context) -> assertThat(onlyController(context.getBean(Manager.class)).maxConcurrentReconciles())
				.isEqualTo(2));
	}

	@Test
	void runShouldGiveControllersAPriorityQueue() {
		this.contextRunner.withUserConfiguration(InterfaceReconcilerConfiguration.class)
			.run((context) -> assertThat(onlyController(context.getBean(Manager.class)).priorityQueue()).isTrue());
	}

	@Test
	void runWhenThePriorityQueueIsDisabledShouldGiveControllersAFirstInFirstOutQueue() {
		this.contextRunner.withUserConfiguration(InterfaceReconcilerConfiguration.class)
			.withPropertyValues("operator.controller.priority-queue=false")
			.run((context) -> {
				Manager manager = context.getBean(Manager.class);
				assertThat(manager.controllerDefaults().priorityQueue()).isFalse();
				assertThat(onlyController(manager).priorityQueue()).isFalse();
			});
	}

	@Test
	void runWithAControllerOverrideOfThePriorityQueueShouldUseIt() {
		this.contextRunner.withUserConfiguration(InterfaceReconcilerConfiguration.class)
			.withPropertyValues("operator.controller.priority-queue=false",
					"operator.controllers.configmap.priority-queue=true")
			.run((context) -> assertThat(onlyController(context.getBean(Manager.class)).priorityQueue()).isTrue());
	}

	@Test
	void runWithAPriorityQueueThatIsNotABooleanShouldFailNamingTheProperty() {
		this.contextRunner.withPropertyValues("operator.controller.priority-queue=sometimes")
			.run((context) -> assertThat(context).getFailure()
				.hasStackTraceContaining("Failed to bind properties under 'operator.controller.priority-queue'"));
	}

	@Test
	void runWithPropertiesOfAnUnknownControllerShouldFailNamingThemAndTheControllers() {
		this.contextRunner
			.withUserConfiguration(InterfaceReconcilerConfiguration.class, MethodReconcilerConfiguration.class)
			.withPropertyValues("app.namespace=team-a", "operator.controllers.confgmap.max-concurrent-reconciles=2")
			.run((context) -> {
				assertThat(context).getFailure()
					.isInstanceOf(InvalidOperatorPropertyException.class)
					.hasMessage(
							"operator.controllers.confgmap names no controller; the controllers are: configmap, pods");
				assertThat(
						new OperatorPropertiesFailureAnalyzer().analyze(context.getStartupFailure()).getDescription())
					.contains("    Property: operator.controllers.confgmap.max-concurrent-reconciles\n"
							+ "    Value: \"2\"\n"
							+ "    Origin: \"operator.controllers.confgmap.max-concurrent-reconciles\" from property source "
							+ "\"test\"\n"
							+ "    Reason: operator.controllers.confgmap names no controller; the controllers are: "
							+ "configmap, pods\n");
			});
	}

	@Test
	void runWithPropertiesOfSeveralUnknownControllersShouldFailNamingEach() {
		this.contextRunner.withUserConfiguration(InterfaceReconcilerConfiguration.class)
			.withPropertyValues("operator.controllers.pods.max-concurrent-reconciles=2",
					"operator.controllers[shop.buckets].max-concurrent-reconciles=3")
			.run((context) -> assertThat(context).getFailure()
				.hasMessage("operator.controllers.pods names no controller; the controllers are: configmap\n"
						+ "operator.controllers[shop.buckets] names no controller; the controllers are: configmap"));
	}

	@Test
	void runWithControllerPropertiesButNoReconcilerShouldFailNamingThem() {
		this.contextRunner.withPropertyValues("operator.controllers.configmap.max-concurrent-reconciles=2")
			.run((context) -> assertThat(context).getFailure()
				.hasMessage("operator.controllers.configmap names no controller; "
						+ "the application has no @Reconciles beans"));
	}

	@Test
	void runWithPropertiesOfAControllerBuiltInCodeShouldFailSayingPropertiesDoNotConfigureIt() {
		this.contextRunner
			.withUserConfiguration(InterfaceReconcilerConfiguration.class, CodeControllerConfiguration.class)
			.withPropertyValues("operator.controllers.secret.max-concurrent-reconciles=2")
			.run((context) -> assertThat(context).getFailure()
				.hasMessage("operator.controllers.secret names a controller built in code, which properties do not "
						+ "configure (call maxConcurrentReconciles, priorityQueue or reconcileTimeout on its "
						+ "ControllerBuilder); the " + "controllers of " + "@Reconciles beans are: configmap"));
	}

	@Test
	void runWithBlankApplicationNameShouldWriteAsOperator() {
		this.contextRunner.withPropertyValues("spring.application.name=")
			.run((context) -> assertThat(context.getBean(Client.class).fieldManager()).isEqualTo("operator"));
	}

	@Test
	void runWithReconcilerBeanWithoutReconcileMethodShouldFailNamingTheBean() {
		this.contextRunner.withUserConfiguration(NoMethodReconcilerConfiguration.class)
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("@Reconciles bean 'broken' is invalid")
				.hasMessageContaining("declare exactly one method 'Result reconcile(Request)'"));
	}

	@Test
	void runWithReconcilerOfUnknownKindShouldFailNamingTheBean() {
		this.contextRunner.withUserConfiguration(UnknownKindReconcilerConfiguration.class)
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("@Reconciles bean 'statusReconciler' is invalid")
				.hasMessageContaining("Cannot tell which Kubernetes kind " + Unannotated.class.getName()
						+ " is: annotate it with @KubernetesKind"));
	}

	@Test
	void runWithReconcilerOfKindWithoutListClassShouldFailNamingTheBeanBeforeStarting() {
		this.contextRunner.withUserConfiguration(ListlessKindReconcilerConfiguration.class)
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(InvalidOperatorBeanException.class)
				.hasMessageStartingWith("@Reconciles bean 'listlessReconciler' is invalid: No list class for "
						+ Listless.class.getName() + ": extend CustomResource, create " + Listless.class.getName()
						+ "List implementing KubernetesListObject, or name it with @KubernetesKind(listType = ...)"));
	}

	@Test
	void runWithRunnableBeansShouldAddThem() {
		this.contextRunner.withUserConfiguration(RunnableConfiguration.class)
			.run((context) -> assertThat(context.getBean(Manager.class).runnableNamesExcept(Controller.class))
				.containsExactly("everywhere", "leaderOnly"));
	}

	@Test
	void runShouldProvideTheManagersClientWritingAsTheApplication() {
		this.contextRunner.withPropertyValues("spring.application.name=bucket-operator").run((context) -> {
			assertThat(context.getBean(Client.class)).isSameAs(context.getBean(Manager.class).client());
			assertThat(context.getBean(Client.class).fieldManager()).isEqualTo("bucket-operator");
		});
	}

	@Test
	void runWithFinalizerButNoCleanupShouldFailNamingTheBean() {
		this.contextRunner.withUserConfiguration(FinalizerWithoutCleanupConfiguration.class)
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("@Reconciles bean 'guardedReconciler' is invalid: it declares the finalizer "
						+ "'test.kubeboot.io/cleanup' but no cleanup")
				.hasMessageContaining("declare exactly one method 'Result cleanup(Request)'"));
	}

	@Test
	void runWithFinalizerThatIsNotAQualifiedNameShouldFailNamingTheBean() {
		this.contextRunner.withUserConfiguration(FinalizerWithCleanupConfiguration.class)
			.withPropertyValues("test.finalizer=not a name")
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("@Reconciles bean 'cleaningReconciler' is invalid: Finalizer 'not a name' is "
						+ "not a qualified name"));
	}

	@Test
	void runWithFinalizerAndCleanupMethodShouldStart() {
		this.contextRunner.withUserConfiguration(FinalizerWithCleanupConfiguration.class)
			.withPropertyValues("test.finalizer=test.kubeboot.io/cleanup")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void runWithReconcileTimeoutThatIsNoDurationShouldFailNamingTheBean() {
		this.contextRunner.withUserConfiguration(TimedReconcilerConfiguration.class)
			.withPropertyValues("test.timeout=soon")
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("@Reconciles bean 'timedReconciler' is invalid: reconcileTimeout 'soon' is not "
						+ "a duration, such as 30s or 2m"));
	}

	@Test
	void runWithNegativeReconcileTimeoutShouldFailNamingTheBean() {
		this.contextRunner.withUserConfiguration(TimedReconcilerConfiguration.class)
			.withPropertyValues("test.timeout=-5s")
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("@Reconciles bean 'timedReconciler' is invalid: reconcileTimeout '-5s' must "
						+ "not be negative; 0 for no limit"));
	}

	@Test
	void runWithReconcileTimeoutShouldStart() {
		this.contextRunner.withUserConfiguration(TimedReconcilerConfiguration.class)
			.withPropertyValues("test.timeout=30s")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void runWithTheTraceContextAnnotationButNothingTracingShouldWarnThatNothingIsWritten(CapturedOutput output) {
		this.contextRunner.withPropertyValues("operator.tracing.annotate-objects=true")
			.run((context) -> assertThat(output)
				.contains("operator.tracing.annotate-objects is on but nothing traces the operator"));
	}

	@Test
	void runWithTheTraceContextAnnotationAndATracingShouldNotWarn(CapturedOutput output) {
		this.contextRunner.withPropertyValues("operator.tracing.annotate-objects=true")
			.withBean(OperatorTracing.class, () -> new OperatorTracing() {
			})
			.run((context) -> assertThat(output).doesNotContain("operator.tracing.annotate-objects is on"));
	}

	@Test
	void runWithJavaLangRunnableBeanShouldWarnThatTheManagerDoesNotRunIt(CapturedOutput output) {
		this.contextRunner.withUserConfiguration(JavaLangRunnableConfiguration.class).run((context) -> {
			assertThat(context.getBean(Manager.class).runnableNamesExcept(Controller.class)).isEmpty();
			assertThat(output).contains("Bean 'plainJavaRunnable' is a java.lang.Runnable, which the operator's "
					+ "manager does not run; implement io.kubeboot.operator.manager.ManagerRunnable");
		});
	}

	@Test
	void runWithCheckBeansShouldAddThemToTheManagerAndItsHealth() {
		this.contextRunner.withUserConfiguration(CheckConfiguration.class).run((context) -> {
			Manager manager = context.getBean(Manager.class);
			assertThat(manager.checks()).extracting(Check::name)
				.containsExactly("leader-work-stopped", "bucket-store", "disk");
			ManagerHealth health = new ManagerHealth(manager, Duration.ofMinutes(1));
			assertThat(health.readiness()).contains(CheckResult.failed("bucket-store", "bucket store unreachable"));
			assertThat(health.liveness()).contains(CheckResult.passed("disk"));
		});
	}

	@Test
	void runShouldRaiseShutdownTimeoutOfManagerPhaseAboveGracefulTimeout() {
		this.contextRunner.withBean("lifecycleProcessor", DefaultLifecycleProcessor.class)
			.withPropertyValues("operator.graceful-shutdown-timeout=45s")
			.run((context) -> {
				DefaultLifecycleProcessor processor = context.getBean(DefaultLifecycleProcessor.class);
				Long timeout = ReflectionTestUtils.invokeMethod(processor, "determineShutdownTimeout",
						ManagerLifecycle.PHASE);
				assertThat(timeout).isEqualTo(55_000L);
			});
	}

	@Test
	void runWithConfigurationPropertiesAutoConfigurationShouldBindProperties() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(ConfigurationPropertiesAutoConfiguration.class))
			.withPropertyValues("operator.sync-period=1h", "operator.namespace=ops")
			.run((context) -> {
				OperatorProperties properties = context.getBean(OperatorProperties.class);
				assertThat(properties.getSyncPeriod()).hasHours(1);
				assertThat(properties.getNamespace()).isEqualTo("ops");
			});
	}

	@Test
	void runShouldNotElectALeaderByDefault() {
		this.contextRunner.run((context) -> assertThat(context.getBean(Manager.class).leaderElection()).isNull());
	}

	@Test
	void runWithLeaderElectionEnabledShouldUseDefaults() {
		this.contextRunner.withPropertyValues("operator.leader-election.enabled=true", "spring.application.name=shop")
			.run((context) -> {
				LeaderElectionConfig config = context.getBean(Manager.class).leaderElection().config();
				assertThat(config.name()).isEqualTo("shop-leader");
				assertThat(config.namespace()).isEqualTo("default");
				assertThat(config.identity()).matches(".+_[0-9a-f-]{36}");
				assertThat(config.leaseDuration()).hasSeconds(15);
				assertThat(config.renewDeadline()).hasSeconds(10);
				assertThat(config.retryPeriod()).hasSeconds(2);
				assertThat(config.releaseOnShutdown()).isTrue();
				assertThat(config.lostLeasePolicy()).isEqualTo(LostLeasePolicy.EXIT);
			});
	}

	@Test
	void runWithLeaderElectionPropertiesShouldUseThem() {
		this.contextRunner
			.withPropertyValues("operator.leader-election.enabled=true", "operator.leader-election.lease-name=my-lease",
					"operator.leader-election.namespace=ops", "operator.leader-election.identity=pod-1",
					"operator.leader-election.lease-duration=30s", "operator.leader-election.renew-deadline=20s",
					"operator.leader-election.retry-period=5s", "operator.leader-election.release-on-shutdown=false",
					"operator.leader-election.lost-lease-policy=re-elect")
			.run((context) -> {
				LeaderElectionConfig config = context.getBean(Manager.class).leaderElection().config();
				assertThat(config)
					.isEqualTo(new LeaderElectionConfig("ops", "my-lease", "pod-1", Duration.ofSeconds(30),
							Duration.ofSeconds(20), Duration.ofSeconds(5), false, LostLeasePolicy.RE_ELECT));
			});
	}

	@Test
	void runWithLeaderElectionAndAnApplicationNameNoLeaseMayHaveShouldFailNamingTheProperty() {
		this.contextRunner
			.withPropertyValues("operator.leader-election.enabled=true", "spring.application.name=Shop_Operator")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("operator.leader-election.lease-name is not set, and its default 'Shop_Operator-leader' "
						+ "(from spring.application.name) must be a lowercase RFC 1123 subdomain: at most 253 "
						+ "characters of a-z, 0-9, '-' and '.', starting and ending with a letter or digit"));
	}

	@Test
	void runWithUnknownLostLeasePolicyShouldFailNamingTheProperty() {
		this.contextRunner.withPropertyValues("operator.leader-election.lost-lease-policy=retry")
			.run((context) -> assertThat(context).getFailure().rootCause().hasMessageContaining("retry"));
	}

	@Test
	void runWithEventsPropertiesShouldBindThem() {
		this.contextRunner.withPropertyValues("operator.events.qps=5", "operator.events.component=shop")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(OperatorEventsProperties.class).getQps()).isEqualTo(5);
			});
	}

	private static Controller onlyController(Manager manager) {
		assertThat(Controller.of(manager)).hasSize(1);
		return Controller.of(manager).get(0);
	}

	@Configuration(proxyBeanMethods = false)
	static class UserManagerConfiguration {

		@Bean
		Manager myManager(ApiClient client) {
			return Manager.builder(client).build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class InterfaceReconcilerConfiguration {

		@Bean
		ConfigMapReconciler configMapReconciler() {
			return new ConfigMapReconciler();
		}

	}

	@Reconciles(V1ConfigMap.class)
	static class ConfigMapReconciler implements io.kubeboot.operator.reconcile.Reconciler {

		@Override
		public Result reconcile(Request request) {
			return Result.done();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MethodReconcilerConfiguration {

		@Bean
		PodReconciler podReconciler() {
			return new PodReconciler();
		}

	}

	@Reconciles(value = V1Pod.class, name = "pods", namespace = "${app.namespace}", owns = V1ConfigMap.class,
			maxConcurrentReconciles = 3)
	static class PodReconciler {

		Result reconcile(Request request) {
			return Result.done();
		}

		@Watches(V1Secret.class)
		Request podOfSecret(V1Secret secret) {
			return Request.of(secret.getMetadata().getNamespace(), "pod");
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ContextReconcilerConfiguration {

		@Bean
		ContextReconciler contextReconciler() {
			return new ContextReconciler();
		}

	}

	@Reconciles(V1Secret.class)
	static class ContextReconciler {

		Result reconcile(Request request, ReconcileContext context) {
			return Result.done();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CodeControllerConfiguration {

		@Bean
		Controller secretController(Manager manager) {
			return Controller.builder(manager, V1Secret.class).complete((request) -> Result.done());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class NoMethodReconcilerConfiguration {

		@Bean
		NoMethodReconciler broken() {
			return new NoMethodReconciler();
		}

	}

	@Reconciles(V1ConfigMap.class)
	static class NoMethodReconciler {

		Result handle(Request request) {
			return Result.done();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UnknownKindReconcilerConfiguration {

		@Bean
		StatusReconciler statusReconciler() {
			return new StatusReconciler();
		}

	}

	@Reconciles(Unannotated.class)
	static class StatusReconciler {

		Result reconcile(Request request) {
			return Result.done();
		}

	}

	static class Unannotated implements KubernetesObject {

		@Override
		public V1ObjectMeta getMetadata() {
			return new V1ObjectMeta();
		}

		@Override
		public String getApiVersion() {
			return "example.com/v1";
		}

		@Override
		public String getKind() {
			return "Unannotated";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ListlessKindReconcilerConfiguration {

		@Bean
		ListlessReconciler listlessReconciler() {
			return new ListlessReconciler();
		}

	}

	@Reconciles(Listless.class)
	static class ListlessReconciler {

		Result reconcile(Request request) {
			return Result.done();
		}

	}

	@KubernetesKind(group = "test.kubeboot.io", version = "v1", kind = "Listless")
	static class Listless extends Unannotated {

	}

	@Configuration(proxyBeanMethods = false)
	static class FinalizerWithoutCleanupConfiguration {

		@Bean
		GuardedReconciler guardedReconciler() {
			return new GuardedReconciler();
		}

	}

	@Reconciles(value = V1ConfigMap.class, finalizer = "test.kubeboot.io/cleanup")
	static class GuardedReconciler {

		Result reconcile(Request request) {
			return Result.done();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FinalizerWithCleanupConfiguration {

		@Bean
		CleaningReconciler cleaningReconciler() {
			return new CleaningReconciler();
		}

	}

	static class TimedReconcilerConfiguration {

		@Bean
		TimedReconciler timedReconciler() {
			return new TimedReconciler();
		}

	}

	@Reconciles(value = V1ConfigMap.class, reconcileTimeout = "${test.timeout}")
	static class TimedReconciler {

		Result reconcile(Request request) {
			return Result.done();
		}

	}

	@Reconciles(value = V1ConfigMap.class, finalizer = "${test.finalizer}")
	static class CleaningReconciler {

		Result reconcile(Request request) {
			return Result.done();
		}

		Result cleanup(Request request) {
			return Result.done();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class JavaLangRunnableConfiguration {

		@Bean
		java.lang.Runnable plainJavaRunnable() {
			return () -> {
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CheckConfiguration {

		@Bean
		Check bucketStore(Cache cache) { // a check may depend on beans that need the
											// Manager
			return Check.readiness("bucket-store", () -> {
				throw new IllegalStateException("bucket store unreachable");
			});
		}

		@Bean
		Check disk() {
			return Check.liveness("disk", () -> {
			});
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class RunnableConfiguration {

		@Bean
		ManagerRunnable everywhere() {
			return ManagerRunnable.onEveryReplica((stop) -> stop.await());
		}

		@Bean
		ManagerRunnable leaderOnly() {
			return (stop) -> stop.await();
		}

	}

}
