package io.kubeboot.operator.archetype;

import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.CustomResourceDefinitions;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A project generated from the archetype, as a user generates it with
 * {@code mvn archetype:generate}: its {@code mvn verify} passes as generated (its test
 * runs its operator against a local control plane, its first build generates
 * {@code deploy/}, and a later build fails while {@code deploy/} differs), the layers its
 * {@code Dockerfile} copies make a runnable application, and
 * {@code mvn spring-boot:test-run} runs its operator against a throwaway control plane
 * that reconciles what a user creates with the logged kubeconfig, then stops cleanly; and
 * its jar, run as {@code deploy/} deploys it (its namespace, CRD and RBAC applied, for an
 * unprivileged user instead of the ServiceAccount), answers the probes and the scrape of
 * {@code deployment.yaml} and reconciles the example without meeting a {@code Forbidden}.
 * <p>
 * The generated project's builds read this build's artifacts from
 * {@code target/local-repo}, where the invoker plugin installed them.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@WithControlPlane
class GeneratedProjectIntegrationTests {

	private static final Pattern READY = Pattern
		.compile("Local control plane ready: server=(https://127\\.0\\.0\\.1:\\d+) kubeconfig=(\\S+) ");

	private static Path work;

	private static Path project;

	private static MavenRun maven;

	@BeforeAll
	static void generate() throws Exception {
		work = Path.of(MavenRun.property("it.directory"));
		deleteRecursively(work);
		Files.createDirectories(work);
		maven = new MavenRun(work);
		maven.run(work, work.resolve("generate.log"), Duration.ofMinutes(5),
				"org.apache.maven.plugins:maven-archetype-plugin:" + MavenRun.property("maven-archetype-plugin.version")
						+ ":generate",
				"-DarchetypeGroupId=io.kubeboot", "-DarchetypeArtifactId=operator-spring-boot-archetype",
				"-DarchetypeVersion=" + MavenRun.property("archetype.version"), "-DgroupId=com.example.shop",
				"-DartifactId=shop-operator", "-Dkind=Website", "-Dgroup=shop.example.com", "-DinteractiveMode=false");
		project = work.resolve("shop-operator");
	}

	@Test
	@Order(1)
	void generatesTheProject() {
		assertThat(project.resolve("src/main/java/com/example/shop/v1alpha1/Website.java")).content()
			.contains("public class Website extends CustomResource<WebsiteSpec, WebsiteStatus>")
			.contains("GROUP = \"shop.example.com\"")
			.contains("PLURAL = \"websites\"");
		assertThat(project.resolve("src/main/java/com/example/shop/WebsiteReconciler.java")).content()
			.contains("finalizer = WebsiteReconciler.FINALIZER")
			.contains("FINALIZER = \"shop.example.com/finalizer\"");
		assertThat(project.resolve("src/test/java/com/example/shop/TestOperatorApplication.java")).exists();
		// the first build generates deploy/
		assertThat(project.resolve("deploy")).doesNotExist();
		assertThat(project.resolve("src/main/deploy/settings.yaml")).content()
			.contains("namespace: shop-operator")
			.contains("repository: shop-operator");
		assertThat(project.resolve("pom.xml")).content()
			.contains("<operator-spring-boot.version>" + MavenRun.property("archetype.version") + "<")
			.contains("<version>${operator-spring-boot.version}</version>")
			.contains("<artifactId>operator-maven-plugin</artifactId>")
			.contains("mvn operator:create-webhook -Dkind=Website -Dvalidating")
			// the conversion webhook of a second version: the Service and Certificate
			// that GeneratedDeployTests renders, in the namespace of settings.yaml
			.contains("<arg>-Akubeboot.webhook.service=shop-operator-webhook</arg>")
			.contains("<arg>-Akubeboot.webhook.namespace=shop-operator</arg>")
			.contains("<arg>-Akubeboot.webhook.certificate=shop-operator/shop-operator-webhook</arg>")
			.doesNotContain("@project.version@");
		for (String file : List.of("Dockerfile", ".dockerignore", ".gitignore", ".gitattributes", "README.md",
				"examples/example.yaml", "src/test/java/com/example/shop/GeneratedDeployTests.java",
				"src/main/resources/application.yaml")) {
			assertThat(project.resolve(file)).as(file).exists();
		}
	}

