package io.kubeboot.sample;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.Helm;
import io.kubeboot.operator.test.TestCertificateAuthority;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import static org.assertj.core.api.Assertions.assertThat;
import static java.util.stream.Collectors.toSet;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The generated {@code deploy/} and its Helm chart, as a cluster gets them: {@code helm}
 * lints the chart and renders it, its default values render exactly the plain manifests,
 * and the real API server accepts every object of both, first with a server-side dry run
 * (schemas, admission, webhook configurations and their CEL match conditions, Pod
 * Security admission of the restricted namespace), then for real. The control plane runs
 * no kubelet and no controllers, so nothing starts: what is checked is everything the API
 * server checks.
 * <p>
 * cert-manager's Issuers and Certificates and the Prometheus Operator's ServiceMonitor
 * are checked against their real CRDs, at pinned versions
 * ({@code src/test/resources/third-party-crds}, each file saying where it comes from),
 * which the test applies first.
 * <p>
 * The control plane is the test JVM's: every cluster-scoped object applied is deleted
 * after each test, but the CustomResourceDefinitions, which other tests install too. The
 * validating webhook of StorageBuckets, whose Service has no pod behind it here, exists
 * only for as long as it takes to read it back.
 */
@WithControlPlane
class GeneratedManifestsIntegrationTests {

	private static final Path CHART = Manifests.DEPLOY.resolve("chart");

	private static final String NAMESPACE = "sample-operator";

	/** cert-manager's and the Prometheus Operator's CRDs, as they publish them. */
	private static final Path THIRD_PARTY_CRDS = Path.of("src", "test", "resources", "third-party-crds");

	/** The plain manifests in the order the generated README applies them. */
	private static final List<String> FILES = List.of("namespace.yaml", "crd.yaml", "policy.yaml", "rbac.yaml",
			"service.yaml", "certificate.yaml", "webhook.yaml", "deployment.yaml", "networkpolicy.yaml",
			"servicemonitor.yaml");

	private static final String HELM_CHART_LABEL = "helm.sh/chart";

	private static final String MANAGED_BY_LABEL = "app.kubernetes.io/managed-by";

	private static final Set<String> SHARED = Set.of("CustomResourceDefinition", "ValidatingAdmissionPolicy",
			"ValidatingAdmissionPolicyBinding", "Namespace");

	private final List<JsonObject> applied = new ArrayList<>();

	private ServerSideApply apply;

	@BeforeEach
	void installThirdPartyCrds(ControlPlane controlPlane) throws Exception {
		this.apply = new ServerSideApply(controlPlane.adminClient(), "generated-manifests-test");
		try (Stream<Path> files = Files.list(THIRD_PARTY_CRDS)) {
			for (Path file : files.sorted().toList()) {
				for (JsonObject crd : Manifests.load(file)) {
					ServerSideApply.Answer answer = this.apply.apply(crd, false);
					assertThat(answer.isSuccess()).as(answer.body()).isTrue();
				}
			}
		}
		StorageBuckets.installCrd(controlPlane.adminClient());
		// where the plain manifests' namespaced objects go
		ServerSideApply.Answer namespace = this.apply.apply(Manifests.load("namespace.yaml").get(0), false);
		assertThat(namespace.isSuccess()).as(namespace.body()).isTrue();
	}

	@AfterEach
	void deleteClusterScopedObjects() throws Exception {
		for (JsonObject object : this.applied) {
			if (!object.getAsJsonObject("metadata").has("namespace")
					&& !SHARED.contains(object.get("kind").getAsString())) {
				this.apply.delete(object);
			}
		}
	}

	@Test
	void helmLintsTheChartWithoutAWarning() {
		assertThat(Helm.installed().lint(CHART)).contains("1 chart(s) linted, 0 chart(s) failed");
	}

	@Test
	void theChartWithItsDefaultValuesRendersThePlainManifests() throws IOException {
		List<JsonObject> plain = new ArrayList<>();
		for (String file : FILES) {
			if (!file.equals("namespace.yaml")) {
				plain.addAll(Manifests.load(file));
			}
		}
		List<JsonObject> rendered = objects(Helm.installed().template(CHART, "sample-operator", NAMESPACE, Map.of()));
		// but for Helm's own labels, which only the chart writes (the CRDs and policies
		// are
		// the processor's files, in both as they are)
		for (JsonObject object : rendered) {
			JsonObject labels = object.getAsJsonObject("metadata").getAsJsonObject("labels");
			if (labels == null) {
				continue;
			}
			assertThat(labels.remove(HELM_CHART_LABEL)).as(describe(object)).isNotNull();
			assertThat(labels.remove(MANAGED_BY_LABEL).getAsString()).as(describe(object)).isEqualTo("Helm");
		}
		assertThat(byName(rendered)).isEqualTo(byName(plain));
	}

