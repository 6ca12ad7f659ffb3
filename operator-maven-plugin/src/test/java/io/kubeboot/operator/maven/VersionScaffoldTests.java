package io.kubeboot.operator.maven;

import java.nio.file.Files;
import java.nio.file.Path;

import io.kubeboot.operator.maven.ScaffoldPlan.Change;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class VersionScaffoldTests {

	@TempDir
	Path project;

	@Test
	void plansTheSpokeCopiesTheConversionItsTestAndThePomOptions() {
		Scaffold scaffold = plan(new VersionScaffold.Options("Website", "v1", true));
		assertThat(scaffold.summary()).containsExactly(
				"Website: v1 served beside v1alpha1; v1alpha1 stays the storage version and the hub, v1 converts to "
						+ "and from it, in com.example.shop.v1",
				"Copied from v1alpha1: WebsiteSpec, WebsiteStatus",
				"pom.xml compiles the model with -Akubeboot.webhook.service=shop-operator-webhook "
						+ "-Akubeboot.webhook.namespace=shop-operator "
						+ "-Akubeboot.webhook.certificate=shop-operator/shop-operator-webhook");
		assertThat(scaffold.plan().changes()).extracting(Change::path)
			.containsExactly(Path.of("src/main/java/com/example/shop/v1/Website.java"),
					Path.of("src/main/java/com/example/shop/v1/WebsiteSpec.java"),
					Path.of("src/main/java/com/example/shop/v1/WebsiteStatus.java"),
					Path.of("src/main/java/com/example/shop/WebsiteConversion.java"),
					Path.of("src/test/java/com/example/shop/WebsiteConversionTests.java"), Path.of("pom.xml"));
		assertThat(content(scaffold, "src/main/java/com/example/shop/v1/Website.java"))
			.contains("package com.example.shop.v1;")
			.contains("import io.kubeboot.operator.model.CustomResource;\n")
			.contains("import io.kubeboot.operator.model.PrinterColumn;\n")
			.contains("plural = Website.PLURAL,\n\t\tstorage = false)\n")
			.contains("public static final String VERSION = \"v1\";")
			// the columns as written, with the comment between them
			.contains("@PrinterColumn(name = \"Age\", type = PrinterColumn.Type.DATE, "
					+ "jsonPath = \".metadata.creationTimestamp\")\n// only with kubectl get -o wide\n"
					+ "@PrinterColumn(name = \"Reason\"")
			.contains("public class Website extends CustomResource<WebsiteSpec, WebsiteStatus>\n"
					+ "\t\timplements Convertible<com.example.shop.v1alpha1.Website> {")
			.contains("hub.setSpec(copy(getSpec(), com.example.shop.v1alpha1.WebsiteSpec.class, \"spec\", TO_HUB));")
			.contains("setStatus(copy(hub.getStatus(), WebsiteStatus.class, \"status\", FROM_HUB));")
			.contains("\"v1 has no place in v1alpha1: convert it in convertTo\"");
		assertThat(content(scaffold, "src/main/java/com/example/shop/v1/WebsiteSpec.java"))
			.startsWith("package com.example.shop.v1;\n")
			.contains("public class WebsiteSpec {");
		assertThat(content(scaffold, "src/main/java/com/example/shop/WebsiteConversion.java"))
			.contains("import com.example.shop.v1alpha1.Website;")
			.contains("Conversion<Website> websiteVersions() {")
			.contains("return Conversion.hub(Website.class).spokes(com.example.shop.v1.Website.class);");
		assertThat(content(scaffold, "src/test/java/com/example/shop/WebsiteConversionTests.java"))
			.contains("class WebsiteConversionTests {")
			.contains("Files.readString(Path.of(\"examples/example.yaml\"))")
			.contains("isEqualTo(\"shop.example.com/v1\")")
			.contains("hub.getMetadata().setNamespace(namespace.name());");
		assertThat(content(scaffold, "pom.xml"))
			.contains("\t\t\t\t\t<annotationProcessorPathsUseDepMgmt>true</annotationProcessorPathsUseDepMgmt>\n"
					+ "\t\t\t\t\t<!-- the conversion webhook of a CRD with several versions: the Service and the "
					+ "cert-manager Certificate of deploy/ -->\n" + "\t\t\t\t\t<compilerArgs>\n"
					+ "\t\t\t\t\t\t<arg>-Akubeboot.webhook.service=shop-operator-webhook</arg>\n"
					+ "\t\t\t\t\t\t<arg>-Akubeboot.webhook.namespace=shop-operator</arg>\n"
					+ "\t\t\t\t\t\t<arg>-Akubeboot.webhook.certificate=shop-operator/shop-operator-webhook</arg>\n"
					+ "\t\t\t\t\t</compilerArgs>\n\t\t\t\t</configuration>\n");
		assertThat(scaffold.next()).isEqualTo("Next: change v1's WebsiteSpec as the new version needs, and "
				+ "Website.convertTo/convertFrom with it (WebsiteConversionTests fails while a field is lost), then "
				+ "mvn verify; commit deploy/ with the code.");
	}

	@Test
	void copiesTheSamePackageTypesTheSpecUsesAndRewritesTheirQualifiedNames() {
		Projects.copy(Projects.SHOP, this.project);
		Projects.write(this.project, "src/main/java/com/example/shop/v1alpha1/Tier.java",
				"package com.example.shop.v1alpha1;\n\npublic enum Tier {\n\n\tGOLD, SILVER\n\n}\n");
		Projects.write(this.project, "src/main/java/com/example/shop/v1alpha1/WebsiteSpec.java", """
				package com.example.shop.v1alpha1;

				public class WebsiteSpec {

					private Tier tier;

					private com.example.shop.v1alpha1.Tier fallback;

				}
				""");
		Scaffold scaffold = plan(new VersionScaffold.Options("Website", "shop.example.com/v1beta1", true));
		assertThat(scaffold.summary()).contains("Copied from v1alpha1: Tier, WebsiteSpec, WebsiteStatus");
		assertThat(content(scaffold, "src/main/java/com/example/shop/v1beta1/Tier.java"))
			.startsWith("package com.example.shop.v1beta1;");
		assertThat(content(scaffold, "src/main/java/com/example/shop/v1beta1/WebsiteSpec.java"))
			.contains("private com.example.shop.v1beta1.Tier fallback;");
	}

	@Test
	void aClusterScopedKindKeepsItsScopeAndItsStatusFromTheSamePackage() {
		Scaffold scaffold = plan(new VersionScaffold.Options("Shelf", "v1", true));
		assertThat(content(scaffold, "src/main/java/com/example/shop/v1/Shelf.java"))
			.contains("public static final String PLURAL = \"shelves\";")
			.contains("plural = Shelf.PLURAL,\n\t\tscope = KubernetesKind.Scope.CLUSTER, storage = false)")
			.contains("extends CustomResource<ShelfSpec, WebsiteStatus>\n\t\timplements "
					+ "Convertible<com.example.shop.v1alpha1.Shelf>");
		assertThat(scaffold.plan().changes()).extracting(Change::path)
			.contains(Path.of("src/main/java/com/example/shop/v1/ShelfSpec.java"),
					Path.of("src/main/java/com/example/shop/v1/WebsiteStatus.java"));
		// no example of Shelf to convert
		assertThat(content(scaffold, "src/test/java/com/example/shop/ShelfConversionTests.java"))
			.contains("GSON.fromJson(\"{\\\"spec\\\": {} }\", Shelf.class)")
			.contains("return example(namespace.name() + \"-\" + name);")
			.contains("this.client.delete(read);");
	}

	@Test
	void extendsTheSpokesOfTheHubsConversionKeepingItsFormatting() {
		Projects.copy(Projects.SHOP, this.project);
		String conversions = """
				package com.example.shop;

				import com.example.shop.v1alpha1.Website;
				import io.kubeboot.operator.webhook.Conversion;
				import org.springframework.context.annotation.Bean;

				class ShopConversions {

					@Bean
					Conversion<Website> websiteConversion() {
						return Conversion.hub(Website.class)
							.spokes(com.example.shop.v1beta1.Website.class);
					}

				}
				""";
		Projects.write(this.project, "src/main/java/com/example/shop/ShopConversions.java", conversions);
		Projects.write(this.project, "src/test/java/com/example/shop/WebsiteConversionTests.java", "class X {}\n");
		Scaffold scaffold = plan(new VersionScaffold.Options("Website", "v1", true));
		Change edit = change(scaffold, "src/main/java/com/example/shop/ShopConversions.java");
		assertThat(edit.isCreation()).isFalse();
		assertThat(edit.after()).isEqualTo(conversions.replace("v1beta1.Website.class);",
				"v1beta1.Website.class, com.example.shop.v1.Website.class);"));
		assertThat(scaffold.plan().describe(false)).contains(
				"Would change src/main/java/com/example/shop/ShopConversions.java",
				"-\t\t\t.spokes(com.example.shop.v1beta1.Website.class);",
				"+\t\t\t.spokes(com.example.shop.v1beta1.Website.class, com.example.shop.v1.Website.class);");
		// the first version's test is there: this one's is named after the version
		assertThat(scaffold.plan().changes()).extracting(Change::path)
			.contains(Path.of("src/test/java/com/example/shop/WebsiteV1ConversionTests.java"))
			.doesNotContain(Path.of("src/main/java/com/example/shop/WebsiteConversion.java"));
	}

	@Test
	void refusesAConversionBeanItCannotExtend() {
		Projects.copy(Projects.SHOP, this.project);
		Projects.write(this.project, "src/main/java/com/example/shop/ShopConversions.java", """
				package com.example.shop;

				import com.example.shop.v1alpha1.Website;
				import io.kubeboot.operator.webhook.Conversion;

				class ShopConversions {

					Conversion<Website> websiteConversion() {
						Conversion.Builder<Website> builder = Conversion.hub(Website.class);
						return builder.spokes(com.example.shop.v1beta1.Website.class);
					}

				}
				""");
		assertThatExceptionOfType(ScaffoldException.class)
			.isThrownBy(() -> plan(new VersionScaffold.Options("Website", "v1", true)))
			.withMessage("Website converts in src/main/java/com/example/shop/ShopConversions.java:9, which this goal "
					+ "cannot extend: add com.example.shop.v1.Website.class to its spokes(...) and run again with "
					+ "-Dconversion=false");
		// which then leaves the conversion to the user
		Scaffold scaffold = plan(new VersionScaffold.Options("Website", "v1", false));
		assertThat(scaffold.plan().changes()).extracting(Change::path)
			.doesNotContain(Path.of("src/main/java/com/example/shop/ShopConversions.java"),
					Path.of("src/main/java/com/example/shop/WebsiteConversion.java"))
			.contains(Path.of("src/test/java/com/example/shop/WebsiteConversionTests.java"));
	}

	@Test
	void refusesAVersionThatExists() {
		assertThatExceptionOfType(ScaffoldException.class)
			.isThrownBy(() -> plan(new VersionScaffold.Options("Website", "v1alpha1", true)))
			.withMessage("Website has v1alpha1 already: src/main/java/com/example/shop/v1alpha1/Website.java");
	}

	@Test
	void refusesWithoutAVersionOrWithABadOne() {
		assertThatExceptionOfType(ScaffoldException.class)
			.isThrownBy(() -> plan(new VersionScaffold.Options("Website", null, true)))
			.withMessage("Pass -DapiVersion: the new version of Website, such as v1");
		assertThatExceptionOfType(ScaffoldException.class)
			.isThrownBy(() -> plan(new VersionScaffold.Options("Website", "v1.0", true)))
			.withMessage("-DapiVersion=v1.0 is no Kubernetes version: v<n>, v<n>alpha<m> or v<n>beta<m>, such as "
					+ "v1alpha1");
	}

	@Test
	void refusesAnUnknownKindOrGroup() {
		assertThatExceptionOfType(ScaffoldException.class)
			.isThrownBy(() -> plan(new VersionScaffold.Options("Webshop", "v1", true)))
			.withMessage("No kind Webshop in src/main/java: the project's kinds are Shelf (shop.example.com/v1alpha1), "
					+ "Website (shop.example.com/v1alpha1)");
		assertThatExceptionOfType(ScaffoldException.class)
			.isThrownBy(() -> plan(new VersionScaffold.Options("Website", "billing.example.com/v1", true)))
			.withMessage("No kind Website in billing.example.com: add it with mvn operator:create-api "
					+ "-Dkind=Website -DapiVersion=billing.example.com/v1");
	}

	@Test
	void refusesAHubThatIsNoCustomResourceOrAKindWithoutOneStorageVersion() {
		Projects.copy(Projects.SHOP, this.project);
		Path website = this.project.resolve("src/main/java/com/example/shop/v1alpha1/Website.java");
		String hub = read(website);
		Projects.write(this.project, "src/main/java/com/example/shop/v1alpha1/Website.java",
				hub.replace("extends CustomResource<WebsiteSpec, WebsiteStatus>", "extends WebsiteBase"));
		assertThatExceptionOfType(ScaffoldException.class)
			.isThrownBy(() -> plan(new VersionScaffold.Options("Website", "v1", true)))
			.withMessage("src/main/java/com/example/shop/v1alpha1/Website.java:28: Website does not extend "
					+ "CustomResource<Spec, Status>, whose spec and status this goal copies: write the new version's "
					+ "class by hand, implementing Convertible<com.example.shop.v1alpha1.Website>");
		Projects.write(this.project, "src/main/java/com/example/shop/v1alpha1/Website.java",
				hub.replace("plural = Website.PLURAL)", "plural = Website.PLURAL, storage = false)"));
		assertThatExceptionOfType(ScaffoldException.class)
			.isThrownBy(() -> plan(new VersionScaffold.Options("Website", "v1", true)))
			.withMessage("Website has 0 storage versions (src/main/java/com/example/shop/v1alpha1/Website.java): "
					+ "the new version converts to the storage version, so exactly one says storage = true");
	}

	@Test
	void refusesWhenThePomDisagreesWithTheSettings() {
		Projects.copy(Projects.SHOP, this.project);
		Path pom = this.project.resolve("pom.xml");
		Projects.write(this.project, "pom.xml",
				read(pom).replace("<annotationProcessorPathsUseDepMgmt>true</annotationProcessorPathsUseDepMgmt>",
						"<annotationProcessorPathsUseDepMgmt>true</annotationProcessorPathsUseDepMgmt>\n"
								+ "<compilerArgs><arg>-Akubeboot.webhook.namespace=shop</arg></compilerArgs>"));
		assertThatExceptionOfType(ScaffoldException.class)
			.isThrownBy(() -> plan(new VersionScaffold.Options("Website", "v1", true)))
			.withMessage("pom.xml compiles the model with -Akubeboot.webhook.namespace=shop, but "
					+ "src/main/deploy/settings.yaml installs into shop-operator: make them agree");
	}

	private Scaffold plan(VersionScaffold.Options options) {
		if (!Files.exists(this.project.resolve("pom.xml"))) {
			Projects.copy(Projects.SHOP, this.project);
		}
		return new VersionScaffold(options).plan(ProjectSources.read(this.project));
	}

	private static String read(Path file) {
		try {
			return Files.readString(file);
		}
		catch (java.io.IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

	private static Change change(Scaffold scaffold, String path) {
		return scaffold.plan()
			.changes()
			.stream()
			.filter((change) -> change.path().equals(Path.of(path)))
			.findFirst()
			.orElseThrow();
	}

	private static String content(Scaffold scaffold, String path) {
		return change(scaffold, path).after();
	}

}