	@Test
	@Order(2)
	void verifyPassesAsGenerated() throws Exception {
		String output = maven.run(project, work.resolve("verify.log"), Duration.ofMinutes(20), "verify");
		assertThat(output).contains("BUILD SUCCESS");
		Path report = project.resolve("target/surefire-reports/TEST-com.example.shop.WebsiteReconcilerTests.xml");
		assertThat(report).content().contains("tests=\"3\"").contains("failures=\"0\"").contains("errors=\"0\"");
		// its finalizer flow reads right after its writes without waiting for the cache
		// (deleting an object with a finalizer used to stall every read for 5 s)
		assertThat(output).doesNotContain("within PT5S").doesNotContain("has not seen this process's last write");
		// the first build wrote deploy/, generated from the code
		assertThat(project.resolve("target/surefire-reports/TEST-com.example.shop.GeneratedDeployTests.xml")).content()
			.contains("tests=\"1\"")
			.contains("failures=\"0\"")
			.contains("errors=\"0\"");
		assertThat(project.resolve("deploy/crd.yaml")).content()
			.contains("name: websites.shop.example.com")
			.contains("singular: website");
		for (String file : List.of("README.md", "namespace.yaml", "rbac.yaml", "service.yaml", "deployment.yaml",
				"networkpolicy.yaml", "servicemonitor.yaml", "chart/Chart.yaml", "chart/values.yaml",
				"chart/values.schema.json", "chart/templates/deployment.yaml")) {
			assertThat(project.resolve("deploy").resolve(file)).as(file)
				.content()
				.contains("Generated from com.example.shop.OperatorApplication");
		}
		assertThat(project.resolve("target/shop-operator-0.1.0-SNAPSHOT.jar")).exists();
	}

	@Test
	@Order(3)
	void theBuildFailsWhileDeployDiffersFromTheCode() throws Exception {
		Path deployment = project.resolve("deploy/deployment.yaml");
		String generated = Files.readString(deployment, StandardCharsets.UTF_8);
		Files.writeString(deployment, generated.replace("replicas: 2", "replicas: 3"), StandardCharsets.UTF_8);
		try {
			assertThatExceptionOfType(AssertionError.class)
				.isThrownBy(() -> maven.run(project, work.resolve("drift.log"), Duration.ofMinutes(5), "test",
						"-Dtest=GeneratedDeployTests"))
				.withMessageContaining("deploy differs from what the code generates")
				.withMessageContaining("deployment.yaml differs")
				.withMessageContaining("mvn test -Dtest=GeneratedDeployTests -Ddeploy.update=true");
		}
		finally {
			Files.writeString(deployment, generated, StandardCharsets.UTF_8);
		}
	}

	@Test
	@Order(4)
	void theDockerfilesLayersMakeARunnableApplicationThatStartsFromItsClassDataArchive() throws Exception {
		// what the Dockerfile's builder stage does, then its COPY lines, its training
		// run and its ENTRYPOINT
		List<String> dockerfile = Files.readAllLines(project.resolve("Dockerfile"), StandardCharsets.UTF_8);
		Path builder = Files.createDirectories(work.resolve("image/builder"));
		Path application = Files.createDirectories(work.resolve("image/application"));
		Files.copy(project.resolve("target/shop-operator-0.1.0-SNAPSHOT.jar"), builder.resolve("application.jar"));
		List<String> runs = dockerfile.stream().filter((line) -> line.startsWith("RUN java ")).toList();
		assertThat(runs).hasSize(2);
		run(builder, javaCommand(runs.get(0)), Duration.ofMinutes(2));
		List<String> copies = dockerfile.stream().filter((line) -> line.startsWith("COPY --from=builder ")).toList();
		assertThat(copies).hasSize(4);
		for (String copy : copies) {
			String source = copy.split(" ")[2];
			Path layer = builder.resolve(source.substring("/builder/".length()));
			assertThat(layer).as(copy).isDirectory();
			copyTree(layer, application);
		}
		// the training run, where the image is built: no cluster, no kubeconfig
		String training = run(application, javaCommand(runs.get(1)), Duration.ofMinutes(2));
		assertThat(training).contains("Starting AOT-processed OperatorApplication").doesNotContain(" ERROR ");
		assertThat(application.resolve("application.jsa")).isNotEmptyFile();
		String entrypoint = dockerfile.stream()
			.filter((line) -> line.startsWith("ENTRYPOINT "))
			.findFirst()
			.orElseThrow();
		List<String> command = new ArrayList<>(JsonParser.parseString(entrypoint.substring("ENTRYPOINT ".length()))
			.getAsJsonArray()
			.asList()
			.stream()
			.map((element) -> element.getAsString())
			.toList());
		command.set(0, java());
		// -Xshare:on: the JVM refuses to start unless it maps the archive
		Path classLoading = work.resolve("image/class-load.log");
		command.addAll(1, List.of("-Xshare:on", "-Xlog:class+load=info:file=" + classLoading));
		command.add("--server.port=0");
		// no cluster here: the application starts and its auto-configuration says so
		String output = run(application, command, Duration.ofMinutes(2));
		assertThat(output).contains("Starting AOT-processed OperatorApplication")
			.contains("No Kubernetes configuration found");
		// the application's own classes and Spring's came from the trained archive
		assertThat(Files.readAllLines(classLoading, StandardCharsets.UTF_8))
			.anyMatch((line) -> line.contains("com.example.shop.WebsiteReconciler source: shared objects file"))
			.anyMatch(
					(line) -> line.contains("org.springframework.boot.SpringApplication source: shared objects file"));
	}

