package io.kubeboot.operator.crd;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.kubeboot.operator.crd.CelLexer.Kind;
import io.kubeboot.operator.crd.CelLexer.Token;

/**
 * Checks a CEL expression before the API server does: that it parses by CEL's grammar,
 * uses no identifier but the names declared to it (a schema's rule: {@code self} and
 * {@code oldSelf}; an admission policy's: {@code object}, {@code request}, ...), the
 * variables of its macros ({@code all(x, ...)}, {@code cel.bind(x, ...)}) and CEL's type
 * and namespace names, and that every field it selects from a declared name (directly,
 * through list items and map values, or through a macro's variable) is one the name's
 * schema has ({@link CelValue} follows them, unescaping names as the API server escapes
 * them in a schema's rules: {@code __dash__}, {@code __namespace__}, ...). It does not
 * type-check the rest: a function's arguments, an operator's operands, and fields below a
 * method call are left to the API server.
 */
final class Cel {

	private static final Set<String> TYPES = Set.of("int", "uint", "double", "bool", "string", "bytes", "list", "map",
			"null_type", "type", "dyn");

	private static final Set<String> COMPREHENSIONS = Set.of("all", "exists", "exists_one", "existsOne", "filter",
			"map", "sortBy", "transformList", "transformMap", "transformMapEntry");

	private static final Set<String> TWO_VARIABLES = Set.of("all", "exists", "exists_one", "existsOne", "transformList",
			"transformMap", "transformMapEntry");

	private static final List<List<String>> BINARY = List.of(List.of("||"), List.of("&&"),
			List.of("<", "<=", ">", ">=", "==", "!="), List.of("+", "-"), List.of("*", "/", "%"));

	/**
	 * The variables Kubernetes declares to some of its CEL expressions, which name no
	 * namespace of functions where they are not declared ({@code authorizer.group(...)}
	 * in a message expression).
	 */
	private static final Set<String> VARIABLES = Set.of("self", "oldSelf", "object", "oldObject", "request", "params",
			"namespaceObject", "authorizer", "variables");

	/** The level of {@link #BINARY} that {@code in} belongs to. */
	private static final int RELATION = 2;

	private static final String RULE_NAMES = "a rule knows self, oldSelf and the variables of its macros, such as x "
			+ "in self.all(x, ...)";

	private final List<Token> tokens;

	private final Map<String, Schema> declared;

	private final boolean escaped;

	private final String known;

	private final Deque<Map<String, CelValue>> scopes = new ArrayDeque<>();

	private final Set<String> used = new LinkedHashSet<>();

	private int index;

	private Cel(List<Token> tokens, Map<String, Schema> declared, boolean escaped, String known) {
		this.tokens = tokens;
		this.declared = declared;
		this.escaped = escaped;
		this.known = known;
	}

	/**
	 * Checks a rule of a schema.
	 * @param expression the rule
	 * @param self the schema of {@code self} (and {@code oldSelf})
	 * @return whether the expression uses {@code oldSelf}, which makes a rule a
	 * transition rule
	 * @throws CelException if it does not parse or names a field the schema does not have
	 */
	static boolean check(String expression, Schema self) throws CelException {
		return check(expression, Map.of("self", self, "oldSelf", self), true, RULE_NAMES).contains("oldSelf");
	}

	/**
	 * Checks an expression that may use some names, each with the schema of its value (an
	 * empty {@link Schema} for a value the check knows nothing of).
	 * @param expression the expression
	 * @param declared the names it may use, with their schemas
	 * @param escaped whether field names are escaped as in a schema's rules
	 * ({@code __dash__}, ...) or written as they are
	 * @param known what it may use, for the message about a name it may not, such as
	 * {@code a rule knows self, oldSelf and ...}
	 * @return the declared names it uses
	 * @throws CelException if it does not parse, uses a name not declared, or names a
	 * field a schema does not have
	 */
	static Set<String> check(String expression, Map<String, Schema> declared, boolean escaped, String known)
			throws CelException {
		if (expression.isBlank()) {
			throw new CelException("is empty", -1);
		}
		Cel cel = new Cel(CelLexer.tokens(expression), declared, escaped, known);
		cel.expression();
		Token next = cel.peek(0);
		if (next.kind() != Kind.END) {
			throw CelException.syntax("a whole expression ends before " + next, next.position());
		}
		return cel.used;
	}

	private CelValue expression() throws CelException {
		CelValue condition = binary(0);
		if (accept("?")) {
			binary(0);
			expect(":");
			expression();
			return CelValue.UNKNOWN;
		}
		return condition;
	}

	/**
	 * The binary operators of one precedence level and those that bind tighter:
	 * {@code ||}, then {@code &&}, the relations, {@code + -}, and {@code * / %}.
	 */
	private CelValue binary(int level) throws CelException {
		if (level == BINARY.size()) {
			return unary();
		}
		CelValue value = binary(level + 1);
		while (BINARY.get(level).stream().anyMatch(this::peekOperator)
				|| (level == RELATION && isIdentifier(peek(0), "in"))) {
			this.index++;
			binary(level + 1);
			value = CelValue.UNKNOWN;
		}
		return value;
	}

	private CelValue unary() throws CelException {
		if (accept("!") || accept("-")) {
			unary();
			return CelValue.UNKNOWN;
		}
		return member();
	}

	private CelValue member() throws CelException {
		CelValue value = primary();
		while (true) {
			if (accept(".")) {
				boolean optional = accept("?");
				Token name = identifier("a field or function name after '.'");
				if (!optional && peekOperator("(")) {
					this.index++;
					value = call(value, name.text());
				}
				else {
					value = value.select(name, this.escaped);
				}
			}
			else if (accept("[")) {
				accept("?");
				expression();
				expect("]");
				value = value.index();
			}
			else {
				return value;
			}
		}
	}

