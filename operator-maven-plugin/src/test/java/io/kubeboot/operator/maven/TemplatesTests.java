package io.kubeboot.operator.maven;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class TemplatesTests {

	private static final Path TEMPLATES = Path.of("src/main/resources/io/kubeboot/operator/maven/templates");

	private static final Pattern TAG = Pattern.compile("\\{\\{([#^/]?)([A-Za-z][A-Za-z0-9]*)}}");

	private static final Pattern IMPORT = Pattern.compile("(?m)^import (?!static )[\\w.{}]*\\.(\\w+);$");

	@Test
	void replacesVariables() {
		assertThat(Templates.render("t", "class {{kind}}Spec extends {{kind}} {}\n", Map.of("kind", "Database")))
			.isEqualTo("class DatabaseSpec extends Database {}\n");
	}

	@Test
	void keepsASectionWhenItsFlagIsTrueAndAnInvertedOneWhenFalse() {
		String template = "a\n{{#cluster}}\ncluster\n{{/cluster}}\n{{^cluster}}\nnamespaced\n{{/cluster}}\nb\n";
		assertThat(Templates.render("t", template, Map.of("cluster", true))).isEqualTo("a\ncluster\nb\n");
		assertThat(Templates.render("t", template, Map.of("cluster", false))).isEqualTo("a\nnamespaced\nb\n");
	}

	@Test
	void keepsTheRestOfALineWithAnInlineSection() {
		String template = "scope{{#cluster}} = CLUSTER{{/cluster}});\n";
		assertThat(Templates.render("t", template, Map.of("cluster", true))).isEqualTo("scope = CLUSTER);\n");
		assertThat(Templates.render("t", template, Map.of("cluster", false))).isEqualTo("scope);\n");
	}

	@Test
	void nestedSectionsAreOffWhenAnEnclosingOneIs() {
		String template = "{{#a}}\n{{#b}}\nboth\n{{/b}}\n{{/a}}\nend";
		assertThat(Templates.render("t", template, Map.of("a", false, "b", true))).isEqualTo("end");
		assertThat(Templates.render("t", template, Map.of("a", true, "b", true))).isEqualTo("both\nend");
	}

	@Test
	void checksVariablesInsideSectionsThatAreOff() {
		assertThatIllegalStateException()
			.isThrownBy(() -> Templates.render("api/Kind.java.tmpl", "a\n{{#cluster}}\n{{typo}}\n{{/cluster}}\n",
					Map.of("cluster", false)))
			.withMessage("api/Kind.java.tmpl:3: no value for {{typo}}");
	}

	@Test
	void refusesAValueTheTemplateNeverUses() {
		assertThatIllegalStateException()
			.isThrownBy(() -> Templates.render("api/Kind.java.tmpl", "{{kind}}\n",
					Map.of("kind", "Database", "plural", "databases")))
			.withMessage("api/Kind.java.tmpl: never uses [plural]");
	}

	@Test
	void refusesAFlagUsedAsAVariableAndTheReverse() {
		assertThatIllegalStateException()
			.isThrownBy(() -> Templates.render("t", "{{cluster}}", Map.of("cluster", true)))
			.withMessage("t:1: cluster is a flag, used as a variable");
		assertThatIllegalStateException()
			.isThrownBy(() -> Templates.render("t", "x\n{{#kind}}\n{{/kind}}", Map.of("kind", "Database")))
			.withMessage("t:2: kind is a variable, used as a flag");
	}

	@Test
	void refusesUnbalancedSections() {
		assertThatIllegalStateException().isThrownBy(() -> Templates.render("t", "{{#a}}\nx\n", Map.of("a", true)))
			.withMessage("t:1: {{a}} is never closed");
		assertThatIllegalStateException().isThrownBy(() -> Templates.render("t", "x\n{{/a}}\n", Map.of("a", true)))
			.withMessage("t:2: {{/a}} closes no open section");
		assertThatIllegalStateException()
			.isThrownBy(() -> Templates.render("t", "{{#a}}{{#b}}{{/a}}{{/b}}", Map.of("a", true, "b", true)))
			.withMessage("t:1: {{/a}} closes no open section");
	}

	@Test
	void refusesATemplateThatDoesNotExist() {
		assertThatIllegalStateException().isThrownBy(() -> Templates.render("nope.tmpl", Map.of()))
			.withMessage("No template templates/nope.tmpl");
	}

	@Test
	void everyTemplateRendersWithEachFlagOnAndOffAndLeavesNoTag() throws IOException {
		List<Path> templates = templates();
		assertThat(templates).isNotEmpty();
		for (Path template : templates) {
			String name = TEMPLATES.relativize(template).toString().replace('\\', '/');
			String text = Files.readString(template);
			for (boolean flag : new boolean[] { true, false }) {
				Map<String, Object> values = new LinkedHashMap<>();
				Matcher tags = TAG.matcher(text);
				while (tags.find()) {
					values.put(tags.group(2), tags.group(1).isEmpty() ? "Value" : flag);
				}
				assertThat(Templates.render(name, values)).as(name).doesNotContain("{{").doesNotContain("}}");
			}
		}
	}

	@Test
	void aKindCannotTakeTheNameOfATypeATemplateImports() throws IOException {
		for (Path template : templates()) {
			Matcher imports = IMPORT.matcher(Files.readString(template));
			while (imports.find()) {
				String simpleName = imports.group(1);
				if (!simpleName.contains("{{")) {
					assertThat(Names.RESERVED).as("%s imports %s", template.getFileName(), simpleName)
						.contains(simpleName);
				}
			}
		}
	}

	private static List<Path> templates() throws IOException {
		try (Stream<Path> files = Files.walk(TEMPLATES)) {
			return files.filter((file) -> file.toString().endsWith(".tmpl")).sorted().toList();
		}
	}

}
