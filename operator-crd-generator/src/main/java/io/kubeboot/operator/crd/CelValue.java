package io.kubeboot.operator.crd;

import java.util.Set;

import io.kubeboot.operator.crd.CelLexer.Token;

/**
 * What an expression of a CEL rule is, as far as {@link Cel} follows it through the
 * schema: {@code self}, a field selected from it, an item of a list or a value of a map
 * in it, a macro's variable; and the names rules give properties, as the API server
 * escapes them.
 *
 * @param schema the schema of its value, or {@code null} if unknown
 * @param path the expression for messages, such as {@code self.spec}, or {@code null}
 * @param selection whether it ends with a field selection (as {@code has()} needs)
 */
record CelValue(Schema schema, String path, boolean selection) {

	/**
	 * CEL's reserved words, which select no field and name no variable.
	 */
	static final Set<String> RESERVED = Set.of("as", "break", "const", "continue", "else", "for", "function", "if",
			"import", "let", "loop", "package", "namespace", "return", "var", "in", "true", "false", "null");

	/**
	 * The words CEL's grammar reads as literals or operators, which no field selection
	 * can name.
	 */
	private static final Set<String> LITERALS = Set.of("in", "true", "false", "null");

	/**
	 * A value the check knows nothing of: a literal, or the result of an operator or
	 * function.
	 */
	static final CelValue UNKNOWN = new CelValue(null, null, false);

	/**
	 * A property's name as a rule selects it: CEL's reserved words as {@code __word__},
	 * {@code __} as {@code __underscores__}, {@code .}, {@code -} and {@code /} as
	 * {@code __dot__}, {@code __dash__} and {@code __slash__}.
	 * @param name the property's name
	 * @return the name in CEL, or {@code null} if a rule cannot select it
	 */
	static String escape(String name) {
		if (RESERVED.contains(name)) {
			return "__" + name + "__";
		}
		if (!name.matches("[a-zA-Z_./-][a-zA-Z0-9_./-]*")) {
			return null;
		}
		return name.replace("__", "__underscores__")
			.replace(".", "__dot__")
			.replace("-", "__dash__")
			.replace("/", "__slash__");
	}

	private static String unescape(String name) {
		if (name.length() > 4 && name.startsWith("__") && name.endsWith("__")
				&& RESERVED.contains(name.substring(2, name.length() - 2))) {
			return name.substring(2, name.length() - 2);
		}
		return name.replace("__underscores__", "__")
			.replace("__dot__", ".")
			.replace("__dash__", "-")
			.replace("__slash__", "/");
	}

	/**
	 * A field selected from this value ({@code .name} or {@code .?name}).
	 * @param name the field's name as the expression writes it
	 * @param escaped whether names are escaped, as in a schema's rules ({@code __dash__},
	 * {@code __namespace__}, ...), or written as they are, as in an admission policy,
	 * which sees objects as plain JSON
	 * @return the field
	 * @throws CelException if the name is a reserved word, or the schema has no such
	 * field
	 */
	CelValue select(Token name, boolean escaped) throws CelException {
		if (escaped && RESERVED.contains(name.text())) {
			throw CelException.syntax(
					"'" + name.text() + "' is a reserved word of CEL: select the field as __" + name.text() + "__",
					name.position());
		}
		if (!escaped && LITERALS.contains(name.text())) {
			throw CelException.syntax(
					"'" + name.text() + "' cannot follow '.': select the field as ['" + name.text() + "']",
					name.position());
		}
		String selected = (this.path != null) ? this.path + "." + name.text() : null;
		if (this.schema == null) {
			return new CelValue(null, selected, true);
		}
		String field = escaped ? unescape(name.text()) : name.text();
		Schema child = this.schema.properties().get(field);
		if (child != null) {
			return new CelValue(child, selected, true);
		}
		if (!this.schema.properties().isEmpty() && !this.schema.has("x-kubernetes-preserve-unknown-fields")) {
			String unescaped = unescape(field);
			if (!escaped && this.schema.properties().containsKey(unescaped)) {
				throw new CelException("names the field '" + field + "', which " + this.path + " does not have: "
						+ "here names are not escaped, select '" + unescaped + "' as " + this.path + "['" + unescaped
						+ "']", name.position());
			}
			throw new CelException("names the field '" + field + "', which " + this.path + " does not have; it has "
					+ this.schema.properties().keySet(), name.position());
		}
		if (this.schema.additionalProperties() != null) {
			return new CelValue(this.schema.additionalProperties(), selected, true);
		}
		String type = this.schema.type();
		if (type != null && !type.equals("object")) {
			throw new CelException("names the field '" + field + "' of " + this.path + ", which is "
					+ (type.equals("array") ? "a list" : "a " + type) + " and has no fields", name.position());
		}
		return new CelValue(null, selected, true);
	}

	/**
	 * An item of this list or a value of this map ({@code [index]}).
	 * @return the item or value
	 */
	CelValue index() {
		String indexed = (this.path != null) ? this.path + "[]" : null;
		if (this.schema != null && this.schema.items() != null) {
			return new CelValue(this.schema.items(), indexed, false);
		}
		if (this.schema != null && this.schema.additionalProperties() != null) {
			return new CelValue(this.schema.additionalProperties(), indexed, false);
		}
		return new CelValue(null, indexed, false);
	}

	/**
	 * The variable of a macro over this list (its items) or map (its keys, or its values
	 * for the second variable of a macro that has two).
	 * @param variable the variable's name
	 * @param value whether the variable is the second of two
	 * @return the variable
	 */
	CelValue element(String variable, boolean value) {
		if (this.schema != null && this.schema.items() != null) {
			return new CelValue(this.schema.items(), variable, false);
		}
		if (this.schema != null && value && this.schema.additionalProperties() != null) {
			return new CelValue(this.schema.additionalProperties(), variable, false);
		}
		return new CelValue(null, variable, false);
	}

	/**
	 * This value, no longer a field selection (as in parentheses).
	 * @return the value
	 */
	CelValue enclosed() {
		return new CelValue(this.schema, this.path, false);
	}

}
