package io.kubeboot.operator.crd;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static io.kubeboot.operator.crd.CustomResourceDefinitionProcessorTests.gadget;
import static io.kubeboot.operator.crd.CustomResourceDefinitionProcessorTests.properties;
import static io.kubeboot.operator.crd.CustomResourceDefinitionProcessorTests.property;
import static io.kubeboot.operator.crd.CustomResourceDefinitionProcessorTests.schema;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @ValidationRule} and {@code @Immutable} become CEL rules
 * ({@code x-kubernetes-validations}) where they are declared, and rules that do not parse
 * or name fields the schema does not have fail the compilation.
 */
class ValidationRuleProcessorTests {

	@TempDir
	Path directory;

	@Test
	void rulesOfTheKindOfAClassAndOfAField() {
		Compilation compilation = Compilation.compile(this.directory,
				"""
						package com.example;

						import io.kubeboot.operator.model.*;
						import java.util.List;

						@KubernetesKind(group = "example.com", version = "v1", kind = "Gadget")
						@ValidationRule(value = "self.metadata.name.size() <= 20", message = "the name is at most 20 characters")
						public class Gadget extends CustomResource<Gadget.Spec, Void> {

							@ValidationRule(value = "self.min <= self.max", message = "min must not exceed max", fieldPath = ".min",
									reason = ValidationRule.Reason.FIELD_VALUE_FORBIDDEN)
							@ValidationRule("!has(self.endpoint) || self.endpoint.startsWith('https://')")
							public static class Spec {
								private int min;
								private int max;
								@ValidationRule(value = "self.all(t, t.size() <= 5)",
										messageExpression = "'tags are at most 5 characters: ' + self.filter(t, t.size() > 5)[0]")
								private List<String> tags;
								private String endpoint;
							}

						}
						""");
		assertThat(compilation.success()).as(compilation.messages()).isTrue();
		Map<String, Object> crd = compilation.crdDocument("gadgets.example.com");
		assertThat(schema(crd).get("x-kubernetes-validations")).isEqualTo(List
			.of(Map.of("rule", "self.metadata.name.size() <= 20", "message", "the name is at most 20 characters")));
		assertThat(property(crd, "spec").get("x-kubernetes-validations")).isEqualTo(List.of(
				Map.of("rule", "self.min <= self.max", "message", "min must not exceed max", "reason",
						"FieldValueForbidden", "fieldPath", ".min"),
				Map.of("rule", "!has(self.endpoint) || self.endpoint.startsWith('https://')")));
		assertThat(compilation.crd("gadgets.example.com")).contains(
				"""
						                tags:
						                  type: array
						                  x-kubernetes-validations:
						                    - rule: 'self.all(t, t.size() <= 5)'
						                      messageExpression: "'tags are at most 5 characters: ' + self.filter(t, t.size() > 5)[0]"
						                  items:
						                    type: string
						""");
	}

	@Test
	void transitionRules() {
		Compilation compilation = Compilation.compile(this.directory, gadget("""
				public static class Spec {
					@ValidationRule(value = "self >= oldSelf", message = "replicas may only grow")
					private Integer replicas;
					@ValidationRule(value = "!oldSelf.hasValue() || self == oldSelf.value()", optionalOldSelf = true,
							message = "is fixed")
					private String zone;
				}
				"""));
		assertThat(compilation.success()).as(compilation.messages()).isTrue();
		Map<String, Object> spec = properties(compilation.crdDocument("gadgets.example.com"), "spec");
		assertThat(validations(spec, "replicas"))
			.isEqualTo(List.of(Map.of("rule", "self >= oldSelf", "message", "replicas may only grow")));
		assertThat(validations(spec, "zone")).isEqualTo(List.of(Map.of("rule",
				"!oldSelf.hasValue() || self == oldSelf.value()", "message", "is fixed", "optionalOldSelf", true)));
	}