	private static List<String> javaCommand(String run) {
		List<String> command = new ArrayList<>(List.of(run.substring("RUN ".length()).split(" ")));
		command.set(0, java());
		return command;
	}

	@Test
	@Order(5)
	void testRunReconcilesWhatAUserCreatesAndStopsCleanly() throws Exception {
		Path log = work.resolve("test-run.log");
		Process mvn = maven.start(project, log, "spring-boot:test-run",
				"-Dspring-boot.run.arguments=--server.port=0 --server.address=127.0.0.1");
		try {
			Matcher ready = await().atMost(Duration.ofMinutes(10)).until(() -> {
				assertThat(mvn.isAlive()).as(() -> "mvn spring-boot:test-run ended:\n" + MavenRun.read(log)).isTrue();
				return READY.matcher(MavenRun.read(log));
			}, Matcher::find);
			Path kubeconfig = Path.of(ready.group(2));
			await().atMost(Duration.ofMinutes(2))
				.until(() -> MavenRun.read(log).contains("Started OperatorApplication"));
			assertThat(MavenRun.read(log)).contains("Applied CustomResourceDefinitions to the local control plane: "
					+ "crds=[websites.shop.example.com] from=["
					+ project.resolve("target/classes/META-INF/kubeboot/crds/websites.shop.example.com.yaml")
						.toRealPath()
					+ "]");

			// kubectl --kubeconfig <the logged path> apply -f deploy/example.yaml
			ApiClient client;
			try (Reader reader = Files.newBufferedReader(kubeconfig, StandardCharsets.UTF_8)) {
				client = ClientBuilder.kubeconfig(KubeConfig.loadKubeConfig(reader)).build();
			}
			DynamicKubernetesApi websites = new DynamicKubernetesApi("shop.example.com", "v1alpha1", "websites",
					client);
			JsonObject example = JsonParser.parseString("""
					{"apiVersion": "shop.example.com/v1alpha1", "kind": "Website",
					 "metadata": {"name": "example", "namespace": "default"}, "spec": {"data": {"greeting": "hello"}}}
					""").getAsJsonObject();
			KubernetesApiResponse<DynamicKubernetesObject> created = websites
				.create(new DynamicKubernetesObject(example));
			assertThat(created.isSuccess()).as(String.valueOf(created.getStatus())).isTrue();
			await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> {
				JsonObject website = websites.get("default", "example").getObject().getRaw();
				assertThat(website.getAsJsonObject("status")).as(website.toString()).isNotNull();
				JsonObject condition = website.getAsJsonObject("status")
					.getAsJsonArray("conditions")
					.get(0)
					.getAsJsonObject();
				assertThat(condition.get("type").getAsString()).isEqualTo("Ready");
				assertThat(condition.get("status").getAsString()).isEqualTo("True");
				V1ConfigMap configMap = new CoreV1Api(client).readNamespacedConfigMap("example", "default").execute();
				assertThat(configMap.getData()).containsEntry("greeting", "hello");
			});

			// as an IDE's stop button: the operator stops (and releases its Lease), then
			// the control plane
			assertThat(Processes.stop(mvn, Duration.ofMinutes(2))).as(() -> "still running:\n" + MavenRun.read(log))
				.isTrue();
			String output = MavenRun.read(log);
			assertThat(output).contains("Manager stopped")
				.contains("Released leader lease")
				.doesNotContain("Could not release leader lease")
				.doesNotContain("List or watch failed");
			assertThat(kubeconfig.getParent()).doesNotExist();
		}
		finally {
			if (mvn.isAlive()) {
				Processes.stop(mvn, Duration.ofSeconds(30));
			}
		}
	}

	@Test
	@Order(6)
	void theManifestsOfDeployAreAllItNeeds(ControlPlane controlPlane, TestNamespace namespace) throws Exception {
		// deploy/namespace.yaml, crd.yaml and rbac.yaml as kubectl apply would, with an
		// unprivileged user of the control plane in place of the ServiceAccount
		ApiClient admin = controlPlane.adminClient();
		for (JsonObject manifest : load(project.resolve("deploy/namespace.yaml"))) {
			assertThat(create(admin, manifest).isSuccess()).isTrue();
		}
		CustomResourceDefinitions.apply(admin, project.resolve("deploy/crd.yaml"));
		for (JsonObject manifest : load(project.resolve("deploy/rbac.yaml"))) {
			String kind = manifest.get("kind").getAsString();
			if (kind.equals("ServiceAccount")) {
				continue;
			}
			if (kind.endsWith("Binding")) {
				manifest.add("subjects", JsonParser.parseString(
						"[{\"kind\": \"User\", \"name\": \"user1\", \"apiGroup\": \"rbac.authorization.k8s.io\"}]"));
			}
			KubernetesApiResponse<DynamicKubernetesObject> created = create(admin, manifest);
			assertThat(created.isSuccess()).as(kind + ": " + created.getStatus()).isTrue();
		}
		// the jar as deploy/deployment.yaml runs it: the Lease in the operator's
		// namespace
		Path log = work.resolve("deployed.log");
		// with the beans generated at build time, as the Dockerfile's ENTRYPOINT starts
		// it
		ProcessBuilder builder = new ProcessBuilder(java(), "-Dspring.aot.enabled=true", "-jar",
				project.resolve("target/shop-operator-0.1.0-SNAPSHOT.jar").toString(), "--server.port=0",
				"--server.address=127.0.0.1")
			.redirectErrorStream(true)
			.redirectOutput(log.toFile());
		builder.environment().put("KUBECONFIG", controlPlane.kubeconfigFor("user1").toString());
		builder.environment().put("OPERATOR_LEADERELECTION_NAMESPACE", "shop-operator");
		Process operator = builder.start();
		try {
			Matcher started = await().atMost(Duration.ofMinutes(2)).until(() -> {
				assertThat(operator.isAlive()).as(() -> "the operator exited:\n" + MavenRun.read(log)).isTrue();
				return Pattern.compile("Tomcat started on port (\\d+)").matcher(MavenRun.read(log));
			}, Matcher::find);
			await().atMost(Duration.ofMinutes(1)).until(() -> MavenRun.read(log).contains("Starting workers"));
			assertThat(MavenRun.read(log)).contains("Starting AOT-processed OperatorApplication");
			// the paths and port of the probes of deploy/deployment.yaml and of the
			// scrape of
			// deploy/servicemonitor.yaml
			String deployment = Files.readString(project.resolve("deploy/deployment.yaml"), StandardCharsets.UTF_8);
			assertThat(deployment).contains("containerPort: 8080", "path: /healthz", "path: /readyz");
			assertThat(project.resolve("deploy/servicemonitor.yaml")).content()
				.contains("path: /actuator/prometheus", "port: metrics");
			assertThat(project.resolve("deploy/service.yaml")).content().contains("port: 8080");
			HttpClient http = HttpClient.newHttpClient();
			for (String path : List.of("/healthz", "/readyz", "/actuator/prometheus")) {
				HttpResponse<String> response = http.send(
						HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + started.group(1) + path)).build(),
						HttpResponse.BodyHandlers.ofString());
				assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
			}

			DynamicKubernetesApi websites = new DynamicKubernetesApi("shop.example.com", "v1alpha1", "websites", admin);
			JsonObject website = load(project.resolve("examples/example.yaml")).get(0);
			website.getAsJsonObject("metadata").addProperty("namespace", namespace.name());
			assertThat(websites.create(new DynamicKubernetesObject(website)).isSuccess()).isTrue();
			await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> {
				JsonObject status = websites.get(namespace.name(), "example")
					.getObject()
					.getRaw()
					.getAsJsonObject("status");
				assertThat(status).isNotNull();
				assertThat(status.getAsJsonArray("conditions").get(0).getAsJsonObject().get("status").getAsString())
					.isEqualTo("True");
			});
			assertThat(new CoreV1Api(admin).readNamespacedConfigMap("example", namespace.name()).execute().getData())
				.containsEntry("greeting", "hello");
			// the finalizer comes off once cleanup() is done
			assertThat(websites.delete(namespace.name(), "example").isSuccess()).isTrue();
			await().atMost(Duration.ofMinutes(1))
				.until(() -> websites.get(namespace.name(), "example").getHttpStatusCode() == 404);

			operator.destroy();
			assertThat(operator.waitFor(1, TimeUnit.MINUTES)).isTrue();
			assertThat(MavenRun.read(log)).contains("Released leader lease")
				.doesNotContain("Forbidden")
				.doesNotContain("RBAC denies")
				.doesNotContain(" ERROR ")
				.doesNotContain("Failed to set up a Bean Validation provider");
		}
		finally {
			operator.destroyForcibly().waitFor();
		}
	}

	private static List<JsonObject> load(Path file) throws IOException {
		List<JsonObject> documents = new ArrayList<>();
		try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
			for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(reader)) {
				if (document != null) {
					documents.add(new Gson().toJsonTree(document).getAsJsonObject());
				}
			}
		}
		return documents;
	}

	private static KubernetesApiResponse<DynamicKubernetesObject> create(ApiClient client, JsonObject manifest) {
		String[] apiVersion = manifest.get("apiVersion").getAsString().split("/");
		String kind = manifest.get("kind").getAsString();
		String plural = switch (kind) {
			case "Namespace" -> "namespaces";
			case "ClusterRole" -> "clusterroles";
			case "ClusterRoleBinding" -> "clusterrolebindings";
			case "Role" -> "roles";
			case "RoleBinding" -> "rolebindings";
			default -> throw new IllegalArgumentException("Unexpected kind " + kind);
		};
		return new DynamicKubernetesApi((apiVersion.length == 2) ? apiVersion[0] : "",
				apiVersion[apiVersion.length - 1], plural, client)
			.create(new DynamicKubernetesObject(manifest));
	}

	private static String run(Path directory, List<String> command, Duration timeout)
			throws IOException, InterruptedException {
		Path log = Files.createTempFile(work, "run-", ".log");
		ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile());
		// no configuration anywhere: not in KUBECONFIG, ~/.kube/config or a pod
		builder.environment().remove("KUBECONFIG");
		builder.environment().remove("KUBERNETES_SERVICE_HOST");
		builder.environment().remove("KUBERNETES_SERVICE_PORT");
		builder.environment().put("HOME", Files.createTempDirectory(work, "home-").toString());
		Process process = builder.start();
		if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
			process.destroyForcibly().waitFor();
			throw new AssertionError(
					String.join(" ", command) + " took longer than " + timeout + ":\n" + MavenRun.read(log));
		}
		return MavenRun.read(log);
	}

	private static String java() {
		return Path.of(System.getProperty("java.home"), "bin", "java").toString();
	}

	private static void copyTree(Path source, Path target) throws IOException {
		try (Stream<Path> files = Files.walk(source)) {
			for (Path file : files.toList()) {
				Path copy = target.resolve(source.relativize(file).toString());
				if (Files.isDirectory(file)) {
					Files.createDirectories(copy);
				}
				else {
					Files.copy(file, copy);
				}
			}
		}
	}

	private static void deleteRecursively(Path directory) throws IOException {
		if (!Files.exists(directory)) {
			return;
		}
		try (Stream<Path> files = Files.walk(directory)) {
			for (Path file : files.sorted((a, b) -> b.compareTo(a)).toList()) {
				Files.delete(file);
			}
		}
	}

}
