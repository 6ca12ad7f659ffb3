package io.kubeboot.operator.crd;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;

/**
 * Turns {@code @ValidationRule} and {@code @Immutable} into the CEL rules of a schema
 * ({@code x-kubernetes-validations}), each checked against the schema it sits on: the
 * rule and its message expression with {@link Cel}, the field path with
 * {@link JsonPaths#fieldPath}. Once the whole schema is built,
 * {@link #checkTransitions(Schema)} refuses rules on {@code oldSelf} where the API server
 * cannot tell an old value from a new one.
 */
final class Rules {

	private static final String RULE = Constraints.MODEL + "ValidationRule";

	private static final String RULES = Constraints.MODEL + "ValidationRules";

	private static final String IMMUTABLE = Constraints.MODEL + "Immutable";

	private final Elements elements;

	private final Diagnostics diagnostics;

	Rules(Elements elements, Diagnostics diagnostics) {
		this.elements = elements;
		this.diagnostics = diagnostics;
	}

	/**
	 * Adds the rules of a class, and of its superclasses (theirs first), to the schema of
	 * its objects.
	 * @param type the class
	 * @param schema its schema, with all its properties
	 */
	void forClass(TypeElement type, Schema schema) {
		List<TypeElement> hierarchy = new ArrayList<>();
		TypeElement current = type;
		while (current != null && !current.getQualifiedName().toString().startsWith("java.")) {
			hierarchy.add(0, current);
			TypeMirror superclass = current.getSuperclass();
			current = (superclass.getKind() == TypeKind.DECLARED)
					? (TypeElement) ((DeclaredType) superclass).asElement() : null;
		}
		for (TypeElement each : hierarchy) {
			List<Annotation> annotations = new ArrayList<>();
			for (AnnotationMirror mirror : each.getAnnotationMirrors()) {
				annotations.add(Annotation.of(mirror, this.elements));
			}
			String what = each.getQualifiedName().toString();
			for (Annotation rule : rules(annotations)) {
				add(schema, rule, new Origin(each, rule.mirror(), what));
			}
		}
	}

	/**
	 * Adds the rules of a field to its schema, and for {@code @Immutable} the rule that
	 * keeps it from being removed to the schema of the object holding it.
	 * @param annotations the annotations of the field and its getter
	 * @param property the property
	 * @param schema the field's schema
	 * @param parent the schema of the object holding the field
	 */
	void forField(List<Annotation> annotations, Properties.Property property, Schema schema, Schema parent) {
		String what = property.describe();
		for (Annotation rule : rules(annotations)) {
			add(schema, rule, new Origin(property.field(), rule.mirror(), what));
		}
		for (Annotation immutable : annotations) {
			if (immutable.type().equals(IMMUTABLE)) {
				immutable(immutable, property, schema, parent, new Origin(property.field(), immutable.mirror(), what));
			}
		}
	}

	private void immutable(Annotation immutable, Properties.Property property, Schema schema, Schema parent,
			Origin origin) {
		String message = immutable.string("message");
		if (!checkMessage(message, origin)) {
			return;
		}
		schema.rules().add(new Rule("self == oldSelf", message, "", "", "", false, true, origin));
		if (parent.required().contains(property.name())) {
			// a required field cannot be removed anyway
			return;
		}
		String name = CelValue.escape(property.name());
		if (name == null) {
			origin.error(this.diagnostics, "a CEL rule cannot name the JSON property '" + property.name()
					+ "', so nothing keeps it from being removed; make the field @NotNull");
			return;
		}
		String fieldPath = property.name().matches("[a-zA-Z_][a-zA-Z0-9_]*") ? "." + property.name()
				: "['" + property.name() + "']";
		parent.rules()
			.add(new Rule("!has(oldSelf." + name + ") || has(self." + name + ")", message, "", "", fieldPath, false,
					true, origin));
	}