	@Test
	void twoReleasesLiveSideBySideUnderTheirOwnNames(TestNamespace release) throws Exception {
		List<JsonObject> objects = new ArrayList<>();
		Map<String, Set<String>> names = new HashMap<>();
		for (String name : List.of("alpha", "beta")) {
			Map<String, String> values = new HashMap<>();
			values.put("global.registry", "registry.example.com");
			if (name.equals("beta")) {
				// one copy per cluster, like the CRDs
				values.put("admissionPolicies.enabled", "false");
			}
			List<JsonObject> rendered = objects(Helm.installed().template(CHART, name, release.name(), values)).stream()
				.filter((object) -> !object.get("kind").getAsString().equals("CustomResourceDefinition"))
				.toList();
			names.put(name, rendered.stream().map(GeneratedManifestsIntegrationTests::describe).collect(toSet()));
			JsonObject deployment = rendered.stream()
				.filter((object) -> object.get("kind").getAsString().equals("Deployment"))
				.findFirst()
				.orElseThrow();
			assertThat(deployment.getAsJsonObject("metadata").get("name").getAsString())
				.isEqualTo(name + "-sample-operator");
			assertThat(deployment.getAsJsonObject("spec").getAsJsonObject("selector").getAsJsonObject("matchLabels"))
				.isEqualTo(Manifests.parse("{\"app.kubernetes.io/name\": \"sample-operator\", "
						+ "\"app.kubernetes.io/instance\": \"" + name + "\"}"));
			// cluster-scoped: with the namespace, as another namespace may hold a release
			// of the same name
			assertThat(rendered).filteredOn((object) -> object.get("kind").getAsString().equals("ClusterRole"))
				.extracting((object) -> object.getAsJsonObject("metadata").get("name").getAsString())
				.contains(name + "-sample-operator-" + release.name());
			objects.addAll(rendered);
		}
		assertThat(names.get("alpha")).doesNotContainAnyElementsOf(names.get("beta"));
		assertAccepted(objects);
	}

	@Test
	void theApiServerAcceptsThePlainManifests() throws Exception {
		List<JsonObject> objects = new ArrayList<>();
		for (String file : FILES) {
			objects.addAll(Manifests.load(file));
		}
		assertAccepted(objects);
	}

