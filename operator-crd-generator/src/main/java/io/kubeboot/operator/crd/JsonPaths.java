package io.kubeboot.operator.crd;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks the paths that parts of a CustomResourceDefinition give to fields against the
 * schema, so that a typo fails the build instead of the API server refusing the CRD or
 * showing nothing: printer columns' JSONPaths, the paths of selectable fields and of the
 * scale subresource, and the field paths of CEL rules.
 */
final class JsonPaths {

	private static final Pattern FIELD_PATH_SEGMENT = Pattern
		.compile("\\.([^.\\[\\]'\"]+)|\\['([^']*)'\\]|\\[\"([^\"]*)\"\\]");

	private JsonPaths() {
	}

	/**
	 * Finds the first field of a JSONPath that the schema does not have. Only the plain
	 * {@code .a.b.c} part before any {@code [} is checked, and nothing below a schema
	 * that has no properties of its own (such as {@code metadata}).
	 * @param root the root schema
	 * @param jsonPath the JSONPath, such as {@code .spec.endpoint}
	 * @return what is wrong, or {@code null} if nothing is
	 */
	static String unknownField(Schema root, String jsonPath) {
		if (!jsonPath.startsWith(".")) {
			return "the jsonPath '" + jsonPath + "' must start with a dot, such as .spec.name";
		}
		int bracket = jsonPath.indexOf('[');
		String plain = (bracket >= 0) ? jsonPath.substring(0, bracket) : jsonPath;
		Schema current = root;
		String path = "";
		for (String segment : plain.substring(1).split("\\.")) {
			if (segment.isEmpty() || current.properties().isEmpty()) {
				return null;
			}
			Schema next = current.properties().get(segment);
			if (next == null) {
				return "the jsonPath '" + jsonPath + "' names the field '" + segment + "', which "
						+ (path.isEmpty() ? "the kind" : path) + " does not have; it has "
						+ current.properties().keySet();
			}
			path = path + "." + segment;
			current = next.has("items") ? (Schema) next.get("items") : next;
		}
		return null;
	}

	/**
	 * Finds the field a path of field names leads to, such as {@code .spec.replicas}:
	 * through properties only, neither into a list nor into a map.
	 * @param root the root schema
	 * @param path the path
	 * @param what the path for messages, such as {@code the specReplicasPath}
	 * @return the field's schema, or what is wrong
	 */
	static Field field(Schema root, String path, String what) {
		if (!path.matches("(\\.[^.\\[\\]]+)+")) {
			return new Field(null, what + " '" + path + "' must be field names after dots, such as .spec.replicas");
		}
		Schema current = root;
		String at = "";
		for (String segment : path.substring(1).split("\\.")) {
			if (current.items() != null || current.additionalProperties() != null) {
				return new Field(null,
						what + " '" + path + "' goes into " + at + ", which is a "
								+ ((current.items() != null) ? "list" : "map")
								+ "; it must lead to a field through fields only");
			}
			Schema next = current.properties().get(segment);
			if (next == null) {
				return new Field(null, what + " '" + path + "' names the field '" + segment + "', which "
						+ (at.isEmpty() ? "the kind" : at) + " does not have; it has " + current.properties().keySet());
			}
			at = at + "." + segment;
			current = next;
		}
		return new Field(current, null);
	}

	/**
	 * Finds the first problem of a CEL rule's {@code fieldPath}: a path relative to the
	 * rule's schema of {@code .field} and {@code ['key']} steps, through objects and maps
	 * but not into a list.
	 * @param self the schema the rule is on
	 * @param fieldPath the path, such as {@code .spec.replicas} or
	 * {@code .labels['app.kubernetes.io/name']}
	 * @return what is wrong, or {@code null} if nothing is
	 */
	static String fieldPath(Schema self, String fieldPath) {
		List<String> segments = new ArrayList<>();
		Matcher matcher = FIELD_PATH_SEGMENT.matcher(fieldPath);
		int end = 0;
		while (matcher.find() && matcher.start() == end) {
			segments.add((matcher.group(1) != null) ? matcher.group(1)
					: (matcher.group(2) != null) ? matcher.group(2) : matcher.group(3));
			end = matcher.end();
		}
		if (segments.isEmpty() || end != fieldPath.length()) {
			return "the fieldPath '" + fieldPath + "' must be .field and ['key'] steps, such as .spec.replicas";
		}
		Schema current = self;
		String at = "self";
		for (String segment : segments) {
			Schema next = current.properties().get(segment);
			if (next == null && current.additionalProperties() != null) {
				next = current.additionalProperties();
			}
			if (next == null && current.items() != null) {
				return "the fieldPath '" + fieldPath + "' goes into " + at + ", which is a list; a fieldPath may name "
						+ "the list but not its items";
			}
			if (next == null && (current.has("x-kubernetes-preserve-unknown-fields")
					|| (current.properties().isEmpty() && !isScalar(current)))) {
				// nothing known below, such as metadata
				return null;
			}
			if (next == null) {
				return "the fieldPath '" + fieldPath + "' names the field '" + segment + "', which " + at
						+ (current.properties().isEmpty() ? " (a " + current.type() + ") does not have"
								: " does not have; it has " + current.properties().keySet());
			}
			at = at + "." + segment;
			current = next;
		}
		return null;
	}

	private static boolean isScalar(Schema schema) {
		return schema.type() != null && !schema.type().equals("object");
	}

	/**
	 * Where a path leads.
	 *
	 * @param schema the field's schema, or {@code null} if the path is wrong
	 * @param problem what is wrong, or {@code null}
	 */
	record Field(Schema schema, String problem) {

	}

}
