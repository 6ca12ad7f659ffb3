package io.kubeboot.operator.autoconfigure;

import java.util.List;

import io.kubeboot.operator.annotation.RbacRule;
import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.rbac.PolicyRule;
import io.kubeboot.operator.rbac.PolicyRules;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Pod;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RbacRule @RbacRule} on {@link Reconciles @Reconciles} beans: their rules are
 * part of the manager's required permissions, in the controller's namespace.
 */
class ReconcilerRbacRulesTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class))
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1"))
		.withPropertyValues("operator.auto-startup=false", "operator.namespace=team-a");

	@Test
	void runWithRbacRulesOnAReconcilerClassShouldRequireThemInTheControllersNamespace() {
		this.contextRunner.withUserConfiguration(AnnotatedClassConfiguration.class)
			.run((context) -> assertThat(rules(context.getBean(Manager.class))).containsExactly(
					"team-a  configmaps [list, watch, create, update] [controller configmap reconciles ConfigMap "
							+ "objects: its informer lists and watches them, declared by controller configmap]",
					"team-a  pods/status [patch] [controller configmap: marks the pod]",
					"team-a apps deployments [get] [controller configmap: reads the owner]"));
	}

	@Test
	void runWithRbacRuleOnAReconcilerBeanMethodShouldRequireItForTheReconciledKind() {
		this.contextRunner.withUserConfiguration(AnnotatedMethodConfiguration.class)
			.run((context) -> assertThat(rules(context.getBean(Manager.class))).containsExactly(
					"team-a  pods [list, watch] [controller pod reconciles Pod objects: its informer lists and "
							+ "watches them]",
					"team-a  pods/status [patch] [controller pod: writes the status]"));
	}

	@Test
	void runWithARuleGrantedPerNamespaceShouldPutItInAClusterRoleOfItsOwnForAControllerOfAllNamespaces() {
		this.contextRunner.withPropertyValues("operator.namespace=")
			.withUserConfiguration(PerNamespaceConfiguration.class)
			.run((context) -> assertThat(PolicyRules.of(context.getBean(Manager.class).requiredPermissions()))
				.filteredOn(PolicyRule::grantedPerNamespace)
				.singleElement()
				.satisfies((rule) -> {
					assertThat(rule.role()).isEqualTo("connections");
					assertThat(rule.namespace()).isNull();
					assertThat(rule.resource()).isEqualTo("configmaps");
					assertThat(rule.verbs()).containsExactly("create", "update");
				}));
	}

	@Test
	void runWithARuleGrantedPerNamespaceWithoutARoleShouldFailNamingTheAnnotation() {
		this.contextRunner.withUserConfiguration(PerNamespaceWithoutRoleConfiguration.class)
			.run((context) -> assertThat(context).getFailure()
				.hasStackTraceContaining("@RbacRule(grantedPerNamespace = true) needs a role of its own"));
	}

	@Configuration(proxyBeanMethods = false)
	static class PerNamespaceConfiguration {

		@Bean
		@Reconciles(V1Pod.class)
		@RbacRule(kind = V1ConfigMap.class, verbs = { "create", "update" }, role = "connections",
				grantedPerNamespace = true, reason = "keeps a ConfigMap per pod")
		io.kubeboot.operator.reconcile.Reconciler podReconciler() {
			return (request) -> Result.done();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PerNamespaceWithoutRoleConfiguration {

		@Bean
		@Reconciles(V1Pod.class)
		@RbacRule(kind = V1ConfigMap.class, verbs = "create", grantedPerNamespace = true)
		io.kubeboot.operator.reconcile.Reconciler podReconciler() {
			return (request) -> Result.done();
		}

	}

	private static List<String> rules(Manager manager) {
		return PolicyRules.of(manager.requiredPermissions())
			.stream()
			.map((PolicyRule rule) -> rule.namespace() + " " + rule.apiGroup() + " " + rule.resource() + " "
					+ rule.verbs() + " " + rule.reasons())
			.toList();
	}

	@Configuration(proxyBeanMethods = false)
	static class AnnotatedClassConfiguration {

		@Bean
		AnnotatedReconciler annotatedReconciler() {
			return new AnnotatedReconciler();
		}

	}

	@Reconciles(V1ConfigMap.class)
	@RbacRule(verbs = { "create", "update" })
	@RbacRule(kind = V1Pod.class, subresource = "status", verbs = "patch", reason = "marks the pod")
	@RbacRule(group = "apps", resource = "deployments", verbs = "get", reason = "reads the owner")
	static class AnnotatedReconciler {

		Result reconcile(Request request) {
			return Result.done();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class AnnotatedMethodConfiguration {

		@Bean
		@Reconciles(V1Pod.class)
		@RbacRule(subresource = "status", verbs = "patch", reason = "writes the status")
		io.kubeboot.operator.reconcile.Reconciler podStatusReconciler() {
			return (request) -> Result.done();
		}

	}

}
