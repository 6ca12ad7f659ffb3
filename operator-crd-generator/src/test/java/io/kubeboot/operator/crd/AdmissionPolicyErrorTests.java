package io.kubeboot.operator.crd;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static io.kubeboot.operator.crd.AdmissionPolicyProcessorTests.version;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An {@code @AdmissionPolicy} the API server would refuse, or that could never pass,
 * fails the compilation with an error on the class naming the policy, and the kind gets
 * neither its CRD nor its policies.
 */
class AdmissionPolicyErrorTests {

	@TempDir
	Path directory;

	@Test
	void anExpressionThatDoesNotParse() {
		assertError("@AdmissionPolicy(name = \"sized\", expression = \"object.spec.size <= \")",
				"Gadget.java:7: @AdmissionPolicy 'sized' on com.example.v1.Gadget: the expression "
						+ "'object.spec.size <= ' does not parse: the expression ends where a value is expected "
						+ "(at character 21)");
	}

	@Test
	void anUndeclaredName() {
		assertError("@AdmissionPolicy(name = \"sized\", expression = \"self.spec.size <= 10\")",
				"Gadget.java:7: @AdmissionPolicy 'sized' on com.example.v1.Gadget: the expression "
						+ "'self.spec.size <= 10' uses 'self', which is undeclared: a policy knows object, oldObject, "
						+ "request, namespaceObject, authorizer and the variables of its macros, such as x in "
						+ "object.spec.items.all(x, ...) (at character 1)");
		assertError("@AdmissionPolicy(name = \"sized\", expression = \"object.spec.size <= params.max\")",
				"uses 'params', which is undeclared");
		assertError(
				"@AdmissionPolicy(name = \"sized\", expression = \"object.spec.size <= 10\", "
						+ "messageExpression = \"authorizer.group('').resource('pods').check('get').reason()\")",
				"the messageExpression 'authorizer.group('').resource('pods').check('get').reason()' uses "
						+ "'authorizer', which is undeclared: a policy knows object, oldObject, request, "
						+ "namespaceObject and the variables");
		assertError("@AdmissionPolicy(name = \"sized\", expression = \"variables.max > 1\")",
				"uses 'variables', which is undeclared");
	}

	@Test
	void aFieldTheKindDoesNotHave() {
		assertError("@AdmissionPolicy(name = \"sized\", expression = \"object.spec.sise <= 10\")",
				"Gadget.java:7: @AdmissionPolicy 'sized' on com.example.v1.Gadget: the expression "
						+ "'object.spec.sise <= 10' names the field 'sise', which object.spec does not have; it has "
						+ "[size, parts] (at character 13)");
		assertError("@AdmissionPolicy(name = \"named\", expression = \"oldObject.spec.parts.all(p, p.nmae != '')\")",
				"names the field 'nmae', which p does not have; it has [name]");
		assertError("@AdmissionPolicy(name = \"named\", expression = \"object.status.phase != ''\")",
				"names the field 'status', which object does not have; it has [apiVersion, kind, metadata, spec]");
	}

	@Test
	void aFieldOneVersionDoesNotHave() {
		Compilation compilation = Compilation.compile(this.directory,
				version("v1", true, "@AdmissionPolicy(name = \"sized\", expression = \"object.spec.size <= 10\")"),
				version("v1beta1", false, "").replace("private Integer size;", "private Integer count;"));
		assertFailed(compilation);
		assertThat(compilation.errors()).containsExactly("@AdmissionPolicy 'sized' on com.example.v1.Gadget: the "
				+ "expression 'object.spec.size <= 10' names the field 'size', which object.spec does not have; it has "
				+ "[count, parts] (in version v1beta1, at character 13)");
	}

	@Test
	void fieldsOfTheRequestAndNamespace() {
		assertError("@AdmissionPolicy(name = \"mine\", expression = \"request.userinfo.username == 'me'\")",
				"names the field 'userinfo', which request does not have; it has [kind, resource, subResource, "
						+ "requestKind, requestResource, requestSubResource, name, namespace, operation, userInfo, "
						+ "dryRun, options]");
		assertError("@AdmissionPolicy(name = \"gold\", expression = \"namespaceObject.labels['tier'] == 'gold'\")",
				"names the field 'labels', which namespaceObject does not have; it has [metadata, spec, status]");
	}