	private void add(Schema schema, Annotation annotation, Origin origin) {
		String rule = annotation.string("value");
		String message = annotation.string("message");
		String messageExpression = annotation.string("messageExpression");
		String fieldPath = annotation.string("fieldPath");
		boolean optionalOldSelf = annotation.bool("optionalOldSelf");
		int errors = this.diagnostics.errors();
		boolean transition = check(rule, "the rule", schema, origin);
		if (!messageExpression.isEmpty()) {
			check(messageExpression, "the messageExpression", schema, origin);
		}
		checkMessage(message, origin);
		if (optionalOldSelf && !transition && this.diagnostics.errors() == errors) {
			origin.error(this.diagnostics,
					"optionalOldSelf is for rules that use oldSelf, and '" + rule + "' does not");
		}
		if (!fieldPath.isEmpty()) {
			String problem = JsonPaths.fieldPath(schema, fieldPath);
			if (problem != null) {
				origin.error(this.diagnostics, problem);
			}
		}
		String reason = annotation.constant("reason");
		schema.rules()
			.add(new Rule(rule, message, messageExpression,
					reason.equals("FIELD_VALUE_INVALID") ? "" : upperCamelCase(reason), fieldPath, optionalOldSelf,
					transition, origin));
	}

	private boolean check(String expression, String what, Schema schema, Origin origin) {
		try {
			return Cel.check(expression, schema);
		}
		catch (CelException ex) {
			String at = (ex.position() >= 0) ? " (at character " + (ex.position() + 1) + ")" : "";
			origin.error(this.diagnostics, what + " '" + expression + "' " + ex.getMessage() + at);
			return false;
		}
	}

	private boolean checkMessage(String message, Origin origin) {
		if (message.contains("\n") || message.contains("\r")) {
			origin.error(this.diagnostics, "the message must be one line");
			return false;
		}
		return true;
	}

	/**
	 * Refuses transition rules (on {@code oldSelf}) in the items of a list that is not a
	 * {@code map} list: the API server cannot pair an item with its old self there.
	 * @param root the root schema
	 */
	void checkTransitions(Schema root) {
		checkTransitions(root, "", true);
	}

	private void checkTransitions(Schema schema, String path, boolean correlatable) {
		if (!correlatable) {
			for (Rule rule : schema.rules()) {
				if (rule.transition()) {
					rule.origin()
						.error(this.diagnostics,
								"the rule '" + rule.rule() + "' compares with oldSelf, which the API server cannot "
										+ "do at " + path + ": the items of a list are paired with their old "
										+ "values only in a list of @ListType(MAP)");
				}
			}
		}
		schema.properties().forEach((name, child) -> checkTransitions(child, path + "." + name, correlatable));
		if (schema.items() != null) {
			checkTransitions(schema.items(), path + "[*]",
					correlatable && "map".equals(schema.get("x-kubernetes-list-type")));
		}
		if (schema.additionalProperties() != null) {
			checkTransitions(schema.additionalProperties(), path + ".*", correlatable);
		}
	}

	/** The {@code @ValidationRule} annotations among some, repeated ones unwrapped. */
	private List<Annotation> rules(List<Annotation> annotations) {
		List<Annotation> rules = new ArrayList<>();
		for (Annotation annotation : annotations) {
			if (annotation.type().equals(RULE)) {
				rules.add(annotation);
			}
			else if (annotation.type().equals(RULES)) {
				for (AnnotationMirror each : annotation.annotations("value")) {
					rules.add(Annotation.of(each, this.elements));
				}
			}
		}
		return rules;
	}

	/**
	 * An enum constant's name in the API's spelling.
	 * @param constant the name, such as {@code FIELD_VALUE_FORBIDDEN}
	 * @return the name in upper camel case, such as {@code FieldValueForbidden}
	 */
	static String upperCamelCase(String constant) {
		StringBuilder name = new StringBuilder();
		for (String word : constant.toLowerCase(Locale.ROOT).split("_")) {
			name.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
		}
		return name.toString();
	}

}
