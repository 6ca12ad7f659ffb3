package io.kubeboot.operator.crd;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.Element;

/**
 * Turns {@code @Default} into the {@code default} of a field's schema, checked to be a
 * value of the schema: JSON of its type (a string field also takes its text as it is),
 * one of its {@code enum} values, objects with the fields and required fields of the
 * schema, all the way down. The API server checks the rest (bounds, patterns, formats,
 * CEL rules) when it is given the CustomResourceDefinition.
 */
final class Defaults {

	private static final String DEFAULT = Constraints.MODEL + "Default";

	private static final Map<String, String> EXAMPLES = Map.of("string", "text", "integer", "3", "number", "0.5",
			"boolean", "true", "array", "[\"a\", \"b\"]", "object", "{\"name\": \"value\"}");

	private final Diagnostics diagnostics;

	Defaults(Diagnostics diagnostics) {
		this.diagnostics = diagnostics;
	}

	/**
	 * Adds the default of a field to its schema.
	 * @param annotations the field's annotations by type name
	 * @param schema the field's schema, with its constraints
	 * @param where the element to report problems on
	 * @param what the field for messages
	 */
	void apply(Map<String, Annotation> annotations, Schema schema, Element where, String what) {
		Annotation annotation = annotations.get(DEFAULT);
		if (annotation == null) {
			return;
		}
		String literal = annotation.string("value");
		boolean intOrString = schema.has("x-kubernetes-int-or-string");
		Object value;
		if ("string".equals(schema.type()) && !literal.startsWith("\"")) {
			value = literal;
		}
		else {
			try {
				value = Json.parse(literal);
			}
			catch (IllegalArgumentException ex) {
				if (!intOrString) {
					String type = (schema.type() != null) ? schema.type() : "any JSON value";
					this.diagnostics.error(where, annotation.mirror(),
							"@Default on " + what + ": '" + literal + "' is not JSON (" + ex.getMessage()
									+ "); the field is " + article(type)
									+ (EXAMPLES.containsKey(type) ? ", such as " + EXAMPLES.get(type) : ""));
					return;
				}
				value = literal;
			}
		}
		String nullAt = nullAt(value, "");
		String problem = (nullAt != null) ? "the default" + (nullAt.isEmpty() ? "" : "'s " + nullAt)
				+ " is null, which is no default: leave it out" : check(value, schema, "");
		if (problem != null) {
			this.diagnostics.error(where, annotation.mirror(), "@Default on " + what + ": " + problem);
			return;
		}
		schema.put("default", value);
	}

	/** What is wrong with a value of a schema, or {@code null}. */
	private static String check(Object value, Schema schema, String path) {
		String subject = path.isEmpty() ? "the default" : "the default's " + path;
		if (schema.has("x-kubernetes-int-or-string")) {
			return (value instanceof String || value instanceof Long) ? null
					: subject + " is " + describe(value) + ", and must be an integer or a string";
		}
		String type = schema.type();
		if (type == null) {
			return null;
		}
		if (!type.equals(typeOf(value)) && !(type.equals("number") && "integer".equals(typeOf(value)))) {
			return subject + " is " + describe(value) + ", and must be " + article(type);
		}
		if (schema.get("enum") instanceof List<?> allowed && !allowed.contains(value)) {
			return subject + " is '" + value + "', which is not one of the allowed values " + allowed;
		}
		if (value instanceof Long number && "int32".equals(schema.get("format"))
				&& (number < Integer.MIN_VALUE || number > Integer.MAX_VALUE)) {
			return subject + " is " + number + ", which an int32 cannot hold";
		}
		if (value instanceof List<?> list && schema.items() != null) {
			for (int i = 0; i < list.size(); i++) {
				String problem = check(list.get(i), schema.items(), path + "[" + i + "]");
				if (problem != null) {
					return problem;
				}
			}
		}
		if (value instanceof Map<?, ?> map) {
			return checkObject(map, schema, path);
		}
		return null;
	}

	/** Where a value holds a null, or {@code null} if it holds none. */
	private static String nullAt(Object value, String path) {
		if (value == Json.NULL) {
			return path;
		}
		if (value instanceof List<?> list) {
			for (int i = 0; i < list.size(); i++) {
				String at = nullAt(list.get(i), path + "[" + i + "]");
				if (at != null) {
					return at;
				}
			}
		}
		if (value instanceof Map<?, ?> map) {
			for (Map.Entry<?, ?> entry : map.entrySet()) {
				String at = nullAt(entry.getValue(), path + "." + entry.getKey());
				if (at != null) {
					return at;
				}
			}
		}
		return null;
	}

	private static String checkObject(Map<?, ?> object, Schema schema, String path) {
		for (Map.Entry<?, ?> entry : object.entrySet()) {
			String name = (String) entry.getKey();
			Schema field = schema.properties().get(name);
			if (field == null) {
				field = schema.additionalProperties();
			}
			if (field == null && !schema.properties().isEmpty()
					&& !schema.has("x-kubernetes-preserve-unknown-fields")) {
				return (path.isEmpty() ? "the default" : "the default's " + path) + " has the field '" + name
						+ "', which " + (path.isEmpty() ? "the field's type" : "its type") + " does not have; it has "
						+ schema.properties().keySet();
			}
			if (field != null) {
				String problem = check(entry.getValue(), field, path + "." + name);
				if (problem != null) {
					return problem;
				}
			}
		}
		for (String required : schema.required()) {
			if (!object.containsKey(required)) {
				return (path.isEmpty() ? "the default" : "the default's " + path) + " lacks the required field '"
						+ required + "'";
			}
		}
		return null;
	}

	private static String typeOf(Object value) {
		if (value instanceof String) {
			return "string";
		}
		if (value instanceof Long) {
			return "integer";
		}
		if (value instanceof BigDecimal decimal) {
			return (decimal.stripTrailingZeros().scale() <= 0 && !decimal.toString().contains("E")
					&& !decimal.toString().contains(".")) ? "integer" : "number";
		}
		if (value instanceof Boolean) {
			return "boolean";
		}
		return (value instanceof List<?>) ? "array" : "object";
	}

	private static String describe(Object value) {
		return article(typeOf(value)) + " (" + ((value instanceof String) ? "\"" + value + "\"" : value) + ")";
	}

	private static String article(String type) {
		return switch (type) {
			case "integer", "array", "object" -> "an " + type;
			case "any JSON value" -> type;
			default -> "a " + type;
		};
	}

}