	@Test
	void namesAreNotEscapedInAPolicy() {
		assertError("@AdmissionPolicy(name = \"named\", expression = \"object.spec.my__dash__part != ''\")",
				"names the field 'my__dash__part', which object.spec does not have; it has [size, parts]");
		Compilation compilation = Compilation.compile(this.directory,
				version("v1", true,
						"@AdmissionPolicy(name = \"named\", expression = \"object.spec.my__dash__size > 1\")")
					.replace("private Integer size;",
							"@com.google.gson.annotations.SerializedName(\"my-size\") private Integer size;"));
		assertFailed(compilation);
		assertThat(compilation.errors()).singleElement()
			.asString()
			.endsWith("names the field 'my__dash__size', which object.spec does not have: here names are not "
					+ "escaped, select 'my-size' as object.spec['my-size'] (at character 13)");
	}

	@Test
	void whatIsNullForTheOperationsChecked() {
		assertError(
				"@AdmissionPolicy(name = \"kept\", operations = AdmissionPolicy.Operation.DELETE, "
						+ "expression = \"object.spec.size < 3\")",
				"@AdmissionPolicy 'kept' on com.example.v1.Gadget: object is null on DELETE, the only operation "
						+ "checked: the object being deleted is oldObject");
		assertError(
				"@AdmissionPolicy(name = \"grow\", operations = AdmissionPolicy.Operation.CREATE, "
						+ "expression = \"object.spec.size >= oldObject.spec.size\")",
				"@AdmissionPolicy 'grow' on com.example.v1.Gadget: oldObject is null on CREATE, the only operation "
						+ "checked: there is an old object on UPDATE and DELETE");
		// a namespaced kind has a namespace, a cluster-scoped one none
		assertError("@AdmissionPolicy(name = \"gold\", expression = \"namespaceObject.metadata.name != 'x'\")", null);
		Compilation compilation = Compilation.compile(this.directory,
				version("v1", true,
						"@AdmissionPolicy(name = \"gold\", expression = \"namespaceObject.metadata.name != 'x'\")")
					.replace("storage = true", "storage = true, scope = KubernetesKind.Scope.CLUSTER"));
		assertFailed(compilation);
		assertThat(compilation.errors()).containsExactly(
				"@AdmissionPolicy 'gold' on com.example.v1.Gadget: namespaceObject is null for Gadget, which is "
						+ "cluster-scoped");
	}

	@Test
	void namesOperationsAndMessages() {
		assertError("@AdmissionPolicy(name = \"Sized\", expression = \"true\")",
				"@AdmissionPolicy 'Sized' on com.example.v1.Gadget: the name must be a DNS label (at most 63 "
						+ "lower-case letters, digits and '-', starting and ending with a letter or digit), such as "
						+ "protected");
		assertError("@AdmissionPolicy(name = \"sized\", expression = \"true\", operations = {})",
				"operations must name at least one operation");
		assertError(
				"@AdmissionPolicy(name = \"sized\", expression = \"true\", operations = { "
						+ "AdmissionPolicy.Operation.DELETE, AdmissionPolicy.Operation.DELETE })",
				"operations [DELETE, DELETE] names an operation twice");
		assertError("@AdmissionPolicy(name = \"sized\", expression = \"true\", message = \"one\\ntwo\")",
				"the message must be one line");
		assertError("@AdmissionPolicy(name = \"sized\", expression = \"true &&\\ntrue\")",
				"an expression of several lines needs a message");
	}

