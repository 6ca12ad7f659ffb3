package io.kubeboot.operator.archetype;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A generated project grown as a user grows it, with the goals of
 * {@code operator-maven-plugin} that its {@code pom.xml} declares: a second kind
 * ({@code operator:create-api}, which regenerates {@code deploy/} in a nested build), the
 * refusals that leave the sources as they were, a validating and a defaulting webhook for
 * the first kind ({@code operator:create-webhook} without regeneration, then the command
 * it prints), a second version of the first kind converted by webhook
 * ({@code operator:create-version}, with the compiler options the archetype gave
 * {@code pom.xml}), and finally {@code mvn verify} of the grown project: every scaffolded
 * test passes against a local control plane and {@code deploy/} holds what the code
 * generates.
 * <p>
 * Like {@link GeneratedProjectIntegrationTests}, its builds read this build's artifacts,
 * the plugin included, from {@code target/local-repo}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GrownProjectIntegrationTests {

	private static final String REGENERATE = "mvn test -Dtest=GeneratedDeployTests -Ddeploy.update=true";

	private static Path work;

	private static Path project;

	private static MavenRun maven;

	@BeforeAll
	static void generate() throws Exception {
		work = Path.of(MavenRun.property("it.directory")).resolveSibling("it-grown");
		deleteRecursively(work);
		Files.createDirectories(work);
		maven = new MavenRun(work);
		maven.run(work, work.resolve("generate.log"), Duration.ofMinutes(5),
				"org.apache.maven.plugins:maven-archetype-plugin:" + MavenRun.property("maven-archetype-plugin.version")
						+ ":generate",
				"-DarchetypeGroupId=io.kubeboot", "-DarchetypeArtifactId=operator-spring-boot-archetype",
				"-DarchetypeVersion=" + MavenRun.property("archetype.version"), "-DgroupId=com.example.garden",
				"-DartifactId=garden-operator", "-Dkind=Garden", "-Dgroup=garden.example.com",
				"-DinteractiveMode=false");
		project = work.resolve("garden-operator");
	}

	@Test
	@Order(1)
	void createApiAddsAKindAndRegeneratesDeploy() throws Exception {
		String output = maven.run(project, work.resolve("create-api.log"), Duration.ofMinutes(10),
				"operator:create-api", "-Dkind=Gardener");
		assertThat(output)
			.contains("Gardener: garden.example.com/v1alpha1 (the group of Garden), plural gardeners, "
					+ "Namespaced, in com.example.garden.v1alpha1")
			.contains("Created src/main/java/com/example/garden/v1alpha1/Gardener.java")
			.contains("Created src/main/java/com/example/garden/GardenerReconciler.java")
			.contains("Created src/test/java/com/example/garden/GardenerReconcilerTests.java")
			.contains("Created examples/gardener.yaml")
			.contains("Regenerating deploy/: " + REGENERATE)
			.contains("deploy/ regenerated: added ")
			.contains("Next: give GardenerSpec its fields")
			// the plugin is first in build/plugins: its prefix resolves without the
			// others
			.doesNotContain("Failed to retrieve plugin descriptor");
		assertThat(project.resolve("deploy/crd.yaml")).content()
			.contains("name: gardens.garden.example.com")
			.contains("name: gardeners.garden.example.com");
		assertThat(project.resolve("deploy/rbac.yaml")).content()
			.contains("resources: [gardeners]")
			.contains("resources: [gardeners/status]");
	}

	@Test
	@Order(2)
	void refusalsLeaveTheSourcesAsTheyWere() throws Exception {
		Map<String, String> before = hashes(project.resolve("src"));
		assertThat(refusal("refused-again.log", "operator:create-api", "-Dkind=Gardener"))
			.contains("Gardener exists: src/main/java/com/example/garden/v1alpha1/Gardener.java "
					+ "(garden.example.com/v1alpha1)");
		assertThat(refusal("refused-kind.log", "operator:create-api", "-Dkind=gardener"))
			.contains("-Dkind=gardener is no kind");
		assertThat(refusal("refused-webhook.log", "operator:create-webhook", "-Dkind=Nope", "-Dvalidating"))
			.contains("No kind Nope in src/main/java: the project's kinds are");
		assertThat(hashes(project.resolve("src"))).isEqualTo(before);
	}

	@Test
	@Order(3)
	void createWebhookWithoutRegenerationSaysWhatToRun() throws Exception {
		Map<String, String> deploy = hashes(project.resolve("deploy"));
		String output = maven.run(project, work.resolve("create-webhook.log"), Duration.ofMinutes(5),
				"operator:create-webhook", "-Dkind=Garden", "-Dvalidating", "-Ddefaulting", "-Dregenerate=false");
		assertThat(output).contains("Created src/main/java/com/example/garden/GardenValidator.java")
			.contains("Created src/main/java/com/example/garden/GardenDefaulter.java")
			.contains("deploy/ not regenerated (-Dregenerate=false): run " + REGENERATE);
		assertThat(hashes(project.resolve("deploy"))).isEqualTo(deploy);
		maven.run(project, work.resolve("regenerate.log"), Duration.ofMinutes(10), "test",
				"-Dtest=GeneratedDeployTests", "-Ddeploy.update=true");
		assertThat(project.resolve("deploy/webhook.yaml")).content()
			.contains("path: /validate-garden-example-com-v1alpha1-garden")
			.contains("path: /mutate-garden-example-com-v1alpha1-garden");
	}

	@Test
	@Order(4)
	void createVersionAddsAConvertedVersionAndLeavesTheGeneratedPomAsItIs() throws Exception {
		byte[] pom = Files.readAllBytes(project.resolve("pom.xml"));
		String output = maven.run(project, work.resolve("create-version.log"), Duration.ofMinutes(10),
				"operator:create-version", "-Dkind=Garden", "-DapiVersion=v1");
		assertThat(output)
			.contains("Garden: v1 served beside v1alpha1; v1alpha1 stays the storage version and the hub, v1 "
					+ "converts to and from it, in com.example.garden.v1")
			.contains("Copied from v1alpha1: GardenSpec, GardenStatus")
			.contains("Created src/main/java/com/example/garden/v1/Garden.java")
			.contains("Created src/main/java/com/example/garden/GardenConversion.java")
			.contains("Created src/test/java/com/example/garden/GardenConversionTests.java")
			.contains("pom.xml compiles the model with -Akubeboot.webhook.service=garden-operator-webhook "
					+ "-Akubeboot.webhook.namespace=garden-operator "
					+ "-Akubeboot.webhook.certificate=garden-operator/garden-operator-webhook")
			.contains("Regenerating deploy/: " + REGENERATE)
			.contains("deploy/ regenerated: changed ")
			.contains("Next: change v1's GardenSpec");
		// the archetype gave the compiler the options already
		assertThat(output).doesNotContain("Changed pom.xml");
		assertThat(Files.readAllBytes(project.resolve("pom.xml"))).isEqualTo(pom);
		assertThat(project.resolve("deploy/crd.yaml")).content()
			.contains("cert-manager.io/inject-ca-from: garden-operator/garden-operator-webhook")
			.contains("strategy: Webhook")
			.contains("name: garden-operator-webhook")
			.contains("path: /convert")
			.contains("name: v1alpha1")
			.contains("name: v1\n")
			// v1 is served, not stored; Gardener and Garden's v1alpha1 are stored
			.containsOnlyOnce("storage: false");
		// the admission webhooks of create-webhook, regenerated with the conversion
		assertThat(project.resolve("deploy/webhook.yaml")).content()
			.contains("path: /validate-garden-example-com-v1alpha1-garden")
			.contains("path: /mutate-garden-example-com-v1alpha1-garden");
	}

	@Test
	@Order(5)
	void verifyPassesWithEveryScaffoldedTest() throws Exception {
		String output = maven.run(project, work.resolve("verify.log"), Duration.ofMinutes(25), "verify");
		assertThat(output).contains("BUILD SUCCESS");
		Path reports = project.resolve("target/surefire-reports");
		for (String test : List.of("GardenReconcilerTests", "GardenerReconcilerTests", "GardenValidatorTests",
				"GardenDefaulterTests", "GardenConversionTests", "GeneratedDeployTests")) {
			assertThat(reports.resolve("TEST-com.example.garden." + test + ".xml")).as(test)
				.content()
				.contains("failures=\"0\"")
				.contains("errors=\"0\"")
				.doesNotContain("tests=\"0\"");
		}
	}

	private static String refusal(String log, String... arguments) {
		Throwable failure = catchThrowable(
				() -> maven.run(project, work.resolve(log), Duration.ofMinutes(5), arguments));
		assertThat(failure).isInstanceOf(AssertionError.class).hasMessageContaining("BUILD FAILURE");
		return failure.getMessage();
	}

	// each file's SHA-256 by its path: proves a refused goal wrote nothing
	private static Map<String, String> hashes(Path directory) throws Exception {
		Map<String, String> hashes = new TreeMap<>();
		try (Stream<Path> files = Files.walk(directory)) {
			for (Path file : files.filter(Files::isRegularFile).toList()) {
				hashes.put(directory.relativize(file).toString(), HexFormat.of()
					.formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file))));
			}
		}
		return hashes;
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