	@Test
	void immutableFieldsCannotChangeNorBeRemoved() {
		Compilation compilation = Compilation.compile(this.directory, gadget("""
				public static class Spec {
					@Immutable
					private String bucketName;
					@Immutable(message = "is fixed at creation")
					@NotNull
					private String region;
					@Immutable
					@com.google.gson.annotations.SerializedName("storage-class")
					private String storageClass;
					@Immutable
					private Part part;
				}

				public static class Part {
					private String id;
				}
				"""));
		assertThat(compilation.success()).as(compilation.messages()).isTrue();
		Map<String, Object> crd = compilation.crdDocument("gadgets.example.com");
		Map<String, Object> spec = properties(crd, "spec");
		assertThat(validations(spec, "bucketName"))
			.isEqualTo(List.of(Map.of("rule", "self == oldSelf", "message", "is immutable")));
		assertThat(validations(spec, "region"))
			.isEqualTo(List.of(Map.of("rule", "self == oldSelf", "message", "is fixed at creation")));
		assertThat(validations(spec, "storage-class"))
			.isEqualTo(List.of(Map.of("rule", "self == oldSelf", "message", "is immutable")));
		assertThat(validations(spec, "part"))
			.isEqualTo(List.of(Map.of("rule", "self == oldSelf", "message", "is immutable")));
		// the required region cannot be removed anyway
		assertThat(property(crd, "spec").get("x-kubernetes-validations")).isEqualTo(List.of(
				Map.of("rule", "!has(oldSelf.bucketName) || has(self.bucketName)", "message", "is immutable",
						"fieldPath", ".bucketName"),
				Map.of("rule", "!has(oldSelf.storage__dash__class) || has(self.storage__dash__class)", "message",
						"is immutable", "fieldPath", "['storage-class']"),
				Map.of("rule", "!has(oldSelf.part) || has(self.part)", "message", "is immutable", "fieldPath",
						".part")));
	}

	@Test
	void rulesOfAClassApplyWhereverItIsUsed() {
		Compilation compilation = Compilation.compile(this.directory, gadget("""
				public static class Spec {
					private Range first;
					private Map<String, Range> byName;
				}

				@ValidationRule(value = "self.from <= self.to", message = "from must not exceed to")
				public static class Range {
					private int from;
					private int to;
				}
				"""));
		assertThat(compilation.success()).as(compilation.messages()).isTrue();
		Map<String, Object> spec = properties(compilation.crdDocument("gadgets.example.com"), "spec");
		List<Map<String, Object>> rule = List
			.of(Map.of("rule", "self.from <= self.to", "message", "from must not exceed to"));
		assertThat(validations(spec, "first")).isEqualTo(rule);
		assertThat(((Map<String, Object>) ((Map<String, Object>) spec.get("byName")).get("additionalProperties"))
			.get("x-kubernetes-validations")).isEqualTo(rule);
	}

	@Test
	void aRuleNamingAFieldThatDoesNotExistFailsNamingIt() {
		Compilation compilation = Compilation.compile(this.directory, gadget("""
				@ValidationRule(value = "self.nmae != ''", message = "needs a name")
				public static class Spec {
					private String name;
					@ValidationRule("self.weigth > 0")
					private Part part;
				}

				public static class Part {
					private long weight;
				}
				"""));
		assertFailed(compilation);
		assertThat(compilation.errorsWithLines()).containsExactly(
				"Gadget.java:13: @ValidationRule on field 'part' of com.example.Gadget.Spec: the rule 'self.weigth > 0' "
						+ "names the field 'weigth', which self does not have; it has [weight] (at character 6)",
				"Gadget.java:10: @ValidationRule on com.example.Gadget.Spec: the rule 'self.nmae != ''' names the field "
						+ "'nmae', which self does not have; it has [name, part] (at character 6)");
	}

	@Test
	void aRuleOfTheKindNamingAFieldOfTheSpecThatDoesNotExist() {
		Compilation compilation = Compilation.compile(this.directory, """
				package com.example;

				import io.kubeboot.operator.model.*;

				@KubernetesKind(group = "example.com", version = "v1", kind = "Gadget")
				@ValidationRule("self.spec.replicas <= 3 || self.metadata.name.startsWith('big-')")
				@ValidationRule("self.spec.items.all(i, i.nmae != '')")
				public class Gadget extends CustomResource<Gadget.Spec, Void> {
					public static class Spec {
						private int replica;
						private java.util.List<Item> items;
					}
					public static class Item {
						private String name;
					}
				}
				""");
		assertFailed(compilation);
		assertThat(compilation.errors()).containsExactly(
				"@ValidationRule on com.example.Gadget: the rule 'self.spec.replicas <= 3 || "
						+ "self.metadata.name.startsWith('big-')' names the field 'replicas', which self.spec does not "
						+ "have; it has [replica, items] (at character 11)",
				"@ValidationRule on com.example.Gadget: the rule 'self.spec.items.all(i, i.nmae != '')' names the field "
						+ "'nmae', which i does not have; it has [name] (at character 26)");
	}

	@Test
	void aWrongRuleOfAClassUsedTwiceIsReportedOnce() {
		Compilation compilation = Compilation.compile(this.directory, gadget("""
				public static class Spec {
					private Range first;
					private Range second;
				}

				@ValidationRule("self.form <= self.to")
				public static class Range {
					private int from;
					private int to;
				}
				"""));
		assertFailed(compilation);
		assertThat(compilation.errors()).containsExactly("@ValidationRule on com.example.Gadget.Range: the rule "
				+ "'self.form <= self.to' names the field 'form', which self does not have; it has [from, to] (at "
				+ "character 6)");
	}

