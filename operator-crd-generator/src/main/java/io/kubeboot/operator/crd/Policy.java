package io.kubeboot.operator.crd;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/**
 * One {@code @AdmissionPolicy} of a kind class, checked, as the ValidatingAdmissionPolicy
 * and the ValidatingAdmissionPolicyBinding it becomes.
 *
 * @param name the policy's name, {@code <name>.<plural>.<group>}, which its binding
 * shares
 * @param type the class it is on
 * @param spec the policy's {@code spec}
 */
record Policy(String name, TypeElement type, Map<String, Object> spec) {

	private static final String API_VERSION = "admissionregistration.k8s.io/v1";

	private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

	private static final Pattern QUALIFIED_NAME = Pattern
		.compile("([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
				+ "[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");

	private static final Pattern CEL_IDENTIFIER = Pattern.compile("[_a-zA-Z][_a-zA-Z0-9]*");

	/** The API server's limit of match conditions per policy. */
	private static final int MATCH_CONDITIONS = 64;

	/**
	 * Reads and checks a policy.
	 * @param type the kind class it is on
	 * @param annotation the {@code @AdmissionPolicy}
	 * @param versions the kind's versions, GA first
	 * @param elements the compiler's elements
	 * @param diagnostics where problems go
	 * @return the policy, or {@code null} if it has errors
	 */
	static Policy read(TypeElement type, Annotation annotation, List<KindVersion> versions, Elements elements,
			Diagnostics diagnostics) {
		KindVersion kind = versions.get(0);
		String shortName = annotation.string("name");
		Problems problems = new Problems(type, annotation.mirror(), shortName, diagnostics);
		String name = shortName + "." + kind.names().plural() + "." + kind.group();
		if (!DNS_LABEL.matcher(shortName).matches()) {
			problems.add("the name must be a DNS label (at most 63 lower-case letters, digits and '-', starting and "
					+ "ending with a letter or digit), such as protected");
		}
		else if (name.length() > 253) {
			problems.add("the policy's name " + name + " is longer than the API server's 253 characters");
		}
		List<String> operations = annotation.constants("operations");
		if (operations.isEmpty()) {
			problems.add("operations must name at least one operation");
		}
		else if (new HashSet<>(operations).size() < operations.size()) {
			problems.add("operations " + operations + " names an operation twice");
		}
		PolicyExpressions expressions = new PolicyExpressions(versions);
		Set<String> used = new LinkedHashSet<>();
		List<Map<String, Object>> conditions = matchConditions(annotation, elements, expressions, used, problems);
		List<Map<String, Object>> variables = new ArrayList<>();
		List<String> variableNames = new ArrayList<>();
		for (AnnotationMirror each : annotation.annotations("variables")) {
			Annotation variable = Annotation.of(each, elements);
			String variableName = variable.string("name");
			if (!CEL_IDENTIFIER.matcher(variableName).matches() || CelValue.RESERVED.contains(variableName)) {
				problems.add("the variable name '" + variableName + "' is no CEL identifier, such as owner");
			}
			else if (variableNames.contains(variableName)) {
				problems.add("the variable " + variableName + " is declared twice");
			}
			problems.add(expressions.check("the variable " + variableName, variable.string("expression"), true,
					variableNames, used));
			variableNames.add(variableName);
			variables.add(entry("name", variableName, "expression", variable.string("expression")));
		}
		Map<String, Object> validation = validation(annotation, expressions, variableNames, used, problems);
		nulls(used, operations, kind, problems);
		if (problems.any()) {
			return null;
		}
		Map<String, Object> rule = new LinkedHashMap<>();
		rule.put("apiGroups", List.of(kind.group()));
		rule.put("apiVersions", versions.stream().map(KindVersion::version).toList());
		rule.put("operations", operations);
		rule.put("resources", List.of(kind.names().plural()));
		Map<String, Object> spec = new LinkedHashMap<>();
		spec.put("failurePolicy", Rules.upperCamelCase(annotation.constant("failurePolicy")));
		spec.put("matchConstraints", Map.of("resourceRules", List.of(rule)));
		if (!conditions.isEmpty()) {
			spec.put("matchConditions", conditions);
		}
		if (!variables.isEmpty()) {
			spec.put("variables", variables);
		}
		spec.put("validations", List.of(validation));
		return new Policy(name, type, spec);
	}

	/**
	 * The ValidatingAdmissionPolicy.
	 * @return the policy as maps and lists
	 */
	Map<String, Object> policy() {
		return object("ValidatingAdmissionPolicy", this.spec);
	}

	/**
	 * The ValidatingAdmissionPolicyBinding that makes the API server deny what the policy
	 * refuses, in every namespace.
	 * @return the binding as maps and lists
	 */
	Map<String, Object> binding() {
		Map<String, Object> spec = new LinkedHashMap<>();
		spec.put("policyName", this.name);
		spec.put("validationActions", List.of("Deny"));
		return object("ValidatingAdmissionPolicyBinding", spec);
	}

