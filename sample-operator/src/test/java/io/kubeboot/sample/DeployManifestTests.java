package io.kubeboot.sample;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@code deploy/} says about the pod, checked without a cluster against
 * {@code application.yaml}: Actuator on the management port and Prometheus pointed at it,
 * the kubelet's probes on the application's port, a read-only root filesystem with a
 * writable {@code /tmp}, no access to Pods, writes to ConfigMaps granted per namespace
 * only, a NetworkPolicy that opens the webhook and management ports alone, the example
 * egress policy, and Prometheus scraping with a token that RBAC lets get the metrics
 * path. {@code StorageBucketSecureDefaultsIntegrationTests} requests the same paths and
 * ports of the running operator.
 */
class DeployManifestTests {

	@Test
	void actuatorHasAPortOfItsOwnAndPrometheusScrapesIt() throws IOException {
		JsonObject pod = podTemplate();
		Map<String, Integer> ports = containerPorts();
		assertThat(ports).containsEntry("http", applicationPort()).containsEntry("management", managementPort());
		assertThat(managementPort()).isNotEqualTo(applicationPort());
		// the ServiceMonitor scrapes the metrics Service, which points at the management
		// port
		JsonObject metrics = Manifests.load("service.yaml")
			.stream()
			.filter((service) -> service.getAsJsonObject("metadata").get("name").getAsString().endsWith("-metrics"))
			.findFirst()
			.orElseThrow();
		JsonObject port = metrics.getAsJsonObject("spec").getAsJsonArray("ports").get(0).getAsJsonObject();
		assertThat(port.get("targetPort").getAsString()).isEqualTo("management");
		assertThat(port.get("port").getAsInt()).isEqualTo(managementPort());
		JsonObject endpoint = Manifests.load("servicemonitor.yaml")
			.get(0)
			.getAsJsonObject("spec")
			.getAsJsonArray("endpoints")
			.get(0)
			.getAsJsonObject();
		assertThat(endpoint.get("port").getAsString()).isEqualTo(port.get("name").getAsString());
		assertThat(endpoint.get("path").getAsString()).isEqualTo("/actuator/prometheus");
		// no prometheus.io annotations besides: a Prometheus that honours both would
		// scrape twice
		assertThat(pod.getAsJsonObject("metadata").has("annotations")).isFalse();
		assertThat(setting("management", "endpoint", "health", "show-details")).isEqualTo("when-authorized");
	}

