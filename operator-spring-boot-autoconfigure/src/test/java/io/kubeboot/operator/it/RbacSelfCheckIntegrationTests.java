package io.kubeboot.operator.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.kubeboot.operator.client.KindNotServedException;
import io.kubeboot.operator.client.Patch;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.events.KubernetesEventRecorder;
import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LostLeasePolicy;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.StopSignal;
import io.kubeboot.operator.predicate.EventFilters;
import io.kubeboot.operator.rbac.Permission;
import io.kubeboot.operator.rbac.PolicyRule;
import io.kubeboot.operator.rbac.PolicyRules;
import io.kubeboot.operator.rbac.RbacManifest;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1RoleRef;
import io.kubernetes.client.util.Yaml;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The RBAC an operator derives from what it runs, against a real kube-apiserver: the
 * rules rendered from a manager, applied as Roles of an otherwise unprivileged user, are
 * everything that manager needs (its Lease, its caches, its finalizer, its declared
 * status and ConfigMap writes, its Events); the start-up self-check asks about the same
 * rules and names each one RBAC lacks, with its reasons; the names rendered without the
 * API server are the ones its discovery gives.
 */
@WithControlPlane
class RbacSelfCheckIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(60);

	private static final String OPERATOR = "user3";

	private static final String FINALIZER = "test.kubeboot.io/cleanup";

	@RegisterExtension
	private final TestResources resources = new TestResources();

	@RegisterExtension
	private final CapturedLogs logs = new CapturedLogs("io.kubeboot.operator");

	@Test
	void theRenderedRulesAreAllTheOperatorNeedsAndTheSelfCheckReportsNothing(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		Widgets.install(controlPlane.adminClient());
		Manager manager = operator(controlPlane, namespace);
		grant(controlPlane, namespace, PolicyRules.of(manager.requiredPermissions()));
		manager.start();
		Widget widget = new Widget().metadata(new V1ObjectMeta().namespace(namespace.name()).name("w1"));
		widget.setSpec(Map.of("size", 1));
		Widgets.api(controlPlane.adminClient()).create(widget).throwsApiException();
		await().atMost(WAIT).until(() -> {
			Widget stored = Widgets.api(controlPlane.adminClient()).get(namespace.name(), "w1").getObject();
			return stored.getMetadata().getFinalizers() != null
					&& stored.getMetadata().getFinalizers().contains(FINALIZER) && stored.getStatus() != null
					&& Boolean.TRUE.equals(stored.getStatus().get("seen"));
		});
		CoreV1Api admin = new CoreV1Api(controlPlane.adminClient());
		await().atMost(WAIT)
			.until(() -> admin.listNamespacedConfigMap(namespace.name())
				.labelSelector("app=widgets")
				.execute()
				.getItems()
				.size() == 1);
		await().atMost(WAIT)
			.until(() -> admin.listNamespacedEvent(namespace.name())
				.execute()
				.getItems()
				.stream()
				.anyMatch((event) -> "Seen".equals(event.getReason())));
		assertThat(warningsAndErrors()).isEmpty();
	}

	@Test
	void aRuleRbacLacksIsReportedAtStartNamingItAndItsReasons(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		Widgets.install(controlPlane.adminClient());
		Manager manager = operator(controlPlane, namespace);
		List<PolicyRule> rules = new ArrayList<>();
		for (PolicyRule rule : PolicyRules.of(manager.requiredPermissions())) {
			if (rule.resource().equals("widgets/status")) {
				continue; // the declared status write
			}
			if (rule.resource().equals("widgets")) {
				// the finalizer's patch
				rule = new PolicyRule(rule.role(), rule.namespace(), rule.apiGroup(), rule.resource(),
						rule.resourceNames(), List.of("list", "watch"), rule.reasons());
			}
			rules.add(rule);
		}
		grant(controlPlane, namespace, rules);
		manager.start();
		String ns = namespace.name();
		assertThat(warningsAndErrors()).containsExactly("WARN RBAC denies this operator's identity rules it needs, so "
				+ "the requests that use them will fail with 403 Forbidden: patch widgets.test.kubeboot.io in namespace '"
				+ ns + "' (controller widget adds and removes its finalizer " + FINALIZER + " with merge patches; "
				+ "controller widget reconciles Widget objects: its informer lists and watches them); patch "
				+ "widgets.test.kubeboot.io/status in namespace '" + ns + "' (controller widget: writes the status). "
				+ "Grant them to its service account (a Role and RoleBinding in each namespace named, a ClusterRole "
				+ "and ClusterRoleBinding for all namespaces)");
	}

	/**
	 * A rule granted per namespace is granted where an administrator binds it, never
	 * cluster-wide: the self-check of an operator of all namespaces lists it at INFO
	 * instead of reporting it denied.
	 */
	@Test
	void aRuleGrantedPerNamespaceIsListedNotReportedDenied(ControlPlane controlPlane) throws Exception {
		Manager manager = this.resources.manager(Manager.builder(controlPlane.clientFor(OPERATOR)).build());
		manager.add("connections", new io.kubeboot.operator.manager.ManagerRunnable() {

			@Override
			public void start(StopSignal stop) throws InterruptedException {
				stop.await();
			}

			@Override
			public List<Permission> requiredPermissions() {
				return List.of(Permission.of(V1ConfigMap.class, "create")
					.inRole("connections")
					.grantedPerNamespace()
					.because("writes a ConfigMap per widget"));
			}

		});
		manager.start();
		assertThat(warningsAndErrors()).isEmpty();
		assertThat(this.logs.events()).extracting(ILoggingEvent::getFormattedMessage)
			.contains("Rules granted per namespace, not checked at start-up (a namespace without their RoleBinding "
					+ "answers 403 to the requests that use them): create configmaps in the namespaces that grant it "
					+ "(writes a ConfigMap per widget)");
	}

	@Test
	void namesRenderedWithoutTheApiServerAreTheOnesItsDiscoveryGives(ControlPlane controlPlane) throws Exception {
		List<Permission> permissions = new ArrayList<>();
		for (String kind : List.of("Pod", "Service", "ConfigMap", "Secret", "ServiceAccount", "PersistentVolumeClaim",
				"Endpoints", "LimitRange", "ResourceQuota", "ReplicationController", "PodTemplate", "Namespace", "Node",
				"PersistentVolume", "ComponentStatus", "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet",
				"ControllerRevision", "Job", "CronJob", "HorizontalPodAutoscaler", "PodDisruptionBudget", "Lease",
				"Ingress", "NetworkPolicy", "IngressClass", "EndpointSlice", "Role", "RoleBinding", "ClusterRole",
				"ClusterRoleBinding", "StorageClass", "CSIDriver", "CSINode", "VolumeAttachment", "CSIStorageCapacity",
				"CustomResourceDefinition", "APIService", "MutatingWebhookConfiguration",
				"ValidatingWebhookConfiguration", "PriorityClass", "RuntimeClass", "CertificateSigningRequest",
				"FlowSchema", "PriorityLevelConfiguration")) {
			Class<? extends KubernetesObject> model = model(kind);
			try {
				PolicyRules.of(List.of(Permission.of(model, "get")), controlPlane.adminClient());
				permissions.add(Permission.of(model, "get").inNamespace("x").because(kind));
			}
			catch (KindNotServedException ex) {
				// a version kube-apiserver 1.20 does not serve yet
			}
		}
		assertThat(permissions).hasSizeGreaterThan(35);
		assertThat(PolicyRules.of(permissions)).isEqualTo(PolicyRules.of(permissions, controlPlane.adminClient()));
	}

	@SuppressWarnings("unchecked")
	private static Class<? extends KubernetesObject> model(String kind) throws ClassNotFoundException {
		for (String version : List.of("V1", "V2")) {
			try {
				return (Class<? extends KubernetesObject>) Class
					.forName("io.kubernetes.client.openapi.models." + version + kind);
			}
			catch (ClassNotFoundException ex) {
				// the next version
			}
		}
		throw new ClassNotFoundException(kind);
	}

	/**
	 * An operator of widgets, as the unprivileged user: leader election, a finalizer,
	 * owned ConfigMaps it creates, the widget's status written, an Event recorded.
	 */
	private Manager operator(ControlPlane controlPlane, TestNamespace namespace) {
		ApiClient client = controlPlane.clientFor(OPERATOR);
		Manager manager = Manager.builder(client)
			.namespace(namespace.name())
			.cacheSyncTimeout(Duration.ofSeconds(30))
			.leaderElection(new LeaderElectionConfig(namespace.name(), "widgets-leader", "replica-a",
					Duration.ofSeconds(3), Duration.ofSeconds(2), Duration.ofMillis(500), true, LostLeasePolicy.EXIT))
			.build();
		KubernetesEventRecorder events = KubernetesEventRecorder.builder(client).component("widgets").build();
		manager.add("event-recorder", events);
		Controller.builder(manager, Widget.class)
			.owns(V1ConfigMap.class, "app=widgets", EventFilters.all())
			.withFinalizer(FINALIZER, (request) -> Result.done())
			.requires(Permission.of(Widget.class, "patch").subresource("status").because("writes the status"))
			.requires(Permission.of(V1ConfigMap.class, "create").because("creates a ConfigMap per widget"))
			.complete((request) -> {
				Widget widget = manager.client().get(Widget.class, request).orElse(null);
				if (widget == null) {
					return Result.done();
				}
				manager.client().status().patch(widget, Patch.merge(Map.of("status", Map.of("seen", true))));
				V1ConfigMap configMap = new V1ConfigMap().metadata(new V1ObjectMeta().namespace(request.namespace())
					.name(request.name() + "-config")
					.labels(Map.of("app", "widgets")));
				manager.client().createOrUpdate(configMap, (desired) -> desired.data(Map.of("widget", request.name())));
				events.normal(widget, "Seen", "Seen the widget");
				return Result.done();
			});
		return this.resources.manager(manager);
	}

	/**
	 * Renders the rules, applies the Roles and binds them to the operator's user.
	 */
	private static void grant(ControlPlane controlPlane, TestNamespace namespace, List<PolicyRule> rules)
			throws Exception {
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(controlPlane.adminClient());
		String yaml = RbacManifest.builder("widgets").render(rules);
		for (Object object : Yaml.loadAll(yaml)) {
			// a namespaced operator: every rule is in its namespace, no ClusterRole
			V1Role role = (V1Role) object;
			assertThat(role.getMetadata().getNamespace()).isEqualTo(namespace.name());
			rbac.createNamespacedRole(namespace.name(), role).execute();
			rbac.createNamespacedRoleBinding(namespace.name(), new V1RoleBinding()
				.metadata(new V1ObjectMeta().name(role.getMetadata().getName()))
				.roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io")
					.kind("Role")
					.name(role.getMetadata().getName()))
				.subjects(
						List.of(new RbacV1Subject().kind("User").name(OPERATOR).apiGroup("rbac.authorization.k8s.io"))))
				.execute();
		}
	}

	private List<String> warningsAndErrors() {
		return this.logs.events()
			.stream()
			.filter((event) -> event.getLevel().isGreaterOrEqual(Level.WARN))
			.map((event) -> event.getLevel() + " " + event.getFormattedMessage())
			.toList();
	}

}
