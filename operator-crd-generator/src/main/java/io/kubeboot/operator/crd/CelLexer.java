package io.kubeboot.operator.crd;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Splits a CEL expression into tokens as CEL's grammar defines them: identifiers,
 * numbers, strings (quoted, triple-quoted, raw and bytes), operators and punctuation;
 * comments and whitespace are dropped. What no token can start with, an unterminated
 * string and a bad escape are errors.
 */
final class CelLexer {

	private static final List<String> OPERATORS = List.of("&&", "||", "==", "!=", "<=", ">=", "(", ")", "[", "]", "{",
			"}", ".", ",", ":", "?", "!", "-", "+", "*", "/", "%", "<", ">");

	private static final Set<String> STRING_PREFIXES = Set.of("r", "R", "b", "B", "rb", "rB", "Rb", "RB", "br", "bR",
			"Br", "BR");

	private final String source;

	private final List<Token> tokens = new ArrayList<>();

	private int position;

	private CelLexer(String source) {
		this.source = source;
	}

	/**
	 * The tokens of an expression, the last one {@link Kind#END}.
	 * @param source the expression
	 * @return the tokens
	 * @throws CelException if a character starts no token
	 */
	static List<Token> tokens(String source) throws CelException {
		CelLexer lexer = new CelLexer(source);
		lexer.run();
		return lexer.tokens;
	}

	private void run() throws CelException {
		while (true) {
			skipBlanks();
			if (this.position >= this.source.length()) {
				this.tokens.add(new Token(Kind.END, "", this.position));
				return;
			}
			char c = this.source.charAt(this.position);
			int start = this.position;
			if (Character.isDigit(c) || (c == '.' && isDigit(this.position + 1) && !afterValue())) {
				number(start);
			}
			else if (c == '"' || c == '\'') {
				string(start, false);
			}
			else if ((c < 128 && Character.isLetter(c)) || c == '_') {
				while (this.position < this.source.length() && isIdentifierPart(this.source.charAt(this.position))) {
					this.position++;
				}
				String word = this.source.substring(start, this.position);
				if (STRING_PREFIXES.contains(word) && this.position < this.source.length()
						&& (this.source.charAt(this.position) == '"' || this.source.charAt(this.position) == '\'')) {
					string(start, word.indexOf('r') >= 0 || word.indexOf('R') >= 0);
				}
				else {
					this.tokens.add(new Token(Kind.IDENTIFIER, word, start));
				}
			}
			else {
				operator(start);
			}
		}
	}

	private void skipBlanks() {
		while (this.position < this.source.length()) {
			char c = this.source.charAt(this.position);
			if (Character.isWhitespace(c)) {
				this.position++;
			}
			else if (this.source.startsWith("//", this.position)) {
				int end = this.source.indexOf('\n', this.position);
				this.position = (end < 0) ? this.source.length() : end;
			}
			else {
				return;
			}
		}
	}

	private void operator(int start) throws CelException {
		for (String operator : OPERATORS) {
			if (this.source.startsWith(operator, start)) {
				this.position += operator.length();
				this.tokens.add(new Token(Kind.OPERATOR, operator, start));
				return;
			}
		}
		String found = String.valueOf(this.source.charAt(start));
		String hint = switch (found) {
			case "=" -> ": compare with ==";
			case "&" -> ": and is &&";
			case "|" -> ": or is ||";
			default -> "";
		};
		throw CelException.syntax("'" + found + "' is no part of CEL" + hint, start);
	}

