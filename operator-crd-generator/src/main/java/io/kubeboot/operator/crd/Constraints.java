package io.kubeboot.operator.crd;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.lang.model.element.Element;
import javax.lang.model.element.VariableElement;

/**
 * Turns the Jakarta Validation constraints of a property (read by name, from
 * {@code jakarta.validation.constraints} or {@code javax.validation.constraints}) and the
 * schema annotations of {@code io.kubeboot.operator.model} into keywords of its schema,
 * which the API server then enforces.
 */
final class Constraints {

	static final String MODEL = "io.kubeboot.operator.model.";

	private final Diagnostics diagnostics;

	Constraints(Diagnostics diagnostics) {
		this.diagnostics = diagnostics;
	}

	/**
	 * Adds the keywords of the annotations to a schema.
	 * @param annotations the annotations by type name
	 * @param schema the schema of the annotated property or type
	 * @param where the element to report problems on
	 * @param what the property for messages
	 * @return whether the annotations make the property required
	 */
	boolean apply(Map<String, Annotation> annotations, Schema schema, Element where, String what) {
		boolean required = false;
		for (Annotation annotation : annotations.values()) {
			String name = constraintName(annotation.type());
			if (name != null) {
				required |= applyConstraint(name, annotation, schema, where, what);
			}
			else if (annotation.type().startsWith(MODEL)) {
				applyModel(annotation.type().substring(MODEL.length()), annotation, schema, where, what);
			}
		}
		return required;
	}

	private boolean applyConstraint(String name, Annotation annotation, Schema schema, Element where, String what) {
		String type = schema.type();
		switch (name) {
			case "NotNull" -> {
				return true;
			}
			case "NotBlank" -> {
				if (expect(annotation, schema, where, what, "string")) {
					schema.atLeast("minLength", BigDecimal.ONE);
				}
				return true;
			}
			case "NotEmpty" -> {
				if (expect(annotation, schema, where, what, "string", "array", "object")) {
					schema.atLeast(sizeKeyword(type, "min"), BigDecimal.ONE);
				}
				return true;
			}
			case "Size" -> {
				if (expect(annotation, schema, where, what, "string", "array", "object")) {
					int min = annotation.integer("min");
					int max = annotation.integer("max");
					if (min > 0) {
						schema.atLeast(sizeKeyword(type, "min"), BigDecimal.valueOf(min));
					}
					if (max != Integer.MAX_VALUE) {
						schema.atMost(sizeKeyword(type, "max"), BigDecimal.valueOf(max));
					}
				}
			}
			case "Min" ->
				bound(annotation, schema, where, what, BigDecimal.valueOf(annotation.number("value")), true, true);
			case "Max" ->
				bound(annotation, schema, where, what, BigDecimal.valueOf(annotation.number("value")), false, true);
			case "DecimalMin" -> bound(annotation, schema, where, what, decimal(annotation, where, what), true,
					annotation.bool("inclusive"));
			case "DecimalMax" -> bound(annotation, schema, where, what, decimal(annotation, where, what), false,
					annotation.bool("inclusive"));
			case "Positive" -> sign(annotation, schema, where, what, true, false);
			case "PositiveOrZero" -> sign(annotation, schema, where, what, true, true);
			case "Negative" -> sign(annotation, schema, where, what, false, false);
			case "NegativeOrZero" -> sign(annotation, schema, where, what, false, true);
			case "Pattern" -> {
				if (expect(annotation, schema, where, what, "string")) {
					String regexp = annotation.string("regexp");
					List<?> flags = (List<?>) annotation.values().get("flags");
					for (Object flag : flags) {
						String flagName = ((VariableElement) flag).getSimpleName().toString();
						if (flagName.equals("CASE_INSENSITIVE")) {
							regexp = "(?i)" + regexp;
						}
						else {
							this.diagnostics.warning(where, "@Pattern flag " + flagName + " of " + what
									+ " has no equivalent in the CustomResourceDefinition's pattern and is left out");
						}
					}
					schema.put("pattern", regexp);
				}
			}
			case "Email" -> {
				if (expect(annotation, schema, where, what, "string")) {
					schema.put("format", "email");
				}
			}
			default -> {
				// other constraints (@Valid, @Past, @AssertTrue, ...) have no schema
				// keyword
			}
		}
		return false;
	}