	@Test
	void variablesAndMatchConditions() {
		assertError(
				"@AdmissionPolicy(name = \"sized\", expression = \"true\", variables = "
						+ "@AdmissionPolicy.Variable(name = \"a-b\", expression = \"1\"))",
				"the variable name 'a-b' is no CEL identifier, such as owner");
		assertError(
				"@AdmissionPolicy(name = \"sized\", expression = \"true\", variables = { "
						+ "@AdmissionPolicy.Variable(name = \"c\", expression = \"variables.d\"), "
						+ "@AdmissionPolicy.Variable(name = \"d\", expression = \"variables.c\") })",
				"the variable c 'variables.d' uses 'variables', which is undeclared");
		assertError(
				"@AdmissionPolicy(name = \"sized\", expression = \"variables.e\", variables = { "
						+ "@AdmissionPolicy.Variable(name = \"c\", expression = \"1\"), "
						+ "@AdmissionPolicy.Variable(name = \"d\", expression = \"variables.c\") })",
				"the expression 'variables.e' names the field 'e', which variables does not have; it has [c, d]");
		assertError(
				"@AdmissionPolicy(name = \"sized\", expression = \"true\", matchConditions = "
						+ "@AdmissionPolicy.MatchCondition(name = \"-x\", expression = \"true\"))",
				"the match condition name '-x' must be letters, digits, '-', '_' and '.', starting and ending with "
						+ "a letter or digit, such as exclude-operator");
		assertError(
				"@AdmissionPolicy(name = \"sized\", expression = \"true\", matchConditions = "
						+ "@AdmissionPolicy.MatchCondition(name = \"y\", expression = \"variables.c\"), variables = "
						+ "@AdmissionPolicy.Variable(name = \"c\", expression = \"1\"))",
				"the match condition y 'variables.c' uses 'variables', which is undeclared");
	}

	@Test
	void twoPoliciesOfOneName() {
		Compilation compilation = Compilation.compile(this.directory,
				version("v1", true, "@AdmissionPolicy(name = \"sized\", expression = \"true\")"),
				version("v1beta1", false, "@AdmissionPolicy(name = \"sized\", expression = \"false\")"));
		assertFailed(compilation);
		assertThat(compilation.errors()).containsExactly("@AdmissionPolicy 'sized' on com.example.v1beta1.Gadget: "
				+ "com.example.v1.Gadget declares a policy of that name already; give each policy of Gadget its own "
				+ "name");
	}

	@Test
	void onAClassThatIsNoKind() {
		Compilation compilation = Compilation.compile(this.directory, """
				package com.example;

				import io.kubeboot.operator.model.*;

				@AdmissionPolicy(name = "sized", expression = "true")
				public class Spec {
				}
				""");
		assertFailed(compilation);
		assertThat(compilation.errors()).containsExactly(
				"@AdmissionPolicy goes on the class annotated with @KubernetesKind, and com.example.Spec is none");
	}

	@Test
	void onAKindOfKubernetesOwn() {
		Compilation compilation = Compilation.compile(this.directory,
				version("v1", true, "@AdmissionPolicy(name = \"sized\", expression = \"true\")")
					.replace("group = \"example.com\"", "group = \"apps\""));
		assertFailed(compilation);
		assertThat(compilation.errors()).containsExactly("@AdmissionPolicy on com.example.v1.Gadget writes no "
				+ "policy: the generator writes policies beside the CustomResourceDefinitions of custom resources, "
				+ "and the group 'apps' is one of Kubernetes' own");
	}

	/**
	 * Compiles the one version of {@code Gadget} with the annotation, and checks that an
	 * error contains the text; with {@code null}, that it compiles.
	 */
	private void assertError(String annotation, String error) {
		Compilation compilation = Compilation.compile(this.directory.resolve(String.valueOf(System.nanoTime())),
				version("v1", true, annotation));
		if (error == null) {
			assertThat(compilation.success()).as(compilation.messages()).isTrue();
			return;
		}
		assertFailed(compilation);
		assertThat(compilation.errorsWithLines()).as(annotation)
			.anySatisfy((message) -> assertThat(message).contains(error));
	}

	private static void assertFailed(Compilation compilation) {
		assertThat(compilation.success()).as(compilation.messages()).isFalse();
		assertThat(compilation.crdFiles()).isEmpty();
		assertThat(compilation.policyFiles()).isEmpty();
	}

}