	@Test
	void malformedRules() {
		Compilation compilation = Compilation.compile(this.directory, gadget("""
				public static class Spec {
					@ValidationRule("self > (1")
					private int a;
					@ValidationRule("self == 'x")
					private String b;
					@ValidationRule(value = "self != ''", messageExpression = "'b is ' + self +")
					private String c;
					@ValidationRule("size == 1")
					private String d;
					@ValidationRule("self = 1")
					private int e;
				}
				"""));
		assertFailed(compilation);
		assertThat(compilation.errors()).containsExactly(
				"@ValidationRule on field 'a' of com.example.Gadget.Spec: the rule 'self > (1' does not parse: the end "
						+ "of the expression where ')' is expected (at character 10)",
				"@ValidationRule on field 'b' of com.example.Gadget.Spec: the rule 'self == 'x' does not parse: the "
						+ "string that starts here does not end (at character 9)",
				"@ValidationRule on field 'c' of com.example.Gadget.Spec: the messageExpression ''b is ' + self +' does "
						+ "not parse: the expression ends where a value is expected (at character 17)",
				"@ValidationRule on field 'd' of com.example.Gadget.Spec: the rule 'size == 1' uses 'size', which is "
						+ "undeclared: a rule knows self, oldSelf and the variables of its macros, such as x in "
						+ "self.all(x, ...) (at character 1)",
				"@ValidationRule on field 'e' of com.example.Gadget.Spec: the rule 'self = 1' does not parse: '=' is no "
						+ "part of CEL: compare with == (at character 6)");
	}

	@Test
	void fieldPathsAndOptionsTheApiServerRefuses() {
		Compilation compilation = Compilation.compile(this.directory, gadget("""
				@ValidationRule(value = "self.min <= self.max", fieldPath = ".mni")
				@ValidationRule(value = "self.tags.size() < 3", fieldPath = ".tags.first")
				@ValidationRule(value = "self.min >= 0", fieldPath = "min")
				@ValidationRule(value = "self.min >= 0", optionalOldSelf = true)
				@ValidationRule(value = "self.max >= 0", message = "two\\nlines")
				@ValidationRule(value = "self.labels.size() < 3", fieldPath = ".labels['app']")
				public static class Spec {
					private int min;
					private int max;
					private List<String> tags;
					private Map<String, String> labels;
				}
				"""));
		assertFailed(compilation);
		assertThat(compilation.errors()).containsExactly(
				"@ValidationRule on com.example.Gadget.Spec: the fieldPath '.mni' names the field 'mni', which self "
						+ "does not have; it has [min, max, tags, labels]",
				"@ValidationRule on com.example.Gadget.Spec: the fieldPath '.tags.first' goes into self.tags, which is "
						+ "a list; a fieldPath may name the list but not its items",
				"@ValidationRule on com.example.Gadget.Spec: the fieldPath 'min' must be .field and ['key'] steps, such "
						+ "as .spec.replicas",
				"@ValidationRule on com.example.Gadget.Spec: optionalOldSelf is for rules that use oldSelf, and "
						+ "'self.min >= 0' does not",
				"@ValidationRule on com.example.Gadget.Spec: the message must be one line");
	}

	@Test
	void transitionRulesInTheItemsOfAListThatIsNoMap() {
		Compilation compilation = Compilation.compile(this.directory, gadget("""
				public static class Spec {
					private List<Item> items;
					@ListType(value = ListType.Type.MAP, mapKeys = "name")
					private List<Item> keyed;
				}

				public static class Item {
					@NotNull
					private String name;
					@Immutable
					private String value;
				}
				"""));
		assertFailed(compilation);
		assertThat(compilation.errors())
			.containsExactly("@Immutable on field 'value' of com.example.Gadget.Item: the rule '!has(oldSelf.value) || "
					+ "has(self.value)' compares with oldSelf, which the API server cannot do at .spec.items[*]: the "
					+ "items of a list are paired with their old values only in a list of @ListType(MAP)",
					"@Immutable on field 'value' of com.example.Gadget.Item: the rule 'self == oldSelf' compares with "
							+ "oldSelf, which the API server cannot do at .spec.items[*].value: the items of a list are "
							+ "paired with their old values only in a list of @ListType(MAP)");
	}

	private static void assertFailed(Compilation compilation) {
		assertThat(compilation.success()).as(compilation.messages()).isFalse();
		assertThat(compilation.crdFiles()).isEmpty();
	}

	@SuppressWarnings("unchecked")
	private static Object validations(Map<String, Object> properties, String name) {
		return ((Map<String, Object>) properties.get(name)).get("x-kubernetes-validations");
	}

}
