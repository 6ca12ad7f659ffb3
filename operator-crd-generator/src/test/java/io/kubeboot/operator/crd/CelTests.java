package io.kubeboot.operator.crd;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The CEL check on its own: rules the API server takes pass, with the fields they select
 * resolved against a schema; rules that do not parse or select fields the schema does not
 * have fail with what is wrong and where.
 */
class CelTests {

	private final Schema spec = spec();

	@ParameterizedTest
	@ValueSource(strings = { "self.replicas >= 0 && self.replicas <= 10", "has(self.name) ? self.name != '' : true",
			"self.items.all(i, i.name != '')", "self.items.exists_one(i, i.name == 'a')",
			"self.items.map(i, i.name).exists(n, n == 'a')", "self.items.all(i, item, item.name != '')",
			"self.labels.exists(k, k.startsWith('app'))", "self.labels.all(k, v, v != '')",
			"self.labels['app'] == 'web'", "'app' in self.labels", "self.labels.app == 'web'",
			"self.items[0].name == 'a'", "size(self.items) < 10 && self.items.size() < 10",
			"self.name.matches('^[a-z]+$')", "self.name.matches(r'^\\d+$')", "type(self.name) == string",
			"int(self.ratio) > 0 || double(self.replicas) > 0.5", "cel.bind(first, self.items[0], first.name == 'a')",
			"self.?name.orValue('') != ''", "optional.of(self.replicas).hasValue()", "math.greatest(1, 2) == 2",
			"[1, 2, 3].all(x, x > 0) && {'a': 1}.a == 1 && [1, ?optional.none()].size() == 1",
			"-1 < 0 && !false && !!true && 2 % 2 == 0 && 4 / 2 * 3 - 1 + 2 != 0",
			"1.5e3 > .5 && 0x1F == 31 && 1u > 0u && 2.0 >= 1e-3", "'''multi\nline''' != \"\" && b'ab'.size() == 2",
			"self.__namespace__ == 'default' && self.my__dash__field == 'x'", "self.spec__dot__version != ''",
			"quantity(self.memory).isGreaterThan(quantity('1Gi'))", "// the name\nself.name != '' // set",
			"self.anything.whatever.below == 1", "self.labels.app.size() > 0", "'\\x41\\u0042\\101\\n' != ''",
			"null == null && self.name != null", "self.items.filter(i, has(i.name)).size() >= 0" })
	void rulesTheApiServerTakes(String rule) throws CelException {
		assertThat(Cel.check(rule, this.spec)).isFalse();
	}

	@Test
	void oldSelfMakesATransitionRule() throws CelException {
		assertThat(Cel.check("self.replicas >= oldSelf.replicas", this.spec)).isTrue();
		assertThat(Cel.check("self == oldSelf", this.spec)).isTrue();
		assertThat(Cel.check("!oldSelf.hasValue() || oldSelf.value().name == self.name", this.spec)).isTrue();
	}

	@Test
	void fieldsTheSchemaDoesNotHave() {
		assertProblem("self.nmae == 'x'",
				"names the field 'nmae', which self does not have; it has [name, replicas, ratio, items, labels, "
						+ "anything, memory, namespace, my-field, spec.version]",
				6);
		assertProblem("oldSelf.replica > 1", "names the field 'replica', which oldSelf does not have; it has [name, "
				+ "replicas, ratio, items, labels, anything, memory, namespace, my-field, spec.version]", 9);
		assertProblem("self.items.all(i, i.nmae != '')", "names the field 'nmae', which i does not have; it has [name]",
				21);
		assertProblem("self.items[0].title == ''",
				"names the field 'title', which self.items[] does not have; it has [name]", 15);
		assertProblem("has(self.items.name)", "names the field 'name' of self.items, which is a list and has no fields",
				16);
		assertProblem("self.name.first == 'a'",
				"names the field 'first' of self.name, which is a string and has no fields", 11);
		assertProblem("cel.bind(first, self.items[0], first.nmae == 'a')",
				"names the field 'nmae', which first does not have; it has [name]", 38);
	}

