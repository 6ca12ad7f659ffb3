package io.kubeboot.operator.maven;

import java.nio.file.Files;
import java.nio.file.Path;

import io.kubeboot.operator.maven.ScaffoldPlan.Change;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class WebhookScaffoldTests {

	@TempDir
	Path project;

	@Test
	void plansAValidatorAndADefaulterWithTheirTests() {
		Scaffold scaffold = plan(new WebhookScaffold.Options("Shelf", null, true, true));
		assertThat(scaffold.summary()).containsExactly(
				"Shelf (shop.example.com/v1alpha1): a validating and a " + "defaulting webhook",
				"In a cluster the webhooks need cert-manager (deploy/README.md); tests and spring-boot:test-run serve "
						+ "them with a self-signed certificate.");
		assertThat(scaffold.plan().changes()).extracting(Change::path)
			.containsExactly(Path.of("src/main/java/com/example/shop/ShelfValidator.java"),
					Path.of("src/test/java/com/example/shop/ShelfValidatorTests.java"),
					Path.of("src/main/java/com/example/shop/ShelfDefaulter.java"),
					Path.of("src/test/java/com/example/shop/ShelfDefaulterTests.java"));
		assertThat(content(scaffold, "ShelfValidator.java")).contains("import com.example.shop.v1alpha1.Shelf;")
			.contains("class ShelfValidator implements AdmissionValidator<Shelf> {")
			.contains("static final String OWNER = \"shop.example.com/owner\";");
		// Shelf is cluster-scoped: the tests name their objects after the namespace
		assertThat(content(scaffold, "ShelfValidatorTests.java"))
			.contains(".validating(AdmissionWebhook.validatingPath(Shelf.class), \"shop.example.com\", \"v1alpha1\", "
					+ "\"shelves\")")
			.contains("namespace.name() + \"-\" + name");
		assertThat(scaffold.next()).isEqualTo("Next: replace the owner label rule of ShelfValidator and ShelfDefaulter "
				+ "with Shelf's own, then mvn verify; commit deploy/ with the code.");
	}

	@Test
	void plansOneWebhookAlone() {
		Scaffold scaffold = plan(new WebhookScaffold.Options("Shelf", "v1alpha1", false, true));
		assertThat(scaffold.plan().changes()).extracting((change) -> change.path().getFileName().toString())
			.containsExactly("ShelfDefaulter.java", "ShelfDefaulterTests.java");
		assertThat(content(scaffold, "ShelfDefaulterTests.java"))
			.contains(".mutating(AdmissionWebhook.mutatingPath(Shelf.class)");
	}

	@Test
	void refusesWithoutAFlag() {
		assertThatExceptionOfType(ScaffoldException.class)
			.isThrownBy(() -> plan(new WebhookScaffold.Options("Shelf", null, false, false)))
			.withMessage("Say which webhook: -Dvalidating, -Ddefaulting or both");
	}

	@Test
	void refusesAKindThatHasTheWebhookAlready() {
		assertThatExceptionOfType(ScaffoldException.class)
			.isThrownBy(() -> plan(new WebhookScaffold.Options("Website", null, true, false)))
			.withMessage("Website has a validator already: src/main/java/com/example/shop/WebsiteValidator.java:13. "
					+ "A kind has one (the starter refuses a second at start-up): add the checks there");
		assertThatExceptionOfType(ScaffoldException.class)
			.isThrownBy(() -> plan(new WebhookScaffold.Options("Website", null, false, true)))
			.withMessageStartingWith(
					"Website has a defaulter already: src/main/java/com/example/shop/ShopWebhooks.java:15.");
	}

	@Test
	void refusesAWebhookForASecondVersionOfAKindThatHasOne() {
		Projects.copy(Projects.SHOP, this.project);
		new VersionScaffold(new VersionScaffold.Options("Website", "v1", true)).plan(ProjectSources.read(this.project))
			.plan()
			.apply();
		assertThatExceptionOfType(ScaffoldException.class)
			.isThrownBy(() -> plan(new WebhookScaffold.Options("Website", "v1", true, false)))
			.withMessage("Website has a validator already, for shop.example.com/v1alpha1: "
					+ "src/main/java/com/example/shop/WebsiteValidator.java:13. A kind has one, of one version, which "
					+ "gets the requests for every version (the API server converts them, matchPolicy Equivalent): add "
					+ "the checks there");
	}

	@Test
	void refusesAnUnknownKindNamingTheProjectsKinds() {
		assertThatExceptionOfType(ScaffoldException.class)
			.isThrownBy(() -> plan(new WebhookScaffold.Options("Webshop", null, true, false)))
			.withMessage("No kind Webshop in src/main/java: the project's kinds are Shelf (shop.example.com/v1alpha1), "
					+ "Website (shop.example.com/v1alpha1)");
	}

	@Test
	void refusesAVersionTheKindDoesNotHave() {
		assertThatExceptionOfType(ScaffoldException.class)
			.isThrownBy(() -> plan(new WebhookScaffold.Options("Shelf", "v1", true, false)))
			.withMessage("Shelf has no version shop.example.com/v1: it has shop.example.com/v1alpha1");
	}

	private Scaffold plan(WebhookScaffold.Options options) {
		if (!Files.exists(this.project.resolve("pom.xml"))) {
			Projects.copy(Projects.SHOP, this.project);
		}
		return new WebhookScaffold(options).plan(ProjectSources.read(this.project));
	}

	private static String content(Scaffold scaffold, String fileName) {
		return scaffold.plan()
			.changes()
			.stream()
			.filter((change) -> change.path().getFileName().toString().equals(fileName))
			.findFirst()
			.orElseThrow()
			.after();
	}

}
