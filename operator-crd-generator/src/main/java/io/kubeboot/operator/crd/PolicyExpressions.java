package io.kubeboot.operator.crd;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The CEL expressions of a kind's ValidatingAdmissionPolicy, checked with {@link Cel}
 * against the names the API server declares to them: {@code object} and {@code oldObject}
 * with the schema of every version of the kind, {@code request} and
 * {@code namespaceObject} with the fields the API server gives them, {@code authorizer}
 * (not to a message expression), and {@code variables} with the policy's variables;
 * {@code params} is none of them, as the policy has no {@code paramKind}. A policy sees
 * objects as plain JSON, so field names are written as they are, without the escapes of a
 * schema's rules.
 */
final class PolicyExpressions {

	/** A value the check knows nothing of. */
	private static final Schema ANY = new Schema();

	private static final Schema REQUEST = request();

	private static final Schema NAMESPACE = namespace();

	private final List<KindVersion> versions;

	/**
	 * Creates the check of a kind's policies.
	 * @param versions the kind's versions, whose schemas {@code object} and
	 * {@code oldObject} have
	 */
	PolicyExpressions(List<KindVersion> versions) {
		this.versions = versions;
	}

	/**
	 * Checks an expression, first with {@code object} of any content, then with the
	 * schema of each version of the kind.
	 * @param what the expression for messages, such as {@code the expression}
	 * @param expression the expression
	 * @param authorizer whether it may use {@code authorizer}
	 * @param variables the variables it may use as {@code variables.<name>}; with none it
	 * may not use {@code variables}
	 * @param used where the names it uses are added
	 * @return what is wrong, or {@code null} if nothing is
	 */
	String check(String what, String expression, boolean authorizer, List<String> variables, Set<String> used) {
		String problem = check(what, expression, declared(ANY, authorizer, variables), null, used);
		for (KindVersion version : this.versions) {
			if (problem != null) {
				return problem;
			}
			problem = check(what, expression, declared(version.schema(), authorizer, variables),
					(this.versions.size() > 1) ? version.version() : null, used);
		}
		return problem;
	}

	private static String check(String what, String expression, Map<String, Schema> declared, String version,
			Set<String> used) {
		try {
			used.addAll(Cel.check(expression, declared, false, known(declared)));
			return null;
		}
		catch (CelException ex) {
			List<String> where = new ArrayList<>();
			if (version != null) {
				where.add("in version " + version);
			}
			if (ex.position() >= 0) {
				where.add("at character " + (ex.position() + 1));
			}
			return what + " '" + expression + "' " + ex.getMessage()
					+ (where.isEmpty() ? "" : " (" + String.join(", ", where) + ")");
		}
	}

	private static Map<String, Schema> declared(Schema object, boolean authorizer, List<String> variables) {
		Map<String, Schema> declared = new LinkedHashMap<>();
		declared.put("object", object);
		declared.put("oldObject", object);
		declared.put("request", REQUEST);
		declared.put("namespaceObject", NAMESPACE);
		if (authorizer) {
			declared.put("authorizer", ANY);
		}
		if (!variables.isEmpty()) {
			Schema values = Schema.ofType("object");
			variables.forEach((name) -> values.properties().put(name, ANY));
			declared.put("variables", values);
		}
		return declared;
	}

	/** What an expression may use, for the message about a name it may not. */
	private static String known(Map<String, Schema> declared) {
		return "a policy knows " + String.join(", ", declared.keySet())
				+ " and the variables of its macros, such as x in object.spec.items.all(x, ...)";
	}

	/** The fields the API server gives {@code request}, as it declares them to CEL. */
	private static Schema request() {
		Schema userInfo = Schema.ofType("object");
		userInfo.properties().put("username", Schema.ofType("string"));
		userInfo.properties().put("uid", Schema.ofType("string"));
		userInfo.properties().put("groups", stringList());
		userInfo.properties().put("extra", Schema.ofType("object").put("additionalProperties", stringList()));
		Schema request = Schema.ofType("object");
		request.properties().put("kind", stringFields("group", "version", "kind"));
		request.properties().put("resource", stringFields("group", "version", "resource"));
		request.properties().put("subResource", Schema.ofType("string"));
		request.properties().put("requestKind", stringFields("group", "version", "kind"));
		request.properties().put("requestResource", stringFields("group", "version", "resource"));
		request.properties().put("requestSubResource", Schema.ofType("string"));
		request.properties().put("name", Schema.ofType("string"));
		request.properties().put("namespace", Schema.ofType("string"));
		request.properties().put("operation", Schema.ofType("string"));
		request.properties().put("userInfo", userInfo);
		request.properties().put("dryRun", Schema.ofType("boolean"));
		request.properties().put("options", ANY);
		return request;
	}

	/**
	 * The fields the API server gives {@code namespaceObject}, as it declares them to CEL
	 * (it declares the metadata's uid as {@code UID} but gives it as {@code uid}, so that
	 * neither works, and it is left out).
	 */
	private static Schema namespace() {
		Schema metadata = stringFields("name", "generateName", "namespace", "creationTimestamp", "deletionTimestamp",
				"resourceVersion");
		metadata.properties().put("labels", stringMap());
		metadata.properties().put("annotations", stringMap());
		metadata.properties().put("deletionGracePeriodSeconds", Schema.ofType("integer"));
		metadata.properties().put("generation", Schema.ofType("integer"));
		metadata.properties().put("finalizers", stringList());
		Schema spec = Schema.ofType("object");
		spec.properties().put("finalizers", stringList());
		Schema condition = stringFields("status", "type", "lastTransitionTime", "message", "reason");
		Schema status = Schema.ofType("object");
		status.properties().put("conditions", Schema.ofType("array").put("items", condition));
		status.properties().put("phase", Schema.ofType("string"));
		Schema namespace = Schema.ofType("object");
		namespace.properties().put("metadata", metadata);
		namespace.properties().put("spec", spec);
		namespace.properties().put("status", status);
		return namespace;
	}

	private static Schema stringFields(String... fields) {
		Schema object = Schema.ofType("object");
		for (String field : fields) {
			object.properties().put(field, Schema.ofType("string"));
		}
		return object;
	}

	private static Schema stringList() {
		return Schema.ofType("array").put("items", Schema.ofType("string"));
	}

	private static Schema stringMap() {
		return Schema.ofType("object").put("additionalProperties", Schema.ofType("string"));
	}

}