	/**
	 * What the defaults do not show, one family of values at a time, rendered by helm and
	 * applied in a namespace held to the restricted Pod Security Standard, as the
	 * README's install asks: no object may draw a warning.
	 */
	static Stream<Arguments> valueFamilies() {
		return Stream.of(
				Arguments.of("two watched namespaces, a CA bundle of one's own, one replica", """
						watchNamespaces: [{namespace}, default]
						webhook: {certManager: {enabled: false}, caBundle: {caBundle}}
						replicas: 1
						image: {aotCache: /workspace/application.aot}
						metrics: {serviceMonitor: {enabled: false}, secure: false}
						""", List.of("Role", "RoleBinding", "Deployment", "ValidatingWebhookConfiguration"),
						List.of("ClusterRoleBinding", "PodDisruptionBudget", "Certificate", "ServiceMonitor")),
				Arguments.of("where the pods run", """
						tolerations: [{key: dedicated, operator: Equal, value: operators, effect: NoSchedule}]
						nodeSelector: {kubernetes.io/os: linux}
						imagePullSecrets: [{name: regcred}]
						priorityClassName: system-cluster-critical
						affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 1,
						  preference: {matchExpressions: [{key: zone, operator: In, values: [a]}]}}]}}
						topologySpreadConstraints: [{maxSkew: 1, topologyKey: topology.kubernetes.io/zone,
						  whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: x}}}]
						resources: {requests: {cpu: 50m, memory: 128Mi}, limits: {memory: 1Gi}}
						revisionHistoryLimit: 3
						""", List.of("Deployment", "PodDisruptionBudget"), List.of()),
				Arguments.of("grants in two namespaces, RBAC helpers, no NetworkPolicy, no leader election", """
						grantedNamespaces: [{namespace}, default]
						rbacHelpers: {enabled: true}
						networkPolicy: {enabled: false}
						leaderElection: {enabled: false}
						replicas: 1
						podAnnotations: {}
						""", List.of("ClusterRoleBinding", "RoleBinding"),
						List.of("NetworkPolicy", "Role", "PodDisruptionBudget")),
				Arguments.of("credentials, volumes, workload identity, own security context", """
						env:
						  - {name: BUCKET_TOKEN, valueFrom: {secretKeyRef: {name: buckets, key: token}}}
						  - {name: POD_IP, valueFrom: {fieldRef: {fieldPath: status.podIP}}}
						envFrom: [{configMapRef: {name: settings, optional: true}}]
						extraVolumes: [{name: ca, configMap: {name: ca-bundle}}]
						extraVolumeMounts: [{name: ca, mountPath: /etc/ssl/extra, readOnly: true}]
						serviceAccount: {annotations: {eks.amazonaws.com/role-arn: "arn:aws:iam::123:role/operator"}}
						podLabels: {team: storage}
						podAnnotations: {prometheus.io/scrape: "true"}
						podSecurityContext: {runAsNonRoot: true, runAsUser: 1000, fsGroup: 1000,
						  seccompProfile: {type: RuntimeDefault}}
						metrics:
						  serviceMonitor: {labels: {release: prometheus}, interval: 30s, scrapeTimeout: 10s,
						    tokenSecret: {name: prometheus-token}}
						  scraper: {serviceAccount: {name: prometheus, namespace: {namespace}}}
						""", List.of("ServiceAccount", "Deployment", "ServiceMonitor", "ClusterRoleBinding"),
						List.of()),
				Arguments.of("a ServiceAccount of one's own", """
						serviceAccount: {create: false, name: storage-operator}
						""", List.of("Deployment", "RoleBinding"), List.of("ServiceAccount")));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("valueFamilies")
	void theApiServerAcceptsTheChartRenderedWithOtherValues(String family, String values, List<String> present,
			List<String> absent, TestNamespace release, @TempDir Path directory) throws Exception {
		String caBundle = Base64.getEncoder()
			.encodeToString(TestCertificateAuthority.create().caBundle().getBytes(StandardCharsets.US_ASCII));
		Path file = Files.writeString(directory.resolve("values.yaml"),
				values.replace("{namespace}", release.name()).replace("{caBundle}", caBundle));
		holdToTheRestrictedStandard(release);
		List<JsonObject> objects = objects(
				Helm.installed().template(CHART, "sample-operator", release.name(), Map.of(), List.of(file)))
			.stream()
			.filter((object) -> !object.get("kind").getAsString().equals("CustomResourceDefinition"))
			.toList();
		assertThat(objects).extracting((object) -> object.get("kind").getAsString())
			.containsAll(present)
			.noneMatch(absent::contains);
		assertAccepted(objects);
	}

	/**
	 * Labels a namespace as the README asks of the release's: Pod Security admission then
	 * warns of (and refuses) pods that break the restricted standard.
	 */
	private void holdToTheRestrictedStandard(TestNamespace namespace) throws Exception {
		JsonObject labelled = Manifests.parse("{\"apiVersion\": \"v1\", \"kind\": \"Namespace\", \"metadata\": "
				+ "{\"name\": \"" + namespace.name() + "\", \"labels\": {\"pod-security.kubernetes.io/enforce\": "
				+ "\"restricted\", \"pod-security.kubernetes.io/warn\": \"restricted\"}}}");
		ServerSideApply.Answer answer = this.apply.apply(labelled, false);
		assertThat(answer.isSuccess()).as(answer.body()).isTrue();
	}

	@Test
	void theApiServerRefusesABrokenManifest() throws Exception {
		JsonObject deployment = Manifests.load("deployment.yaml").get(0);
		deployment.getAsJsonObject("spec").addProperty("replicas", -1);
		ServerSideApply.Answer refused = this.apply.apply(deployment, true);
		assertThat(refused.code()).isEqualTo(422);
		assertThat(refused.message()).contains("spec.replicas").contains("must be greater than or equal to 0");

		JsonObject webhooks = Manifests.load("webhook.yaml").get(0);
		JsonObject condition = webhooks.getAsJsonArray("webhooks")
			.get(0)
			.getAsJsonObject()
			.getAsJsonArray("matchConditions")
			.get(0)
			.getAsJsonObject();
		condition.addProperty("expression", "object.spec.endpoint ==");
		refused = this.apply.apply(webhooks, true);
		assertThat(refused.code()).isEqualTo(422);
		assertThat(refused.message()).contains("matchConditions[0].expression").contains("compilation failed");

		JsonObject monitor = Manifests.load("servicemonitor.yaml").get(0);
		monitor.getAsJsonObject("spec").getAsJsonArray("endpoints").get(0).getAsJsonObject().addProperty("paht", "/");
		refused = this.apply.apply(monitor, true);
		// an apply patch the API server cannot type against the schema is answered 500
		assertThat(refused.isSuccess()).isFalse();
		assertThat(refused.message()).contains(".spec.endpoints[0].paht: field not declared in schema");
	}

	@Test
	void helmRefusesValuesTheOperatorCannotRunWith() {
		Helm helm = Helm.installed();
		assertThatThrownBy(() -> helm.template(CHART, "sample-operator", NAMESPACE,
				Map.of("replicas", "2", "leaderElection.enabled", "false")))
			.hasMessageContaining("replicas is above 1 but leaderElection.enabled is false");
		assertThatThrownBy(() -> helm.template(CHART, "sample-operator", NAMESPACE, Map.of("replicas", "two")))
			.hasMessageContaining("replicas");
		assertThatThrownBy(() -> helm.template(CHART, "sample-operator", NAMESPACE, Map.of("replicas", "-1")))
			.hasMessageContaining("replicas");
		assertThatThrownBy(() -> helm.template(CHART, "sample-operator", NAMESPACE, Map.of("watchNamespaces", "{a,a}")))
			.hasMessageContaining("watchNamespaces");
		assertThatThrownBy(() -> helm.template(CHART, "sample-operator", NAMESPACE,
				Map.of("metrics.scraper.serviceAccount.namespace", "")))
			.hasMessageContaining("metrics.scraper.serviceAccount.namespace must be given");
		assertThatThrownBy(() -> helm.template(CHART, "sample-operator", NAMESPACE,
				Map.of("env[0].name", "OPERATOR_METRICS_AUTH_ENABLED", "env[0].value", "false")))
			.hasMessageContaining("env names OPERATOR_METRICS_AUTH_ENABLED, which the chart derives");
		assertThatThrownBy(() -> helm.template(CHART, "sample-operator", NAMESPACE,
				Map.of("env[0].name", "SERVER_PORT", "env[0].value", "9090")))
			.hasMessageContaining("env names SERVER_PORT, which the chart derives");
		// what the conventions give: a number as the tag, a Secret reference of a pull
		// secret
		assertThat(helm.template(CHART, "sample-operator", NAMESPACE,
				Map.of("image.tag", "20250101", "imagePullSecrets[0].name", "regcred",
						"podDisruptionBudget.minAvailable", "50%")))
			.contains("image: \"sample-operator:20250101\"", "- name: regcred", "minAvailable: 50%");
	}

	/**
	 * Applies the objects with a dry run, then for real, each accepted without a warning,
	 * and reads them back.
	 */
	private void assertAccepted(List<JsonObject> objects) throws Exception {
		for (boolean dryRun : new boolean[] { true, false }) {
			for (JsonObject object : objects) {
				String what = (dryRun ? "dry run of " : "") + describe(object);
				ServerSideApply.Answer answer = this.apply.apply(object, dryRun);
				assertThat(answer.isSuccess()).as("%s: %s", what, answer.body()).isTrue();
				assertThat(answer.warnings()).as(what).isEmpty();
				if (!dryRun) {
					this.applied.add(object);
				}
			}
		}
		for (JsonObject object : objects) {
			ServerSideApply.Answer stored = this.apply.get(object);
			assertThat(stored.isSuccess()).as(describe(object)).isTrue();
			if (object.get("kind").getAsString().endsWith("WebhookConfiguration")) {
				// gone again before any other test creates a StorageBucket
				this.apply.delete(object);
			}
		}
	}

	private static String describe(JsonObject object) {
		JsonObject metadata = object.getAsJsonObject("metadata");
		return object.get("kind").getAsString() + " "
				+ (metadata.has("namespace") ? metadata.get("namespace").getAsString() + "/" : "")
				+ metadata.get("name").getAsString();
	}

	private static List<JsonObject> objects(String yaml) {
		List<JsonObject> objects = new ArrayList<>();
		for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(new StringReader(yaml))) {
			if (document != null) {
				objects.add(new Gson().toJsonTree(document).getAsJsonObject());
			}
		}
		return objects;
	}

	private static Map<String, JsonObject> byName(List<JsonObject> objects) {
		Map<String, JsonObject> byName = new HashMap<>();
		for (JsonObject object : objects) {
			assertThat(byName.put(describe(object), object)).as(describe(object)).isNull();
		}
		return byName;
	}

}