	@Test
	void theKubeletProbesTheApplicationsPort() throws IOException {
		JsonObject container = container();
		for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
			JsonObject get = container.getAsJsonObject(probe).getAsJsonObject("httpGet");
			assertThat(get.get("port").getAsString()).as(probe).isEqualTo("http");
			assertThat(get.get("path").getAsString()).as(probe).isIn("/healthz", "/readyz");
		}
	}

	@Test
	void theRootFilesystemIsReadOnlyAndTmpAnEmptyDirHoldingTheWebhookCertificate() throws IOException {
		JsonObject container = container();
		assertThat(container.getAsJsonObject("securityContext").get("readOnlyRootFilesystem").getAsBoolean()).isTrue();
		Map<String, String> mounts = new LinkedHashMap<>();
		for (JsonElement mount : container.getAsJsonArray("volumeMounts")) {
			mounts.put(mount.getAsJsonObject().get("mountPath").getAsString(),
					mount.getAsJsonObject().get("name").getAsString());
		}
		String certDir = (String) setting("operator", "webhook", "cert-dir");
		assertThat(certDir).startsWith("/tmp/");
		assertThat(mounts).containsKeys("/tmp", certDir);
		JsonObject tmp = volume(mounts.get("/tmp"));
		assertThat(tmp.has("emptyDir")).isTrue();
		JsonObject certificate = volume(mounts.get(certDir));
		assertThat(certificate.getAsJsonObject("secret").get("secretName").getAsString())
			.isEqualTo("sample-operator-webhook-tls");
	}

	@Test
	void theClusterRoleGrantsNothingOnPodsAndThePodLoggerIsOff() throws IOException {
		List<String> resources = new ArrayList<>();
		for (JsonObject manifest : Manifests.load("rbac.yaml")) {
			if (manifest.has("rules")) {
				for (JsonElement rule : manifest.getAsJsonArray("rules")) {
					// the metrics reader's rule names a path (nonResourceURLs), no
					// resources
					if (rule.getAsJsonObject().has("resources")) {
						rule.getAsJsonObject()
							.getAsJsonArray("resources")
							.forEach((r) -> resources.add(r.getAsString()));
					}
				}
			}
		}
		assertThat(resources).doesNotContain("pods").contains("storagebuckets", "configmaps", "events");
		assertThat(setting("sample", "pod-logger", "enabled")).isEqualTo(false);
		assertThat(setting("sample", "buckets", "allow-private-endpoints")).isEqualTo(false);
	}

	@Test
	void noClusterRoleBindingGrantsWritesToConfigMapsOrSecrets() throws IOException {
		List<JsonObject> rbac = Manifests.load("rbac.yaml");
		Set<String> boundClusterWide = new HashSet<>();
		for (JsonObject manifest : rbac) {
			if (manifest.get("kind").getAsString().equals("ClusterRoleBinding")) {
				boundClusterWide.add(manifest.getAsJsonObject("roleRef").get("name").getAsString());
			}
		}
		for (JsonObject manifest : rbac) {
			if (!manifest.get("kind").getAsString().equals("ClusterRole")) {
				continue;
			}
			String name = manifest.getAsJsonObject("metadata").get("name").getAsString();
			for (JsonElement element : manifest.getAsJsonArray("rules")) {
				JsonObject rule = element.getAsJsonObject();
				if (!rule.has("resources")) {
					// the metrics reader's get on a path
					assertThat(strings(rule.getAsJsonArray("verbs"))).as(name).containsExactly("get");
					continue;
				}
				List<String> resources = strings(rule.getAsJsonArray("resources"));
				List<String> verbs = strings(rule.getAsJsonArray("verbs"));
				assertThat(resources).as(name).doesNotContain("*");
				assertThat(verbs).as(name).doesNotContain("*");
				boolean confidential = resources.contains("configmaps") || resources.contains("secrets");
				if (boundClusterWide.contains(name) && confidential) {
					assertThat(verbs).as("%s %s", name, resources).isSubsetOf("get", "list", "watch");
				}
			}
		}
		assertThat(boundClusterWide).contains("sample-operator").doesNotContain("sample-operator-bucket-connections");
	}

	@Test
	void theConfigMapWritesAreBoundInOneNamespaceOnly() throws IOException {
		List<JsonObject> bindings = new ArrayList<>();
		for (JsonObject manifest : Manifests.load("rbac.yaml")) {
			JsonObject roleRef = manifest.getAsJsonObject("roleRef");
			if (roleRef != null && roleRef.get("name").getAsString().equals("sample-operator-bucket-connections")) {
				bindings.add(manifest);
			}
		}
		assertThat(bindings).hasSize(1);
		JsonObject binding = bindings.get(0);
		assertThat(binding.get("kind").getAsString()).isEqualTo("RoleBinding");
		assertThat(binding.getAsJsonObject("metadata").get("namespace").getAsString()).isEqualTo("default");
		assertThat(binding.getAsJsonObject("roleRef").get("kind").getAsString()).isEqualTo("ClusterRole");
		JsonObject subject = binding.getAsJsonArray("subjects").get(0).getAsJsonObject();
		assertThat(subject.get("kind").getAsString()).isEqualTo("ServiceAccount");
		assertThat(subject.get("name").getAsString()).isEqualTo("sample-operator");
		assertThat(subject.get("namespace").getAsString()).isEqualTo("sample-operator");
	}

	@Test
	void theNetworkPolicyAdmitsTheWebhookAndManagementPortsOnly() throws IOException {
		JsonObject policy = Manifests.load("networkpolicy.yaml").get(0);
		JsonObject spec = policy.getAsJsonObject("spec");
		assertThat(spec.getAsJsonObject("podSelector").getAsJsonObject("matchLabels"))
			.isEqualTo(podTemplate().getAsJsonObject("metadata").getAsJsonObject("labels"));
		Set<String> ports = new HashSet<>();
		for (JsonElement rule : spec.getAsJsonArray("ingress")) {
			for (JsonElement port : rule.getAsJsonObject().getAsJsonArray("ports")) {
				ports.add(port.getAsJsonObject().get("port").getAsString());
			}
		}
		assertThat(ports).containsExactlyInAnyOrder("webhook", "management");
		Map<String, Integer> containerPorts = containerPorts();
		assertThat(containerPorts).containsEntry("webhook", (int) setting("operator", "webhook", "port"))
			.containsEntry("management", managementPort());
	}

	@Test
	void theEgressPolicyRefusesMetadataAndPrivateAddresses() throws IOException {
		JsonObject spec = Manifests.load(Manifests.EXAMPLES.resolve("networkpolicy-egress.yaml"))
			.get(0)
			.getAsJsonObject("spec");
		assertThat(strings(spec.getAsJsonArray("policyTypes"))).containsExactly("Egress");
		List<String> refused = new ArrayList<>();
		for (JsonElement rule : spec.getAsJsonArray("egress")) {
			for (JsonElement peer : rule.getAsJsonObject().getAsJsonArray("to")) {
				JsonObject ipBlock = peer.getAsJsonObject().getAsJsonObject("ipBlock");
				if (ipBlock != null && ipBlock.get("cidr").getAsString().equals("0.0.0.0/0")) {
					refused.addAll(strings(ipBlock.getAsJsonArray("except")));
				}
			}
		}
		assertThat(refused).contains("169.254.0.0/16", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10",
				"127.0.0.0/8");
	}

	@Test
	void prometheusScrapesWithATokenThatRbacLetsGetTheMetricsPath() throws IOException {
		assertThat(environment()).containsEntry("OPERATOR_METRICS_AUTH_ENABLED", "true");
		// every endpoint exposed on the management port but health, which the kubelet
		// probes without a token
		List<String> exposed = new ArrayList<>(
				List.of(((String) setting("management", "endpoints", "web", "exposure", "include")).split(",")));
		exposed.remove("health");
		assertThat(setting("operator", "metrics", "auth", "endpoints")).isEqualTo(exposed);
		JsonObject endpoint = Manifests.load("servicemonitor.yaml")
			.get(0)
			.getAsJsonObject("spec")
			.getAsJsonArray("endpoints")
			.get(0)
			.getAsJsonObject();
		String path = endpoint.get("path").getAsString();
		// Prometheus's own token, mounted in its pod
		assertThat(endpoint.get("bearerTokenFile").getAsString())
			.isEqualTo("/var/run/secrets/kubernetes.io/serviceaccount/token");
		List<JsonObject> rbac = Manifests.load("rbac.yaml");
		JsonObject reader = named(rbac, "ClusterRole", "sample-operator-metrics-reader").getAsJsonArray("rules")
			.get(0)
			.getAsJsonObject();
		assertThat(strings(reader.getAsJsonArray("nonResourceURLs"))).containsExactly(path);
		assertThat(strings(reader.getAsJsonArray("verbs"))).containsExactly("get");
		JsonObject readerBinding = named(rbac, "ClusterRoleBinding", "sample-operator-metrics-reader");
		assertThat(readerBinding.getAsJsonObject("roleRef").get("name").getAsString())
			.isEqualTo("sample-operator-metrics-reader");
		JsonObject scraper = readerBinding.getAsJsonArray("subjects").get(0).getAsJsonObject();
		assertThat(scraper.get("name").getAsString()).isEqualTo("prometheus-k8s");
		assertThat(scraper.get("namespace").getAsString()).isEqualTo("monitoring");
		// the operator may ask the API server: a ClusterRole, bound to its ServiceAccount
		List<String> reviews = new ArrayList<>();
		for (JsonElement rule : named(rbac, "ClusterRole", "sample-operator-metrics-auth").getAsJsonArray("rules")) {
			reviews.addAll(strings(rule.getAsJsonObject().getAsJsonArray("resources")));
		}
		assertThat(reviews).containsExactly("tokenreviews", "subjectaccessreviews");
		JsonObject operator = named(rbac, "ClusterRoleBinding", "sample-operator-metrics-auth")
			.getAsJsonArray("subjects")
			.get(0)
			.getAsJsonObject();
		assertThat(operator.get("name").getAsString())
			.isEqualTo(podTemplate().getAsJsonObject("spec").get("serviceAccountName").getAsString());
	}

	private static JsonObject named(List<JsonObject> manifests, String kind, String name) {
		List<JsonObject> named = manifests.stream()
			.filter((manifest) -> manifest.get("kind").getAsString().equals(kind)
					&& manifest.getAsJsonObject("metadata").get("name").getAsString().equals(name))
			.toList();
		assertThat(named).as("%s %s", kind, name).hasSize(1);
		return named.get(0);
	}

	/** The environment variables of the operator's container that have a value. */
	private static Map<String, String> environment() throws IOException {
		Map<String, String> variables = new LinkedHashMap<>();
		for (JsonElement variable : container().getAsJsonArray("env")) {
			JsonObject entry = variable.getAsJsonObject();
			if (entry.has("value")) {
				variables.put(entry.get("name").getAsString(), entry.get("value").getAsString());
			}
		}
		return variables;
	}

	private static List<String> strings(JsonArray array) {
		List<String> strings = new ArrayList<>();
		array.forEach((element) -> strings.add(element.getAsString()));
		return strings;
	}

	static int applicationPort() throws IOException {
		return (int) setting("server", "port");
	}

	static int managementPort() throws IOException {
		return (int) setting("management", "server", "port");
	}

	/** The named ports of the operator's container. */
	static Map<String, Integer> containerPorts() throws IOException {
		Map<String, Integer> ports = new LinkedHashMap<>();
		for (JsonElement port : container().getAsJsonArray("ports")) {
			ports.put(port.getAsJsonObject().get("name").getAsString(),
					port.getAsJsonObject().get("containerPort").getAsInt());
		}
		return ports;
	}

	static JsonObject podTemplate() throws IOException {
		return Manifests.load("deployment.yaml").get(0).getAsJsonObject("spec").getAsJsonObject("template");
	}

	static JsonObject container() throws IOException {
		JsonArray containers = podTemplate().getAsJsonObject("spec").getAsJsonArray("containers");
		assertThat(containers).hasSize(1);
		return containers.get(0).getAsJsonObject();
	}

	private static JsonObject volume(String name) throws IOException {
		for (JsonElement volume : podTemplate().getAsJsonObject("spec").getAsJsonArray("volumes")) {
			if (volume.getAsJsonObject().get("name").getAsString().equals(name)) {
				return volume.getAsJsonObject();
			}
		}
		throw new AssertionError("No volume " + name + " in deployment.yaml");
	}

	/** A setting of {@code application.yaml}, by the keys of its path. */
	@SuppressWarnings("unchecked")
	static Object setting(String... path) throws IOException {
		try (InputStream in = DeployManifestTests.class.getResourceAsStream("/application.yaml")) {
			Object node = new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
			for (String key : path) {
				node = ((Map<String, Object>) node).get(key);
			}
			return node;
		}
	}

}
