package io.kubeboot.operator.maven;

import java.nio.file.Path;
import java.util.Map;

import io.kubeboot.operator.maven.ScaffoldPlan.Change;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ApiScaffoldTests {

	@TempDir
	Path project;

	@Test
	void plansTheModelTheReconcilerItsTestAndAnExample() {
		Scaffold scaffold = plan(options("Database"));
		assertThat(scaffold.summary()).containsExactly(
				"Database: shop.example.com/v1alpha1 (the group of Shelf, Website), plural databases, Namespaced, "
						+ "in com.example.shop.v1alpha1");
		assertThat(scaffold.plan().changes()).extracting(Change::path)
			.containsExactly(Path.of("src/main/java/com/example/shop/v1alpha1/Database.java"),
					Path.of("src/main/java/com/example/shop/v1alpha1/DatabaseSpec.java"),
					Path.of("src/main/java/com/example/shop/v1alpha1/DatabaseStatus.java"),
					Path.of("src/main/java/com/example/shop/DatabaseReconciler.java"),
					Path.of("src/test/java/com/example/shop/DatabaseReconcilerTests.java"),
					Path.of("examples/database.yaml"));
		assertThat(scaffold.plan().changes()).allMatch(Change::isCreation);
		assertThat(content(scaffold, "Database.java")).contains("package com.example.shop.v1alpha1;")
			.contains("public static final String GROUP = \"shop.example.com\";")
			.contains("public static final String VERSION = \"v1alpha1\";")
			.contains("public static final String PLURAL = \"databases\";")
			.contains("plural = Database.PLURAL)\n")
			.doesNotContain("Scope.CLUSTER");
		assertThat(content(scaffold, "DatabaseReconciler.java")).contains("package com.example.shop;")
			.contains("import com.example.shop.v1alpha1.Database;")
			.contains("@Reconciles(Database.class)")
			.contains("as\n\t\t// WebsiteReconciler does;");
		assertThat(content(scaffold, "database.yaml"))
			.contains("apiVersion: shop.example.com/v1alpha1\nkind: Database\n");
		assertThat(scaffold.next()).isEqualTo("Next: give DatabaseSpec its fields and DatabaseReconciler.reconcile "
				+ "its work, then mvn verify; commit deploy/ with the code.");
	}

	@Test
	void plansAClusterScopedKind() {
		Scaffold scaffold = plan(new ApiScaffold.Options("Region", null, null, null, "Cluster", true));
		assertThat(scaffold.summary().get(0)).contains(", Cluster,");
		assertThat(content(scaffold, "Region.java"))
			.contains("plural = Region.PLURAL,\n\t\tscope = KubernetesKind.Scope.CLUSTER)");
		assertThat(content(scaffold, "RegionReconcilerTests.java")).contains("namespace.name() + \"-\" + name")
			.contains("this.client.delete(get(resource));")
			.doesNotContain(".namespace(namespace.name())");
	}

	@Test
	void plansTheModelAloneWithoutReconciler() {
		Scaffold scaffold = plan(new ApiScaffold.Options("Database", null, null, null, null, false));
		assertThat(scaffold.plan().changes()).extracting((change) -> change.path().getFileName().toString())
			.containsExactly("Database.java", "DatabaseSpec.java", "DatabaseStatus.java", "database.yaml");
		assertThat(scaffold.next())
			.isEqualTo("Next: give DatabaseSpec its fields, then mvn verify; commit deploy/ " + "with the code.");
	}

	@Test
	void takesAnExplicitVersionAndPlural() {
		Scaffold scaffold = plan(new ApiScaffold.Options("Octopus", "v1beta1", null, "octopi", null, true));
		assertThat(scaffold.summary().get(0)).startsWith("Octopus: shop.example.com/v1beta1 (the group of Shelf, "
				+ "Website), plural octopi, Namespaced, in com.example.shop.v1beta1");
	}

	@Test
	void putsASecondGroupInAPackageNamedAfterItsFirstLabel() {
		Scaffold scaffold = plan(new ApiScaffold.Options("Invoice", "billing.example.com/v1", null, null, null, true));
		assertThat(scaffold.summary().get(0))
			.isEqualTo("Invoice: billing.example.com/v1, plural invoices, Namespaced, in com.example.shop.billing.v1");
		assertThat(scaffold.plan().changes().get(0).path())
			.isEqualTo(Path.of("src/main/java/com/example/shop/billing/v1/Invoice.java"));
	}

	@Test
	void refusesAnExistingKind() {
		assertThatExceptionOfType(ScaffoldException.class).isThrownBy(() -> plan(options("Website")))
			.withMessage("Website exists: src/main/java/com/example/shop/v1alpha1/Website.java "
					+ "(shop.example.com/v1alpha1). To add a version: mvn operator:create-version -Dkind=Website "
					+ "-DapiVersion=v1");
	}

	@Test
	void refusesAKindOfAnotherGroupOfTheSameName() {
		assertThatExceptionOfType(ScaffoldException.class)
			.isThrownBy(() -> plan(new ApiScaffold.Options("Website", null, "billing.example.com", null, null, true)))
			.withMessageStartingWith("Website exists in shop.example.com: ");
	}

	@Test
	void refusesAPluralThatIsAnotherKindsCrd() {
		assertThatExceptionOfType(ScaffoldException.class)
			.isThrownBy(() -> plan(new ApiScaffold.Options("Site", null, null, "websites", null, true)))
			.withMessage("websites.shop.example.com is the CRD of Website already "
					+ "(src/main/java/com/example/shop/v1alpha1/Website.java): pass another -Dplural");
	}

	@Test
	void refusesGroupsThatDisagree() {
		assertThatExceptionOfType(ScaffoldException.class).isThrownBy(
				() -> plan(new ApiScaffold.Options("Database", "a.example.com/v1", "b.example.com", null, null, true)))
			.withMessage("-DapiVersion=a.example.com/v1 and -Dgroup=b.example.com name different groups: pass one "
					+ "of them");
	}

	@Test
	void refusesABadScope() {
		assertThatExceptionOfType(ScaffoldException.class)
			.isThrownBy(() -> plan(new ApiScaffold.Options("Database", null, null, null, "Global", true)))
			.withMessage("-Dscope=Global is no scope: Namespaced (the default) or Cluster");
	}

	@Test
	void asksForTheGroupWhenTheProjectHasSeveral() {
		Projects.copy(Projects.SHOP, this.project);
		Projects.write(this.project, "src/main/java/com/example/shop/billing/v1/Invoice.java",
				"""
						package com.example.shop.billing.v1;

						@io.kubeboot.operator.model.KubernetesKind(group = "billing.example.com", version = "v1", kind = "Invoice")
						public class Invoice {
						}
						""");
		assertThatExceptionOfType(ScaffoldException.class)
			.isThrownBy(() -> new ApiScaffold(options("Database")).plan(ProjectSources.read(this.project)))
			.withMessage("Pass -Dgroup: the project's kinds are in billing.example.com (Invoice) and "
					+ "shop.example.com (Shelf, Website)");
	}

	@Test
	void asksForTheGroupWhenAKindsGroupIsUnreadable() {
		Projects.copy(Projects.SHOP, this.project);
		Projects.write(this.project, "src/main/java/com/example/shop/v1alpha1/Invoice.java", """
				package com.example.shop.v1alpha1;

				@io.kubeboot.operator.model.KubernetesKind(group = Groups.billing(), version = "v1", kind = "Invoice")
				public class Invoice {
				}
				""");
		assertThatExceptionOfType(ScaffoldException.class)
			.isThrownBy(() -> new ApiScaffold(options("Database")).plan(ProjectSources.read(this.project)))
			.withMessage("Cannot read the group of src/main/java/com/example/shop/v1alpha1/Invoice.java:3 "
					+ "(group = Groups.billing()): not a constant; pass -Dgroup");
	}

	@Test
	void refusesAnExistingFileOnCheckAndWritesNothing() {
		Projects.copy(Projects.SHOP, this.project);
		Projects.write(this.project, "src/main/java/com/example/shop/DatabaseReconciler.java", "// mine\n");
		Map<String, String> before = Projects.tree(this.project);
		Scaffold scaffold = new ApiScaffold(options("Database")).plan(ProjectSources.read(this.project));
		assertThatExceptionOfType(ScaffoldException.class).isThrownBy(() -> scaffold.plan().apply())
			.withMessage("src/main/java/com/example/shop/DatabaseReconciler.java exists and this goal never "
					+ "overwrites: move it, or pass -Dreconciler=false");
		assertThat(Projects.tree(this.project)).isEqualTo(before);
	}

	private Scaffold plan(ApiScaffold.Options options) {
		Projects.copy(Projects.SHOP, this.project);
		return new ApiScaffold(options).plan(ProjectSources.read(this.project));
	}

	private static ApiScaffold.Options options(String kind) {
		return new ApiScaffold.Options(kind, null, null, null, null, true);
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