	@Test
	void rulesThatDoNotParse() {
		assertProblem("self.replicas >", "does not parse: the expression ends where a value is expected", 16);
		assertProblem("(self.replicas > 1", "does not parse: the end of the expression where ')' is expected", 19);
		assertProblem("self.replicas > 1)", "does not parse: a whole expression ends before ')'", 18);
		assertProblem("self.items.all(i, i.name != '')]", "does not parse: a whole expression ends before ']'", 32);
		assertProblem("self.name == 'x", "does not parse: the string that starts here does not end", 14);
		assertProblem("self.name == 'a\nb'",
				"does not parse: the string that starts here does not end on its line (use ''' for several)", 14);
		assertProblem("self.replicas = 1", "does not parse: '=' is no part of CEL: compare with ==", 15);
		assertProblem("self.ok & true", "does not parse: '&' is no part of CEL: and is &&", 9);
		assertProblem("self.namespace == 'x'",
				"does not parse: 'namespace' is a reserved word of CEL: select the field as __namespace__", 6);
		assertProblem("has(self)", "does not parse: has() takes a field selection, such as has(self.name)", 1);
		assertProblem("self.name == '\\q'", "does not parse: '\\q' is no escape sequence of CEL", 15);
		assertProblem("self.items.all(i, i.name != ''",
				"does not parse: the end of the expression where ')' is expected", 31);
		assertProblem("self.items.all(i i.name)", "uses 'i', which is undeclared: a rule knows self, oldSelf and the "
				+ "variables of its macros, such as x in self.all(x, ...)", 16);
		assertProblem("self. == 1", "does not parse: '==' where a field or function name after '.' is expected", 7);
		assertProblem("replicas > 1", "uses 'replicas', which is undeclared: a rule knows self, oldSelf and the "
				+ "variables of its macros, such as x in self.all(x, ...)", 1);
		assertProblem("  ", "is empty", 0);
	}

	@Test
	void namesAsTheyAreWhereObjectsArePlainJson() throws CelException {
		Map<String, Schema> declared = Map.of("object", this.spec);
		assertThat(Cel.check("object.namespace == 'x' && object['my-field'] == 'y' && object.labels.all(k, k != '')",
				declared, false, "known"))
			.containsExactly("object");
		assertThatExceptionOfType(CelException.class)
			.isThrownBy(() -> Cel.check("object.my__dash__field == 'x'", declared, false, "known"))
			.withMessage("names the field 'my__dash__field', which object does not have: here names are not escaped, "
					+ "select 'my-field' as object['my-field']");
		assertThatExceptionOfType(CelException.class)
			.isThrownBy(() -> Cel.check("object.in == 'x'", declared, false, "known"))
			.withMessage("does not parse: 'in' cannot follow '.': select the field as ['in']");
		assertThatExceptionOfType(CelException.class)
			.isThrownBy(() -> Cel.check("self.name == 'x'", declared, false, "a policy knows object"))
			.withMessage("uses 'self', which is undeclared: a policy knows object");
	}

	@Test
	void kubernetesVariablesAreNoNamespacesOfFunctions() {
		assertProblem("authorizer.group('').check('get').allowed()", "uses 'authorizer', which is undeclared: a rule "
				+ "knows self, oldSelf and the variables of its macros, such as x in self.all(x, ...)", 1);
	}

	@Test
	void namesInCel() {
		assertThat(CelValue.escape("name")).isEqualTo("name");
		assertThat(CelValue.escape("namespace")).isEqualTo("__namespace__");
		assertThat(CelValue.escape("bucket-name")).isEqualTo("bucket__dash__name");
		assertThat(CelValue.escape("a.b/c__d")).isEqualTo("a__dot__b__slash__c__underscores__d");
		assertThat(CelValue.escape("1st")).isNull();
		assertThat(CelValue.escape("has space")).isNull();
	}

	private void assertProblem(String rule, String problem, int character) {
		assertThatExceptionOfType(CelException.class).isThrownBy(() -> Cel.check(rule, this.spec))
			.satisfies((ex) -> assertThat(ex.getMessage()).isEqualTo(problem))
			.satisfies((ex) -> assertThat(ex.position() + 1).as("the character").isEqualTo(character));
	}

	private static Schema spec() {
		Schema spec = Schema.ofType("object");
		spec.properties().put("name", Schema.ofType("string"));
		spec.properties().put("replicas", Schema.ofType("integer"));
		spec.properties().put("ratio", Schema.ofType("number"));
		Schema item = Schema.ofType("object");
		item.properties().put("name", Schema.ofType("string"));
		spec.properties().put("items", Schema.ofType("array").put("items", item));
		spec.properties().put("labels", Schema.ofType("object").put("additionalProperties", Schema.ofType("string")));
		spec.properties().put("anything", new Schema().put("x-kubernetes-preserve-unknown-fields", true));
		spec.properties().put("memory", new Schema().put("x-kubernetes-int-or-string", true));
		spec.properties().put("namespace", Schema.ofType("string"));
		spec.properties().put("my-field", Schema.ofType("string"));
		spec.properties().put("spec.version", Schema.ofType("string"));
		return spec;
	}

}