	private void number(int start) {
		if (this.source.startsWith("0x", start) || this.source.startsWith("0X", start)) {
			this.position += 2;
			while (this.position < this.source.length()
					&& Character.digit(this.source.charAt(this.position), 16) >= 0) {
				this.position++;
			}
		}
		else {
			digits();
			if (this.position < this.source.length() && this.source.charAt(this.position) == '.'
					&& isDigit(this.position + 1)) {
				this.position++;
				digits();
			}
			if (this.position < this.source.length() && "eE".indexOf(this.source.charAt(this.position)) >= 0) {
				int exponent = this.position + 1;
				if (exponent < this.source.length() && "+-".indexOf(this.source.charAt(exponent)) >= 0) {
					exponent++;
				}
				if (isDigit(exponent)) {
					this.position = exponent;
					digits();
				}
			}
		}
		if (this.position < this.source.length() && "uU".indexOf(this.source.charAt(this.position)) >= 0) {
			this.position++;
		}
		this.tokens.add(new Token(Kind.LITERAL, this.source.substring(start, this.position), start));
	}

	private void digits() {
		while (isDigit(this.position)) {
			this.position++;
		}
	}

	private void string(int start, boolean raw) throws CelException {
		char quote = this.source.charAt(this.position);
		String triple = String.valueOf(quote).repeat(3);
		boolean multiline = this.source.startsWith(triple, this.position);
		this.position += multiline ? 3 : 1;
		while (true) {
			if (this.position >= this.source.length()) {
				throw CelException.syntax("the string that starts here does not end", start);
			}
			char c = this.source.charAt(this.position);
			if (multiline ? this.source.startsWith(triple, this.position) : c == quote) {
				this.position += multiline ? 3 : 1;
				this.tokens.add(new Token(Kind.LITERAL, this.source.substring(start, this.position), start));
				return;
			}
			if (!multiline && (c == '\n' || c == '\r')) {
				throw CelException.syntax("the string that starts here does not end on its line (use ''' for several)",
						start);
			}
			if (c == '\\' && !raw) {
				escape();
			}
			else {
				this.position++;
			}
		}
	}

	private void escape() throws CelException {
		int start = this.position;
		char c = (this.position + 1 < this.source.length()) ? this.source.charAt(this.position + 1) : ' ';
		if ("abfnrtv\\'\"`?".indexOf(c) >= 0) {
			this.position += 2;
		}
		else if (c == 'x' || c == 'X' || c == 'u' || c == 'U' || (c >= '0' && c <= '3')) {
			int digits = switch (c) {
				case 'x', 'X' -> 2;
				case 'u' -> 4;
				case 'U' -> 8;
				default -> 2;
			};
			int radix = (c >= '0' && c <= '3') ? 8 : 16;
			this.position += 2;
			for (int i = 0; i < digits; i++) {
				if (this.position >= this.source.length()
						|| Character.digit(this.source.charAt(this.position), radix) < 0) {
					throw CelException.syntax("a malformed escape sequence", start);
				}
				this.position++;
			}
		}
		else {
			throw CelException.syntax("'\\" + c + "' is no escape sequence of CEL", start);
		}
	}

	/** Whether the last token ends a value, so that a dot after it selects a field. */
	private boolean afterValue() {
		if (this.tokens.isEmpty()) {
			return false;
		}
		Token last = this.tokens.get(this.tokens.size() - 1);
		return last.kind() != Kind.OPERATOR || last.text().equals(")") || last.text().equals("]")
				|| last.text().equals("}");
	}

	private boolean isDigit(int index) {
		return index < this.source.length() && Character.isDigit(this.source.charAt(index));
	}

	private static boolean isIdentifierPart(char c) {
		return (c < 128 && Character.isLetterOrDigit(c)) || c == '_';
	}

	/**
	 * The kinds of token.
	 */
	enum Kind {

		/** A name, keyword or {@code in}. */
		IDENTIFIER,

		/** A number, string or bytes literal. */
		LITERAL,

		/** An operator or punctuation. */
		OPERATOR,

		/** The end of the expression. */
		END

	}

	/**
	 * A token.
	 *
	 * @param kind the kind
	 * @param text the text as written
	 * @param position where it starts, from 0
	 */
	record Token(Kind kind, String text, int position) {

		boolean is(String operator) {
			return this.kind == Kind.OPERATOR && this.text.equals(operator);
		}

		@Override
		public String toString() {
			return (this.kind == Kind.END) ? "the end of the expression" : "'" + this.text + "'";
		}

	}

}
