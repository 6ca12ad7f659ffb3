package io.kubeboot.operator.crd;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a JSON text (RFC 8259) into the values {@link YamlWriter} writes: objects as maps
 * in the text's order, arrays as lists, strings, whole numbers as {@code Long} (or
 * {@code BigDecimal} when too big), other numbers as {@code BigDecimal}, and booleans;
 * {@code null} as {@link #NULL}.
 */
final class Json {

	/**
	 * JSON's {@code null}.
	 */
	static final Object NULL = new Object() {

		@Override
		public String toString() {
			return "null";
		}

	};

	private final String text;

	private int position;

	private Json(String text) {
		this.text = text;
	}

	/**
	 * Reads a JSON text.
	 * @param text the text
	 * @return the value
	 * @throws IllegalArgumentException if the text is not JSON, saying where
	 */
	static Object parse(String text) {
		Json json = new Json(text);
		Object value = json.value();
		json.blanks();
		if (json.position < text.length()) {
			throw json.error("more after the value");
		}
		return value;
	}

	private Object value() {
		blanks();
		if (this.position >= this.text.length()) {
			throw error("no value");
		}
		char c = this.text.charAt(this.position);
		return switch (c) {
			case '{' -> object();
			case '[' -> array();
			case '"' -> string();
			case 't' -> word("true", Boolean.TRUE);
			case 'f' -> word("false", Boolean.FALSE);
			case 'n' -> word("null", NULL);
			default -> {
				if (c == '-' || Character.isDigit(c)) {
					yield number();
				}
				throw error("unexpected '" + c + "'");
			}
		};
	}

	private Map<String, Object> object() {
		Map<String, Object> object = new LinkedHashMap<>();
		this.position++;
		blanks();
		if (accept('}')) {
			return object;
		}
		do {
			blanks();
			if (this.position >= this.text.length() || this.text.charAt(this.position) != '"') {
				throw error("a name in double quotes expected");
			}
			String name = string();
			blanks();
			if (!accept(':')) {
				throw error("':' expected");
			}
			object.put(name, value());
			blanks();
		}
		while (accept(','));
		if (!accept('}')) {
			throw error("',' or '}' expected");
		}
		return object;
	}

	private List<Object> array() {
		List<Object> array = new ArrayList<>();
		this.position++;
		blanks();
		if (accept(']')) {
			return array;
		}
		do {
			array.add(value());
			blanks();
		}
		while (accept(','));
		if (!accept(']')) {
			throw error("',' or ']' expected");
		}
		return array;
	}

	private String string() {
		StringBuilder string = new StringBuilder();
		this.position++;
		while (this.position < this.text.length()) {
			char c = this.text.charAt(this.position++);
			if (c == '"') {
				return string.toString();
			}
			if (c < 0x20) {
				throw error("a control character in a string");
			}
			if (c != '\\') {
				string.append(c);
				continue;
			}
			char escaped = (this.position < this.text.length()) ? this.text.charAt(this.position++) : ' ';
			switch (escaped) {
				case '"', '\\', '/' -> string.append(escaped);
				case 'b' -> string.append('\b');
				case 'f' -> string.append('\f');
				case 'n' -> string.append('\n');
				case 'r' -> string.append('\r');
				case 't' -> string.append('\t');
				case 'u' -> {
					if (this.position + 4 > this.text.length()
							|| !this.text.substring(this.position, this.position + 4).matches("[0-9a-fA-F]{4}")) {
						throw error("a malformed \\u escape");
					}
					string.append((char) Integer.parseInt(this.text.substring(this.position, this.position + 4), 16));
					this.position += 4;
				}
				default -> throw error("'\\" + escaped + "' is no escape of JSON");
			}
		}
		throw error("a string that does not end");
	}

	private Object number() {
		int start = this.position;
		accept('-');
		if (!accept('0')) {
			digits();
		}
		boolean whole = true;
		if (accept('.')) {
			digits();
			whole = false;
		}
		if (accept('e') || accept('E')) {
			if (!accept('+')) {
				accept('-');
			}
			digits();
			whole = false;
		}
		BigDecimal number = new BigDecimal(this.text.substring(start, this.position));
		if (whole) {
			try {
				return number.longValueExact();
			}
			catch (ArithmeticException ex) {
				return number;
			}
		}
		return number;
	}

	private void digits() {
		int start = this.position;
		while (this.position < this.text.length() && Character.isDigit(this.text.charAt(this.position))) {
			this.position++;
		}
		if (this.position == start) {
			throw error("a digit expected");
		}
	}

	private Object word(String word, Object value) {
		if (!this.text.startsWith(word, this.position)) {
			throw error("unexpected '" + this.text.charAt(this.position) + "'");
		}
		this.position += word.length();
		return value;
	}

	private boolean accept(char c) {
		if (this.position < this.text.length() && this.text.charAt(this.position) == c) {
			this.position++;
			return true;
		}
		return false;
	}

	private void blanks() {
		while (this.position < this.text.length() && " \t\r\n".indexOf(this.text.charAt(this.position)) >= 0) {
			this.position++;
		}
	}

	private IllegalArgumentException error(String problem) {
		return new IllegalArgumentException(problem + " at character " + (this.position + 1));
	}

}