	private Map<String, Object> object(String kind, Map<String, Object> spec) {
		Map<String, Object> object = new LinkedHashMap<>();
		object.put("apiVersion", API_VERSION);
		object.put("kind", kind);
		object.put("metadata", Map.of("name", this.name));
		object.put("spec", spec);
		return object;
	}

	private static List<Map<String, Object>> matchConditions(Annotation annotation, Elements elements,
			PolicyExpressions expressions, Set<String> used, Problems problems) {
		List<Map<String, Object>> conditions = new ArrayList<>();
		Set<String> names = new HashSet<>();
		for (AnnotationMirror each : annotation.annotations("matchConditions")) {
			Annotation condition = Annotation.of(each, elements);
			String name = condition.string("name");
			if (!QUALIFIED_NAME.matcher(name).matches()) {
				problems.add("the match condition name '" + name + "' must be letters, digits, '-', '_' and '.', "
						+ "starting and ending with a letter or digit, such as exclude-operator");
			}
			else if (!names.add(name)) {
				problems.add("the match condition " + name + " is declared twice");
			}
			problems.add(expressions.check("the match condition " + name, condition.string("expression"), true,
					List.of(), used));
			conditions.add(entry("name", name, "expression", condition.string("expression")));
		}
		if (conditions.size() > MATCH_CONDITIONS) {
			problems.add("the API server takes at most " + MATCH_CONDITIONS + " match conditions, and there are "
					+ conditions.size());
		}
		return conditions;
	}

	private static Map<String, Object> validation(Annotation annotation, PolicyExpressions expressions,
			List<String> variables, Set<String> used, Problems problems) {
		String expression = annotation.string("expression");
		String message = annotation.string("message");
		String messageExpression = annotation.string("messageExpression");
		problems.add(expressions.check("the expression", expression, true, variables, used));
		if (!messageExpression.isEmpty()) {
			problems.add(expressions.check("the messageExpression", messageExpression, false, variables, used));
		}
		if (message.contains("\n") || message.contains("\r")) {
			problems.add("the message must be one line");
		}
		else if (!message.isEmpty() && message.isBlank()) {
			problems.add("the message must not be blank");
		}
		else if (message.isEmpty() && (expression.contains("\n") || expression.contains("\r"))) {
			problems.add("an expression of several lines needs a message");
		}
		Map<String, Object> validation = new LinkedHashMap<>();
		validation.put("expression", expression);
		if (!message.isEmpty()) {
			validation.put("message", message);
		}
		if (!messageExpression.isEmpty()) {
			validation.put("messageExpression", messageExpression);
		}
		validation.put("reason", Rules.upperCamelCase(annotation.constant("reason")));
		return validation;
	}

	/**
	 * Refuses the names the API server gives as {@code null} to every request the policy
	 * checks.
	 */
	private static void nulls(Set<String> used, List<String> operations, KindVersion kind, Problems problems) {
		if (used.contains("object") && operations.equals(List.of("DELETE"))) {
			problems.add(
					"object is null on DELETE, the only operation checked: the object being deleted is " + "oldObject");
		}
		if (used.contains("oldObject") && !operations.isEmpty() && !operations.contains("UPDATE")
				&& !operations.contains("DELETE")) {
			problems.add("oldObject is null on " + String.join(" and ", operations) + ", the only operation"
					+ ((operations.size() > 1) ? "s" : "") + " checked: there is an old object on UPDATE and DELETE");
		}
		if (used.contains("namespaceObject") && kind.names().scope().equals("Cluster")) {
			problems.add("namespaceObject is null for " + kind.kind() + ", which is cluster-scoped");
		}
	}

	private static Map<String, Object> entry(String key, Object value, String otherKey, Object otherValue) {
		Map<String, Object> entry = new LinkedHashMap<>();
		entry.put(key, value);
		entry.put(otherKey, otherValue);
		return entry;
	}

	/**
	 * The problems of one policy, reported as errors on its annotation:
	 * {@code @AdmissionPolicy 'protected' on com.example.Bucket: problem}.
	 */
	private static final class Problems {

		private final TypeElement type;

		private final AnnotationMirror mirror;

		private final String name;

		private final Diagnostics diagnostics;

		private boolean any;

		Problems(TypeElement type, AnnotationMirror mirror, String name, Diagnostics diagnostics) {
			this.type = type;
			this.mirror = mirror;
			this.name = name;
			this.diagnostics = diagnostics;
		}

		/** Reports a problem, if there is one. */
		void add(String problem) {
			if (problem != null) {
				this.any = true;
				this.diagnostics.error(this.type, this.mirror,
						"@AdmissionPolicy '" + this.name + "' on " + this.type.getQualifiedName() + ": " + problem);
			}
		}

		boolean any() {
			return this.any;
		}

	}

}
