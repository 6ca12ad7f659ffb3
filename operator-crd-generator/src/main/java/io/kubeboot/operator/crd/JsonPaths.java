package io.kubeboot.operator.crd;

/**
 * Checks the field names of a printer column's JSONPath against the schema, so that a
 * typo fails the build instead of showing an empty column.
 */
final class JsonPaths {

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

}
