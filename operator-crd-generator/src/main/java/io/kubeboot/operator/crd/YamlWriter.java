package io.kubeboot.operator.crd;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Writes maps, lists, strings, numbers and booleans as block-style YAML, the same input
 * always to the same text: keys in the maps' own order, two spaces of indentation,
 * sequences indented under their key, strings quoted only where YAML would read them as
 * something else; documents after the first behind {@code ---}.
 */
final class YamlWriter {

	private static final Set<String> RESERVED = Set.of("y", "n", "yes", "no", "on", "off", "true", "false", "null", "~",
			".inf", "-.inf", "+.inf", ".nan", "<<", "=");

	private final StringBuilder out = new StringBuilder();

	private boolean documents;

	/**
	 * Adds a comment line.
	 * @param comment the comment, without {@code #}
	 * @return this writer
	 */
	YamlWriter comment(String comment) {
		this.out.append("# ").append(comment).append('\n');
		return this;
	}

	/**
	 * Adds a document, after {@code ---} if it is not the first.
	 * @param document the top-level map
	 * @return this writer
	 */
	YamlWriter document(Map<String, ?> document) {
		if (this.documents) {
			this.out.append("---\n");
		}
		this.documents = true;
		writeMap(document, 0);
		return this;
	}

	@Override
	public String toString() {
		return this.out.toString();
	}

	private void writeMap(Map<String, ?> map, int indent) {
		for (Map.Entry<String, ?> entry : map.entrySet()) {
			indent(indent);
			writeEntry(entry.getKey(), entry.getValue(), indent);
		}
	}

	private void writeEntry(String key, Object value, int indent) {
		this.out.append(scalar(key)).append(':');
		if (value instanceof Map<?, ?> map && !map.isEmpty()) {
			this.out.append('\n');
			writeMap(cast(map), indent + 2);
		}
		else if (value instanceof List<?> list && !list.isEmpty()) {
			this.out.append('\n');
			writeList(list, indent + 2);
		}
		else {
			this.out.append(' ').append(inline(value)).append('\n');
		}
	}

	private void writeList(List<?> list, int indent) {
		writeList(list, indent, true);
	}

	/**
	 * Writes the items of a list; the first one without indentation when it follows the
	 * dash of an outer list's item ({@code - - a}).
	 */
	private void writeList(List<?> list, int indent, boolean indentFirst) {
		boolean firstItem = true;
		for (Object item : list) {
			if (indentFirst || !firstItem) {
				indent(indent);
			}
			firstItem = false;
			this.out.append("- ");
			if (item instanceof Map<?, ?> map && !map.isEmpty()) {
				boolean first = true;
				for (Map.Entry<String, ?> entry : cast(map).entrySet()) {
					if (!first) {
						indent(indent + 2);
					}
					writeEntry(entry.getKey(), entry.getValue(), indent + 2);
					first = false;
				}
			}
			else if (item instanceof List<?> nested && !nested.isEmpty()) {
				writeList(nested, indent + 2, false);
			}
			else {
				this.out.append(inline(item)).append('\n');
			}
		}
	}

	private void indent(int indent) {
		this.out.append(" ".repeat(indent));
	}

	@SuppressWarnings("unchecked")
	private static Map<String, ?> cast(Map<?, ?> map) {
		return (Map<String, ?>) map;
	}

	private static String inline(Object value) {
		if (value instanceof Map<?, ?>) {
			return "{}";
		}
		if (value instanceof List<?>) {
			return "[]";
		}
		if (value instanceof Boolean || value instanceof Integer || value instanceof Long) {
			return value.toString();
		}
		if (value instanceof BigDecimal decimal) {
			return decimal.toPlainString();
		}
		if (value instanceof String string) {
			return scalar(string);
		}
		throw new IllegalArgumentException("Cannot write " + value.getClass().getName() + " as YAML");
	}

	/**
	 * A string as a plain scalar if YAML reads it back as the same string, single-quoted
	 * otherwise, double-quoted with escapes if it holds control characters or single
	 * quotes (as CEL rules do, which read better so).
	 */
	static String scalar(String value) {
		if (isPlain(value)) {
			return value;
		}
		for (int i = 0; i < value.length(); i++) {
			if (Character.isISOControl(value.charAt(i)) || value.charAt(i) == '\'') {
				return doubleQuoted(value);
			}
		}
		return "'" + value + "'";
	}

	private static boolean isPlain(String value) {
		if (value.isEmpty() || RESERVED.contains(value.toLowerCase(Locale.ROOT)) || value.endsWith(" ")
				|| value.endsWith(":") || value.contains(": ")) {
			return false;
		}
		char first = value.charAt(0);
		if (!(Character.isLetter(first) || first == '_' || first == '/' || first == '.' || first == '(')) {
			return false;
		}
		if (first == '.' && value.length() > 1 && Character.isDigit(value.charAt(1))) {
			return false;
		}
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (!(c < 128 && (Character.isLetterOrDigit(c) || " _./()',;:+=-".indexOf(c) >= 0))) {
				return false;
			}
		}
		return true;
	}

	private static String doubleQuoted(String value) {
		StringBuilder quoted = new StringBuilder("\"");
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			switch (c) {
				case '"' -> quoted.append("\\\"");
				case '\\' -> quoted.append("\\\\");
				case '\n' -> quoted.append("\\n");
				case '\t' -> quoted.append("\\t");
				case '\r' -> quoted.append("\\r");
				default -> {
					if (Character.isISOControl(c)) {
						quoted.append(String.format("\\u%04x", (int) c));
					}
					else {
						quoted.append(c);
					}
				}
			}
		}
		return quoted.append('"').toString();
	}

}