	private void applyModel(String name, Annotation annotation, Schema schema, Element where, String what) {
		switch (name) {
			case "AllowedValues" -> {
				if (expect(annotation, schema, where, what, "string")) {
					schema.put("enum", annotation.strings("value"));
				}
			}
			case "Format" -> schema.put("format", annotation.string("value"));
			case "ListType" -> listType(annotation, schema, where, what);
			default -> {
				// PreserveUnknownFields decides the schema before constraints apply
			}
		}
	}

	private void listType(Annotation annotation, Schema schema, Element where, String what) {
		if (!expect(annotation, schema, where, what, "array")) {
			return;
		}
		String listType = annotation.constant("value");
		List<String> keys = annotation.strings("mapKeys");
		Schema items = (Schema) schema.get("items");
		schema.put("x-kubernetes-list-type", listType.toLowerCase(Locale.ROOT));
		if (listType.equals("MAP")) {
			if (keys.isEmpty() || !"object".equals(items.type())) {
				this.diagnostics.error(where, annotation.mirror(), "@ListType(MAP) on " + what
						+ " needs items of a class and mapKeys naming the fields that identify an item");
				return;
			}
			for (String key : keys) {
				if (!items.properties().containsKey(key) || !items.required().contains(key)) {
					this.diagnostics.error(where, annotation.mirror(), "@ListType(MAP) on " + what + ": map key '" + key
							+ "' must be a required field of the items (annotate it with @NotNull); the items have "
							+ items.properties().keySet() + ", required " + items.required());
					return;
				}
			}
			schema.put("x-kubernetes-list-map-keys", keys);
		}
		else if (!keys.isEmpty()) {
			this.diagnostics.error(where, annotation.mirror(),
					"@ListType(" + listType + ") on " + what + " takes no mapKeys; they are for ListType.Type.MAP");
		}
		else if (listType.equals("SET") && ("object".equals(items.type()) || "array".equals(items.type()))) {
			this.diagnostics.error(where, annotation.mirror(),
					"@ListType(SET) on " + what + " needs items of a scalar type (strings, numbers, booleans)");
		}
	}

	private void bound(Annotation annotation, Schema schema, Element where, String what, BigDecimal value,
			boolean lower, boolean inclusive) {
		if (value == null || !expect(annotation, schema, where, what, "integer", "number")) {
			return;
		}
		if (lower) {
			schema.atLeast("minimum", value);
		}
		else {
			schema.atMost("maximum", value);
		}
		if (!inclusive) {
			schema.put(lower ? "exclusiveMinimum" : "exclusiveMaximum", true);
		}
	}

	private void sign(Annotation annotation, Schema schema, Element where, String what, boolean positive,
			boolean orZero) {
		if (!expect(annotation, schema, where, what, "integer", "number")) {
			return;
		}
		boolean integer = "integer".equals(schema.type());
		if (orZero || !integer) {
			bound(annotation, schema, where, what, BigDecimal.ZERO, positive, orZero);
		}
		else {
			bound(annotation, schema, where, what, positive ? BigDecimal.ONE : BigDecimal.ONE.negate(), positive, true);
		}
	}

	private BigDecimal decimal(Annotation annotation, Element where, String what) {
		try {
			return new BigDecimal(annotation.string("value"));
		}
		catch (NumberFormatException ex) {
			this.diagnostics.error(where, annotation.mirror(),
					annotation.simpleName() + " on " + what + ": '" + annotation.string("value") + "' is not a number");
			return null;
		}
	}

	private boolean expect(Annotation annotation, Schema schema, Element where, String what, String... types) {
		if (List.of(types).contains(schema.type())) {
			return true;
		}
		this.diagnostics.error(where, annotation.mirror(),
				annotation.simpleName() + " on " + what + " applies to a schema of type " + String.join(" or ", types)
						+ ", and this one is " + ((schema.type() != null) ? schema.type() : "untyped"));
		return false;
	}

	private static String sizeKeyword(String type, String bound) {
		return switch (type) {
			case "string" -> bound + "Length";
			case "array" -> bound + "Items";
			default -> bound + "Properties";
		};
	}

	/** The simple name of a Jakarta (or javax) constraint, {@code null} for others. */
	private static String constraintName(String type) {
		for (String prefix : List.of("jakarta.validation.constraints.", "javax.validation.constraints.")) {
			if (type.startsWith(prefix)) {
				return type.substring(prefix.length());
			}
		}
		return null;
	}

}
