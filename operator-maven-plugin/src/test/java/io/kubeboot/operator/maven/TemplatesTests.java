package io.kubeboot.operator.maven;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class TemplatesTests {

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
		assertThatIllegalStateException().isThrownBy(() -> Templates.render("t", "{{cluster}}", Map.of("cluster", true)))
			.withMessage("t:1: cluster is a flag, used as a variable");
		assertThatIllegalStateException()
			.isThrownBy(() -> Templates.render("t", "x\n{{#kind}}\n{{/kind}}", Map.of("kind", "Database")))
			.withMessage("t:2: kind is a variable, used as a flag");
	}

	@Test
	void refusesUnbalancedSections() {
		assertThatIllegalStateException()
			.isThrownBy(() -> Templates.render("t", "{{#a}}\nx\n", Map.of("a", true)))
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

}
