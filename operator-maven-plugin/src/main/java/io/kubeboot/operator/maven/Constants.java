package io.kubeboot.operator.maven;

import java.util.HashSet;
import java.util.Set;

import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;

/**
 * Evaluates the constant expressions of annotation attributes over the parsed sources, as
 * javac would: literals, {@code static final} fields of the same class, of an enclosing
 * one or of another parsed class (named, imported or statically imported), and {@code +}
 * concatenations of them. Anything else, a method call or a field of a class that is not
 * in {@code src/main/java}, is {@link Unreadable}: the goals refuse to guess.
 */
final class Constants {

	private final SourceIndex index;

	Constants(SourceIndex index) {
		this.index = index;
	}

	/**
	 * Evaluates a {@code String} expression.
	 * @param expression the expression
	 * @param where the class it appears in
	 * @return its value
	 * @throws Unreadable if it is no constant this class can evaluate
	 */
	String string(ExpressionTree expression, SourceIndex.Type where) {
		Object value = value(expression, where, new HashSet<>());
		if (value instanceof String string) {
			return string;
		}
		throw new Unreadable(where, expression);
	}

	/**
	 * Evaluates a {@code boolean} expression.
	 * @param expression the expression
	 * @param where the class it appears in
	 * @return its value
	 * @throws Unreadable if it is no constant this class can evaluate
	 */
	boolean bool(ExpressionTree expression, SourceIndex.Type where) {
		Object value = value(expression, where, new HashSet<>());
		if (value instanceof Boolean bool) {
			return bool;
		}
		throw new Unreadable(where, expression);
	}

	/**
	 * The constant an enum attribute names, such as {@code CLUSTER} for
	 * {@code KubernetesKind.Scope.CLUSTER}: enum constants are written by name only.
	 * @param expression the expression
	 * @return the constant's name
	 */
	static String enumConstant(ExpressionTree expression) {
		if (expression instanceof MemberSelectTree select) {
			return select.getIdentifier().toString();
		}
		return expression.toString();
	}

	private Object value(ExpressionTree expression, SourceIndex.Type where, Set<String> visiting) {
		if (expression instanceof LiteralTree literal && literal.getValue() != null) {
			return literal.getValue();
		}
		if (expression instanceof ParenthesizedTree parenthesized) {
			return value(parenthesized.getExpression(), where, visiting);
		}
		if (expression instanceof BinaryTree binary && binary.getKind() == Tree.Kind.PLUS) {
			Object left = value(binary.getLeftOperand(), where, visiting);
			Object right = value(binary.getRightOperand(), where, visiting);
			if (left instanceof String || right instanceof String) {
				return String.valueOf(left) + right;
			}
			throw new Unreadable(where, expression);
		}
		if (expression instanceof IdentifierTree identifier) {
			String name = identifier.getName().toString();
			for (SourceIndex.Type type = where; type != null; type = type.enclosing()) {
				VariableTree field = type.constant(name);
				if (field != null) {
					return field(type, field, visiting);
				}
			}
			SourceIndex.Type imported = this.index.staticImport(where, name);
			if (imported != null) {
				return field(imported, imported.constant(name), visiting);
			}
			throw new Unreadable(where, expression);
		}
		if (expression instanceof MemberSelectTree select) {
			SourceIndex.Type owner = this.index.type(where, select.getExpression().toString());
			VariableTree field = (owner != null) ? owner.constant(select.getIdentifier().toString()) : null;
			if (field != null) {
				return field(owner, field, visiting);
			}
		}
		throw new Unreadable(where, expression);
	}

	private Object field(SourceIndex.Type owner, VariableTree field, Set<String> visiting) {
		String key = owner.name() + "." + field.getName();
		if (!visiting.add(key)) {
			// a cycle, which javac would refuse
			throw new Unreadable(owner, field.getInitializer());
		}
		try {
			return value(field.getInitializer(), owner, visiting);
		}
		finally {
			visiting.remove(key);
		}
	}

	/**
	 * An expression that is no constant this class can evaluate.
	 */
	static final class Unreadable extends RuntimeException {

		private final SourceIndex.Type where;

		private final Tree tree;

		Unreadable(SourceIndex.Type where, Tree tree) {
			super(null, null, false, false);
			this.where = where;
			this.tree = tree;
		}

		/**
		 * Where the expression is and what it says, such as
		 * {@code src/main/java/com/example/Invoice.java:14 (Groups.billing())}.
		 * @return the location and the source text
		 */
		String location() {
			return this.where.unit().position(this.tree) + " (" + this.where.unit().text(this.tree) + ")";
		}

	}

}
