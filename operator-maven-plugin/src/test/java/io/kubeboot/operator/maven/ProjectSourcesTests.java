package io.kubeboot.operator.maven;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.kubeboot.operator.maven.ProjectSources.KindSource;
import io.kubeboot.operator.maven.ProjectSources.Use;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.tuple;

class ProjectSourcesTests {

	static final Path SHOP = Projects.SHOP;

	@TempDir
	Path project;

	@Test
	void readsTheApplicationClassAndItsPackage() {
		ProjectSources sources = ProjectSources.read(SHOP);
		assertThat(sources.application().name()).isEqualTo("com.example.shop.OperatorApplication");
		assertThat(sources.application().packageName()).isEqualTo("com.example.shop");
	}

	@Test
	void readsKindsWhoseAttributesAreConstantsOfTheSameClass() {
		KindSource website = kind(ProjectSources.read(SHOP), "Website");
		assertThat(website.className()).isEqualTo("com.example.shop.v1alpha1.Website");
		assertThat(website.file()).isEqualTo(Path.of("src/main/java/com/example/shop/v1alpha1/Website.java"));
		assertThat(website.packageName()).isEqualTo("com.example.shop.v1alpha1");
		assertThat(website.apiVersion()).isEqualTo("shop.example.com/v1alpha1");
		assertThat(website.plural()).isEqualTo("websites");
		assertThat(website.cluster()).isFalse();
		assertThat(website.storage()).isTrue();
		assertThat(website.problem()).isNull();
	}

	@Test
	void readsConstantsOfAnotherClassImportedStaticallyImportedAndConcatenated() {
		KindSource shelf = kind(ProjectSources.read(SHOP), "Shelf");
		// ShopApi.GROUP is "shop." + DOMAIN, VERSION a static import, plural "shel" +
		// "ves"
		assertThat(shelf.apiVersion()).isEqualTo("shop.example.com/v1alpha1");
		assertThat(shelf.plural()).isEqualTo("shelves");
		assertThat(shelf.cluster()).isTrue();
		assertThat(shelf.problem()).isNull();
	}

	@Test
	void findsReconcilersValidatorsAndDefaultersByTheKindTheyAreFor() {
		ProjectSources sources = ProjectSources.read(SHOP);
		assertThat(sources.reconcilers()).extracting(Use::type, Use::position)
			.containsExactly(tuple("com.example.shop.v1alpha1.Website",
					"src/main/java/com/example/shop/WebsiteReconciler.java:33"));
		assertThat(sources.validators()).extracting(Use::type, Use::position)
			.containsExactly(tuple("com.example.shop.v1alpha1.Website",
					"src/main/java/com/example/shop/WebsiteValidator.java:13"));
		assertThat(sources.defaulters()).extracting(Use::type, Use::position)
			.containsExactly(
					tuple("com.example.shop.v1alpha1.Website", "src/main/java/com/example/shop/ShopWebhooks.java:15"));
		assertThat(sources.conversions()).isEmpty();
	}

	@Test
	void findsConversionsByTheirHub() throws IOException {
		write("src/main/java/com/example/App.java", """
				package com.example;

				import com.example.v1.Thing;
				import io.kubeboot.operator.webhook.Conversion;

				@org.springframework.boot.autoconfigure.SpringBootApplication
				class App {

					@Bean
					Conversion<Thing> thingConversion() {
						return Conversion.hub(Thing.class).spokes(com.example.v2.Thing.class).build();
					}

				}
				""");
		write("src/main/java/com/example/v1/Thing.java", kind("com.example.v1", "Thing", "\"things.example.com\"", ""));
		ProjectSources sources = ProjectSources.read(this.project);
		assertThat(sources.conversions()).extracting(Use::type, Use::position)
			.containsExactly(tuple("com.example.v1.Thing", "src/main/java/com/example/App.java:11"));
		assertThat(sources.application().name()).isEqualTo("com.example.App");
	}

	@Test
	void reportsAnAttributeThatIsNoConstantWithItsPosition() throws IOException {
		write("src/main/java/com/example/Invoice.java", kind("com.example", "Invoice", "Groups.billing()",
				"\nclass Groups { static String billing() { return \"b.c\"; } }\n"));
		KindSource invoice = kind(ProjectSources.read(this.project), "Invoice");
		assertThat(invoice.problem()).isEqualTo(
				"Cannot read the group of src/main/java/com/example/Invoice.java:5 (group = Groups.billing()): not a constant");
	}

	@Test
	void reportsAConstantOfAClassOutsideTheSources() throws IOException {
		write("src/main/java/com/example/Invoice.java",
				kind("com.example", "Invoice", "org.example.Elsewhere.GROUP", ""));
		assertThat(kind(ProjectSources.read(this.project), "Invoice").problem())
			.startsWith("Cannot read the group of src/main/java/com/example/Invoice.java:5");
	}

	@Test
	void readsKindsOfSeveralGroups() throws IOException {
		write("src/main/java/com/example/Invoice.java", kind("com.example", "Invoice", "\"billing.example.com\"", ""));
		write("src/main/java/com/example/Website.java", kind("com.example", "Website", "\"shop.example.com\"", ""));
		assertThat(ProjectSources.read(this.project).kinds()).extracting(KindSource::kind, KindSource::group)
			.containsExactly(tuple("Invoice", "billing.example.com"), tuple("Website", "shop.example.com"));
	}

	@Test
	void ignoresTestSources() throws IOException {
		write("src/test/java/com/example/Fake.java", kind("com.example", "Fake", "\"test.example.com\"", ""));
		assertThat(ProjectSources.read(this.project).kinds()).isEmpty();
	}

	@Test
	void refusesAProjectWithoutApplicationClass() throws IOException {
		write("src/main/java/com/example/Invoice.java", kind("com.example", "Invoice", "\"billing.example.com\"", ""));
		assertThatExceptionOfType(ScaffoldException.class)
			.isThrownBy(() -> ProjectSources.read(this.project).application())
			.withMessage("No @SpringBootApplication class in src/main/java: run this goal in an operator project "
					+ "(operator-spring-boot-archetype)");
	}

	@Test
	void refusesSourcesThatDoNotParse() throws IOException {
		write("src/main/java/com/example/Broken.java", "package com.example;\n\nclass Broken {\n\tvoid x( {}\n}\n");
		assertThatExceptionOfType(ScaffoldException.class).isThrownBy(() -> ProjectSources.read(this.project))
			.withMessageStartingWith("src/main/java/com/example/Broken.java:4: ")
			.withMessageEndingWith("The goals read the sources as javac does: fix them first");
	}

	private static KindSource kind(ProjectSources sources, String kind) {
		return sources.kinds().stream().filter((source) -> source.kind().equals(kind)).findFirst().orElseThrow();
	}

	private static String kind(String packageName, String kind, String group, String more) {
		return "package " + packageName + ";\n\nimport io.kubeboot.operator.model.KubernetesKind;\n\n"
				+ "@KubernetesKind(group = " + group + ", version = \"v1\", kind = \"" + kind + "\")\n"
				+ "public class " + kind + " {\n}\n" + more;
	}

	private void write(String path, String content) throws IOException {
		Path file = this.project.resolve(path);
		Files.createDirectories(file.getParent());
		Files.writeString(file, content);
	}

}
