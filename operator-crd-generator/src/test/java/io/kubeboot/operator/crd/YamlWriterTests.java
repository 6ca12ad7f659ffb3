package io.kubeboot.operator.crd;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import static org.assertj.core.api.Assertions.assertThat;

class YamlWriterTests {

	private static final List<String> STRINGS = List.of("plain", "True", "false", "yes", "No", "null", "~", "123",
			"1.5", "-1", ".5", ".inf", "0x1F", "2024-01-01", "a: b", "a:b", "ends with:", "# comment", "a #b", "it's",
			"'quoted'", "\"double\"", "- item", "[list]", "{map}", "*alias", "&anchor", "!tag", "|", ">", "%", "@at",
			"`tick`", " leading", "trailing ", "", "line\nbreak", "tab\there", "back\\slash", "^https?://[^\\s]+$",
			".status.conditions[?(@.type==\"Available\")].status", "Größe", "<<", "=");

	@Test
	void everyStringReadsBackAsItself() {
		Map<String, Object> document = new LinkedHashMap<>();
		document.put("values", STRINGS);
		for (int i = 0; i < STRINGS.size(); i++) {
			document.put(STRINGS.get(i).isEmpty() ? "empty" : STRINGS.get(i), i);
		}
		String yaml = new YamlWriter().document(document).toString();
		Map<String, Object> read = new Yaml(new SafeConstructor(new LoaderOptions())).load(yaml);
		assertThat(read.get("values")).as(yaml).isEqualTo(STRINGS);
		assertThat(read.keySet()).as(yaml).containsExactlyElementsOf(document.keySet());
	}

	@Test
	void blockStyleWithSequencesIndentedUnderTheirKey() {
		Map<String, Object> item = new LinkedHashMap<>();
		item.put("name", "a");
		item.put("empty", Map.of());
		item.put("nested", Map.of("list", List.of(1L, true, new BigDecimal("0.5"))));
		String yaml = new YamlWriter().comment("A comment.")
			.document(Map.of("items", List.of(item, "scalar")))
			.toString();
		assertThat(yaml).isEqualTo("""
				# A comment.
				items:
				  - name: a
				    empty: {}
				    nested:
				      list:
				        - 1
				        - true
				        - 0.5
				  - scalar
				""");
	}

	@Test
	void listsInListsAndRulesInDoubleQuotes() {
		Map<String, Object> document = new LinkedHashMap<>();
		document.put("default", List.of(List.of(1L, 2L), List.of(Map.of("a", 1L)), List.of()));
		document.put("rule", "!has(self.x) || self.x != 'a'");
		String yaml = new YamlWriter().document(document).toString();
		assertThat(yaml).isEqualTo("""
				default:
				  - - 1
				    - 2
				  - - a: 1
				  - []
				rule: "!has(self.x) || self.x != 'a'"
				""");
		Map<String, Object> read = new Yaml(new SafeConstructor(new LoaderOptions())).load(yaml);
		assertThat(read).isEqualTo(Map.of("default", List.of(List.of(1, 2), List.of(Map.of("a", 1)), List.of()), "rule",
				"!has(self.x) || self.x != 'a'"));
	}

	@Test
	void documentsAfterTheFirstBehindThreeDashes() {
		String yaml = new YamlWriter().comment("Two documents.")
			.document(Map.of("kind", "First"))
			.document(Map.of("kind", "Second"))
			.toString();
		assertThat(yaml).isEqualTo("""
				# Two documents.
				kind: First
				---
				kind: Second
				""");
		assertThat(new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(yaml))
			.containsExactly(Map.of("kind", "First"), Map.of("kind", "Second"));
	}

}
