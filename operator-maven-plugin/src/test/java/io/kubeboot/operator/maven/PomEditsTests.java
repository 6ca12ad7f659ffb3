package io.kubeboot.operator.maven;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class PomEditsTests {

	private static final String ARGS = "<arg>-Akubeboot.webhook.service=shop-operator-webhook</arg>"
			+ "<arg>-Akubeboot.webhook.namespace=shop-operator</arg>"
			+ "<arg>-Akubeboot.webhook.certificate=shop-operator/shop-operator-webhook</arg>";

	@TempDir
	Path project;

	@Test
	void insertsTheOptionsAfterTheAnchorWithItsIndentation() throws IOException {
		Projects.copy(Projects.SHOP, this.project);
		PomEdits.Edit edit = PomEdits.plan(this.project);
		assertThat(edit.changed()).isTrue();
		assertThat(edit.before()).isEqualTo(Files.readString(this.project.resolve("pom.xml")));
		// one insertion, nothing else changed
		assertThat(Diff.lines("pom.xml", edit.before(), edit.after())).filteredOn((line) -> line.startsWith("-"))
			.containsExactly("--- pom.xml");
		assertThat(edit.after()).contains("\t\t\t\t\t<compilerArgs>\n"
				+ "\t\t\t\t\t\t<arg>-Akubeboot.webhook.service=shop-operator-webhook</arg>\n");
	}

	@Test
	void indentsWithThePomsSpaces() {
		Projects.copy(Projects.SHOP, this.project);
		Projects.write(this.project, "pom.xml", """
				<project>
				  <modelVersion>4.0.0</modelVersion>
				  <build>
				    <plugins>
				      <plugin>
				        <artifactId>maven-compiler-plugin</artifactId>
				        <configuration>
				          <annotationProcessorPathsUseDepMgmt>true</annotationProcessorPathsUseDepMgmt>
				        </configuration>
				      </plugin>
				    </plugins>
				  </build>
				</project>
				""");
		assertThat(PomEdits.plan(this.project).after()).contains(
				"""
						          <annotationProcessorPathsUseDepMgmt>true</annotationProcessorPathsUseDepMgmt>
						          <!-- the conversion webhook of a CRD with several versions: the Service and the cert-manager Certificate of deploy/ -->
						          <compilerArgs>
						            <arg>-Akubeboot.webhook.service=shop-operator-webhook</arg>
						            <arg>-Akubeboot.webhook.namespace=shop-operator</arg>
						            <arg>-Akubeboot.webhook.certificate=shop-operator/shop-operator-webhook</arg>
						          </compilerArgs>
						        </configuration>
						""");
	}

	@Test
	void changesNothingWhenTheOptionsAreThereAndAgree() throws IOException {
		Projects.copy(Projects.SHOP, this.project);
		pomWith("<compilerArgs>" + ARGS + "</compilerArgs>");
		PomEdits.Edit edit = PomEdits.plan(this.project);
		assertThat(edit.changed()).isFalse();
		assertThat(edit.summary()).isEqualTo("pom.xml compiles the model with "
				+ "-Akubeboot.webhook.service=shop-operator-webhook -Akubeboot.webhook.namespace=shop-operator "
				+ "-Akubeboot.webhook.certificate=shop-operator/shop-operator-webhook");
	}

	@Test
	void addsTheOptionsToCompilerArgumentsThatExist() throws IOException {
		Projects.copy(Projects.SHOP, this.project);
		pomWith("<compilerArgs>\n\t\t\t\t\t\t<arg>-Xlint:all</arg>\n\t\t\t\t\t</compilerArgs>");
		String after = PomEdits.plan(this.project).after();
		assertThat(after)
			.contains("\t\t\t\t\t<compilerArgs>\n"
					+ "\t\t\t\t\t\t<arg>-Akubeboot.webhook.service=shop-operator-webhook</arg>\n")
			.contains("<arg>-Akubeboot.webhook.certificate=shop-operator/shop-operator-webhook</arg>\n"
					+ "\t\t\t\t\t\t<arg>-Xlint:all</arg>");
	}

	@Test
	void refusesOptionsThatDisagreeWithTheSettings() throws IOException {
		Projects.copy(Projects.SHOP, this.project);
		pomWith("<compilerArgs>" + ARGS.replace("=shop-operator-webhook", "=shop-webhook") + "</compilerArgs>");
		assertThatExceptionOfType(ScaffoldException.class).isThrownBy(() -> PomEdits.plan(this.project))
			.withMessage("pom.xml compiles the model with -Akubeboot.webhook.service=shop-webhook, but "
					+ "spring.application.name (src/main/resources/application.yaml) names the Service "
					+ "shop-operator-webhook: make them agree");
	}

	@Test
	void refusesWithTheSnippetWhenTheAnchorIsMissing() throws IOException {
		Projects.copy(Projects.SHOP, this.project);
		Path pom = this.project.resolve("pom.xml");
		Files.writeString(pom, Files.readString(pom)
			.replace("<annotationProcessorPathsUseDepMgmt>true</annotationProcessorPathsUseDepMgmt>", ""));
		String before = Files.readString(pom);
		assertThatExceptionOfType(ScaffoldException.class).isThrownBy(() -> PomEdits.plan(this.project))
			.withMessage("pom.xml: maven-compiler-plugin has no <annotationProcessorPathsUseDepMgmt> to add the "
					+ "options after; add to its <compilerArgs>: "
					+ "<arg>-Akubeboot.webhook.service=shop-operator-webhook</arg> "
					+ "<arg>-Akubeboot.webhook.namespace=shop-operator</arg> "
					+ "<arg>-Akubeboot.webhook.certificate=shop-operator/shop-operator-webhook</arg>");
		assertThat(pom).hasContent(before);
	}

	@Test
	void readsTheNameFromDottedKeysAndTheNamespaceWithAComment() {
		Projects.copy(Projects.SHOP, this.project);
		Projects.write(this.project, "src/main/resources/application.yaml",
				"spring.application.name: 'garden'\noperator:\n  name: other\n");
		assertThat(PomEdits.applicationName(this.project)).isEqualTo("garden");
		assertThat(PomEdits.settingsNamespace("chart:\n  namespace: x\nnamespace: garden-system # here\n"))
			.isEqualTo("garden-system");
	}

	private void pomWith(String compilerArgs) throws IOException {
		Path pom = this.project.resolve("pom.xml");
		String anchor = "<annotationProcessorPathsUseDepMgmt>true</annotationProcessorPathsUseDepMgmt>\n";
		Files.writeString(pom, Files.readString(pom).replace(anchor, anchor + "\t\t\t\t\t" + compilerArgs + "\n"));
	}

}