	private CelValue primary() throws CelException {
		Token token = next();
		if (token.is(".")) {
			token = identifier("a name after a leading '.'");
		}
		if (token.kind() == Kind.LITERAL) {
			return CelValue.UNKNOWN;
		}
		if (token.kind() == Kind.IDENTIFIER) {
			return identifierOrCall(token);
		}
		if (token.is("(")) {
			CelValue inner = expression();
			expect(")");
			return inner.enclosed();
		}
		if (token.is("[")) {
			elements("]", false);
			return CelValue.UNKNOWN;
		}
		if (token.is("{")) {
			elements("}", true);
			return CelValue.UNKNOWN;
		}
		if (token.kind() == Kind.END) {
			throw CelException.syntax("the expression ends where a value is expected", token.position());
		}
		throw CelException.syntax(token + " where a value is expected", token.position());
	}

	private CelValue identifierOrCall(Token token) throws CelException {
		String name = token.text();
		if (name.equals("true") || name.equals("false") || name.equals("null")) {
			return CelValue.UNKNOWN;
		}
		if (CelValue.RESERVED.contains(name)) {
			throw CelException.syntax("'" + name + "' is a reserved word of CEL", token.position());
		}
		if (accept("(")) {
			if (name.equals("has")) {
				CelValue field = expression();
				expect(")");
				if (!field.selection()) {
					throw CelException.syntax("has() takes a field selection, such as has(self.name)",
							token.position());
				}
				return CelValue.UNKNOWN;
			}
			arguments();
			return CelValue.UNKNOWN;
		}
		for (Map<String, CelValue> scope : this.scopes) {
			if (scope.containsKey(name)) {
				return scope.get(name);
			}
		}
		if (this.declared.containsKey(name)) {
			this.used.add(name);
			return new CelValue(this.declared.get(name), name, false);
		}
		if (TYPES.contains(name)) {
			return CelValue.UNKNOWN;
		}
		if (!VARIABLES.contains(name) && peekOperator(".") && peek(1).kind() == Kind.IDENTIFIER && peek(2).is("(")) {
			// a function of a namespace: cel.bind(...), optional.of(...),
			// math.greatest(...)
			Token function = this.tokens.get(this.index + 1);
			this.index += 3;
			if (name.equals("cel") && function.text().equals("bind")) {
				return bind();
			}
			arguments();
			return CelValue.UNKNOWN;
		}
		throw new CelException("uses '" + name + "', which is undeclared: " + this.known, token.position());
	}

	/** {@code cel.bind(name, value, expression)}, after its opening parenthesis. */
	private CelValue bind() throws CelException {
		Token variable = identifier("the variable of cel.bind");
		expect(",");
		CelValue value = expression();
		expect(",");
		this.scopes.push(Map.of(variable.text(), new CelValue(value.schema(), variable.text(), false)));
		try {
			expression();
		}
		finally {
			this.scopes.pop();
		}
		expect(")");
		return CelValue.UNKNOWN;
	}

	/** A method or macro called on a value, after its opening parenthesis. */
	private CelValue call(CelValue receiver, String name) throws CelException {
		Map<String, CelValue> variables = new HashMap<>();
		if (COMPREHENSIONS.contains(name) && variableFollows()) {
			Token first = next();
			this.index++;
			if (TWO_VARIABLES.contains(name) && variableFollows()) {
				Token second = next();
				this.index++;
				variables.put(first.text(), new CelValue(null, first.text(), false));
				variables.put(second.text(), receiver.element(second.text(), true));
			}
			else {
				variables.put(first.text(), receiver.element(first.text(), false));
			}
		}
		this.scopes.push(variables);
		try {
			arguments();
		}
		finally {
			this.scopes.pop();
		}
		return CelValue.UNKNOWN;
	}

	/** The arguments of a call, after its opening parenthesis, and the closing one. */
	private void arguments() throws CelException {
		if (accept(")")) {
			return;
		}
		do {
			expression();
		}
		while (accept(","));
		expect(")");
	}

	/** The elements of a list or the entries of a map, to the closing bracket. */
	private void elements(String close, boolean entries) throws CelException {
		while (!accept(close)) {
			accept("?");
			expression();
			if (entries) {
				expect(":");
				expression();
			}
			if (!accept(",")) {
				expect(close);
				return;
			}
		}
	}

	private boolean variableFollows() {
		Token token = peek(0);
		return token.kind() == Kind.IDENTIFIER && !CelValue.RESERVED.contains(token.text()) && peek(1).is(",");
	}

	private Token identifier(String what) throws CelException {
		Token token = next();
		if (token.kind() != Kind.IDENTIFIER) {
			throw CelException.syntax(token + " where " + what + " is expected", token.position());
		}
		return token;
	}

	private void expect(String operator) throws CelException {
		Token token = next();
		if (!token.is(operator)) {
			throw CelException.syntax(token + " where '" + operator + "' is expected", token.position());
		}
	}

	private boolean accept(String operator) {
		if (peekOperator(operator)) {
			this.index++;
			return true;
		}
		return false;
	}

	private boolean peekOperator(String operator) {
		return peek(0).is(operator);
	}

	private static boolean isIdentifier(Token token, String text) {
		return token.kind() == Kind.IDENTIFIER && token.text().equals(text);
	}

	private Token peek(int ahead) {
		return this.tokens.get(Math.min(this.index + ahead, this.tokens.size() - 1));
	}

	private Token next() {
		Token token = peek(0);
		if (token.kind() != Kind.END) {
			this.index++;
		}
		return token;
	}

}
