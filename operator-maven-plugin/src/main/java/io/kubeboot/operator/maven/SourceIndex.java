package io.kubeboot.operator.maven;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.lang.model.element.Modifier;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ImportTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.SourcePositions;

/**
 * The parsed classes of {@code src/main/java} by qualified name, nested ones included,
 * and what a name written in one of them means, as javac resolves it without attribution:
 * member classes, single-type imports, the same package, on-demand imports, and static
 * imports of constants.
 */
final class SourceIndex {

	private final List<Unit> units = new ArrayList<>();

	private final Map<String, Type> types = new LinkedHashMap<>();

	private final Map<ClassTree, Type> byTree = new LinkedHashMap<>();

	Iterable<Type> types() {
		return this.types.values();
	}

	List<Unit> units() {
		return this.units;
	}

	boolean declares(String name) {
		return this.types.containsKey(name);
	}

	void add(Unit unit) {
		this.units.add(unit);
		String prefix = unit.packageName().isEmpty() ? "" : unit.packageName() + ".";
		for (Tree declaration : unit.tree().getTypeDecls()) {
			if (declaration instanceof ClassTree tree) {
				add(new Type(prefix + tree.getSimpleName(), unit, tree, null));
			}
		}
	}

	private void add(Type type) {
		this.types.put(type.name(), type);
		this.byTree.put(type.tree(), type);
		for (Tree member : type.tree().getMembers()) {
			if (member instanceof ClassTree nested) {
				add(new Type(type.name() + "." + nested.getSimpleName(), type.unit(), nested, type));
			}
		}
	}

	Type declared(ClassTree tree) {
		return this.byTree.get(tree);
	}

	/**
	 * The parsed class of a qualified name.
	 * @param name the qualified name
	 * @return the class, or {@code null} if it is not parsed
	 */
	Type type(String name) {
		return this.types.get(name);
	}

	/**
	 * The parsed class a name written in a class means.
	 * @param where the class the name is written in
	 * @param written the name, simple, qualified or {@code Outer.Inner}
	 * @return the class, or {@code null} if it is not parsed
	 */
	Type type(Type where, String written) {
		return this.types.get(typeName(where, written));
	}

	/**
	 * The qualified name a type name written in a class means, as javac resolves it:
	 * member classes of the class and its enclosing ones, single-type imports, the same
	 * package, then on-demand imports.
	 * @param where the class the name is written in
	 * @param written the name
	 * @return the qualified name; the name as written if it is not imported and not
	 * parsed
	 */
	String typeName(Type where, String written) {
		int dot = written.indexOf('.');
		String first = (dot < 0) ? written : written.substring(0, dot);
		String rest = (dot < 0) ? "" : written.substring(dot);
		for (Type type = where; type != null; type = type.enclosing()) {
			if (this.types.containsKey(type.name() + "." + first)) {
				return type.name() + "." + first + rest;
			}
		}
		for (ImportTree imported : where.unit().tree().getImports()) {
			String name = imported.getQualifiedIdentifier().toString();
			if (!imported.isStatic() && name.endsWith("." + first)) {
				return name + rest;
			}
		}
		String prefix = where.packageName().isEmpty() ? "" : where.packageName() + ".";
		if (this.types.containsKey(prefix + first)) {
			return prefix + first + rest;
		}
		for (ImportTree imported : where.unit().tree().getImports()) {
			String name = imported.getQualifiedIdentifier().toString();
			if (!imported.isStatic() && name.endsWith(".*")
					&& this.types.containsKey(name.substring(0, name.length() - 1) + first)) {
				return name.substring(0, name.length() - 1) + first + rest;
			}
		}
		return written;
	}

	/**
	 * The parsed class a statically imported constant comes from.
	 * @param where the class the name is written in
	 * @param name the constant's name
	 * @return the class, or {@code null}
	 */
	Type staticImport(Type where, String name) {
		for (ImportTree imported : where.unit().tree().getImports()) {
			if (imported.isStatic() && imported.getQualifiedIdentifier() instanceof MemberSelectTree select
					&& (select.getIdentifier().contentEquals(name) || select.getIdentifier().contentEquals("*"))) {
				Type owner = this.types.get(select.getExpression().toString());
				if (owner != null && owner.constant(name) != null) {
					return owner;
				}
			}
		}
		return null;
	}

	/**
	 * A parsed source file.
	 *
	 * @param file the file, relative to the project
	 * @param tree its tree
	 * @param content its text
	 * @param positions where the trees are in the text
	 */
	record Unit(Path file, CompilationUnitTree tree, String content, SourcePositions positions) {

		String packageName() {
			return (this.tree.getPackageName() != null) ? this.tree.getPackageName().toString() : "";
		}

		long start(Tree tree) {
			return this.positions.getStartPosition(this.tree, tree);
		}

		long end(Tree tree) {
			return this.positions.getEndPosition(this.tree, tree);
		}

		/**
		 * Where a tree starts, as {@code file:line}.
		 * @param tree the tree
		 * @return its position
		 */
		String position(Tree tree) {
			return this.file + ":" + this.tree.getLineMap().getLineNumber(start(tree));
		}

		/**
		 * A tree's source text as written.
		 * @param tree the tree
		 * @return its text
		 */
		String text(Tree tree) {
			return this.content.substring((int) start(tree), (int) end(tree));
		}

	}

	/**
	 * A parsed class, nested ones included.
	 *
	 * @param name its qualified name ({@code Outer.Inner} for a nested class)
	 * @param unit its source
	 * @param tree its tree
	 * @param enclosing the class it is nested in, or {@code null}
	 */
	record Type(String name, Unit unit, ClassTree tree, Type enclosing) {

		String packageName() {
			return this.unit.packageName();
		}

		/**
		 * A constant of this class: a field that is {@code static final} (or any field of
		 * an interface) and has an initializer.
		 * @param name the field's name
		 * @return the field, or {@code null}
		 */
		VariableTree constant(String name) {
			boolean iface = this.tree.getKind() == Tree.Kind.INTERFACE;
			for (Tree member : this.tree.getMembers()) {
				if (member instanceof VariableTree field && field.getName().contentEquals(name)
						&& field.getInitializer() != null
						&& (iface || field.getModifiers()
							.getFlags()
							.containsAll(List.of(Modifier.STATIC, Modifier.FINAL)))) {
					return field;
				}
			}
			return null;
		}

	}

}
