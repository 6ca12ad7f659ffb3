package io.kubeboot.operator.crd;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.WildcardType;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * The OpenAPI v3 schema of a model class: its properties (see {@link Properties}) with
 * their types, descriptions from javadoc, validation from annotations
 * ({@link Constraints}, CEL {@link Rules}), {@link Defaults} and the marks of
 * {@link SelectableFields}. Types follow what client-java's Gson writes.
 */
final class SchemaBuilder {

	private static final Set<String> STANDARD = Set.of("apiVersion", "kind", "metadata");

	private static final int MAX_DEPTH = 32;

	private final Types types;

	private final Javadoc javadoc;

	private final Properties properties;

	private final Constraints constraints;

	private final TypeSchemas typeSchemas;

	private final Defaults defaults;

	private final Rules rules;

	private final Diagnostics diagnostics;

	private final Deque<String> expanding = new ArrayDeque<>();

	SchemaBuilder(Elements elements, Types types, Diagnostics diagnostics) {
		this.types = types;
		this.javadoc = new Javadoc(elements);
		this.properties = new Properties(elements, types);
		this.constraints = new Constraints(diagnostics);
		this.typeSchemas = new TypeSchemas(elements, types);
		this.defaults = new Defaults(diagnostics);
		this.rules = new Rules(elements, diagnostics);
		this.diagnostics = diagnostics;
	}

	/**
	 * The schema of a custom resource: {@code apiVersion}, {@code kind} and
	 * {@code metadata} as every object has them, the other properties from the class. The
	 * {@code spec} is required when its class has required fields. The CEL rules of the
	 * kind class apply to the whole object.
	 * @param kind the class annotated with {@code @KubernetesKind}
	 * @return the schema
	 */
	Schema root(TypeElement kind) {
		Schema root = object(kind);
		for (Properties.Property property : this.properties.of((DeclaredType) kind.asType())) {
			if (STANDARD.contains(property.name())) {
				root.properties()
					.put(property.name(), Schema.ofType(property.name().equals("metadata") ? "object" : "string"));
			}
			else {
				add(root, property);
			}
		}
		Schema spec = root.properties().get("spec");
		if (spec != null && !spec.required().isEmpty() && !root.required().contains("spec")) {
			// an object without a spec could never have the spec's required fields
			root.required().add("spec");
		}
		this.rules.forClass(kind, root);
		this.rules.checkTransitions(root);
		return root;
	}

	private Schema object(TypeElement type) {
		Schema schema = Schema.ofType("object");
		String description = this.javadoc.description(type);
		if (description != null) {
			schema.put("description", description);
		}
		return schema;
	}

	private void add(Schema parent, Properties.Property property) {
		if (isVoid(property.type())) {
			// a CustomResource<Spec, Void> has no status: Gson never writes the field
			return;
		}
		String what = property.describe();
		if (parent.properties().containsKey(property.name())) {
			this.diagnostics.error(property.field(), "The JSON property '" + property.name() + "' of " + what
					+ " appears twice in " + property.owner().getQualifiedName() + " and its superclasses");
			return;
		}
		Map<String, Annotation> annotations = this.properties.annotations(property);
		Schema schema = annotations.containsKey(Constraints.MODEL + "PreserveUnknownFields")
				? preserved(property.type(), property.field(), what) : schema(property.type(), property.field(), what);
		String description = description(property);
		if (description != null) {
			schema.put("description", description);
		}
		if (this.constraints.apply(annotations, schema, property.field(), what)) {
			parent.required().add(property.name());
		}
		this.defaults.apply(annotations, schema, property.field(), what);
		SelectableFields.mark(annotations, schema, property.field(), what, this.diagnostics);
		this.rules.forField(this.properties.all(property), property, schema, parent);
		parent.properties().put(property.name(), schema);
	}

	private String description(Properties.Property property) {
		String description = this.javadoc.description(property.field());
		if (description == null && property.getter() != null) {
			description = this.javadoc.description(property.getter());
		}
		if (description == null && property.owner().getKind() == ElementKind.RECORD) {
			description = this.javadoc.parameter(property.owner(), property.field().getSimpleName().toString());
		}
		return description;
	}

	/**
	 * The schema of a type.
	 * @param type the type, type variables bound
	 * @param where the field whose type it is (or is part of), for messages
	 * @param what the field for messages
	 */
	private Schema schema(TypeMirror type, Element where, String what) {
		Schema known = this.typeSchemas.known(type);
		if (known != null) {
			return known;
		}
		switch (type.getKind()) {
			case ARRAY -> {
				return array(((ArrayType) type).getComponentType(), where, what);
			}
			case WILDCARD -> {
				TypeMirror bound = ((WildcardType) type).getExtendsBound();
				if (bound != null) {
					return schema(bound, where, what);
				}
			}
			case DECLARED -> {
				return declared((DeclaredType) type, where, what);
			}
			default -> {
			}
		}
		return unsupported(where, what, type, "it has no JSON schema");
	}

	private Schema declared(DeclaredType type, Element where, String what) {
		TypeElement element = (TypeElement) type.asElement();
		if (element.getKind() == ElementKind.ENUM) {
			Schema schema = this.typeSchemas.enumeration(element);
			String description = this.javadoc.description(element);
			return (description != null) ? schema.put("description", description) : schema;
		}
		if (this.typeSchemas.isCollection(type)) {
			if (type.getTypeArguments().size() != 1) {
				return unsupported(where, what, type, "give the collection its element type, such as List<String>");
			}
			return array(type.getTypeArguments().get(0), where, what);
		}
		if (this.typeSchemas.isMap(type)) {
			List<? extends TypeMirror> arguments = type.getTypeArguments();
			if (arguments.size() != 2 || !this.typeSchemas.isStringLike(arguments.get(0))) {
				return unsupported(where, what, type, "a map in JSON has string keys: use Map<String, V>");
			}
			Schema values = item(arguments.get(1), where, what);
			return Schema.ofType("object").put("additionalProperties", values);
		}
		String name = element.getQualifiedName().toString();
		if (name.startsWith("java.") || name.startsWith("javax.")) {
			return unsupported(where, what, type, this.typeSchemas.hint(name));
		}
		if (element.getKind() == ElementKind.INTERFACE || element.getModifiers().contains(Modifier.ABSTRACT)) {
			return unsupported(where, what, type,
					"Gson cannot create an instance of an interface or abstract class; use a concrete class");
		}
		return properties(type, where, what);
	}

	private Schema properties(DeclaredType type, Element where, String what) {
		TypeElement element = (TypeElement) type.asElement();
		String key = element.getQualifiedName().toString();
		if (this.expanding.contains(key) || this.expanding.size() >= MAX_DEPTH) {
			List<String> path = new ArrayList<>(this.expanding);
			Collections.reverse(path);
			path.add(key);
			this.diagnostics.error(where, "The schema of " + what + " cannot be written: " + String.join(" -> ", path)
					+ " refers back to itself, and a CustomResourceDefinition's schema cannot describe a cycle; "
					+ "annotate the field with @PreserveUnknownFields to keep its content unchecked");
			return Schema.ofType("object");
		}
		this.expanding.push(key);
		try {
			Schema schema = object(element);
			for (Properties.Property property : this.properties.of(type)) {
				add(schema, property);
			}
			this.rules.forClass(element, schema);
			return schema;
		}
		finally {
			this.expanding.pop();
		}
	}

	private Schema array(TypeMirror element, Element where, String what) {
		if (element.getKind() == TypeKind.BYTE) {
			// client-java's Gson writes byte[] as base64
			return Schema.ofType("string").put("format", "byte");
		}
		return Schema.ofType("array").put("items", item(element, where, what));
	}

	/** The schema of a list's element or a map's value, with the constraints on it. */
	private Schema item(TypeMirror type, Element where, String what) {
		Schema schema = schema(type, where, what);
		this.constraints.apply(this.properties.annotations(type), schema, where, what);
		return schema;
	}

	/**
	 * The schema of a field annotated with {@code @PreserveUnknownFields}: any content
	 * for {@code Object}, an object of any fields for a class or map, and a list of those
	 * for a collection or array.
	 */
	private Schema preserved(TypeMirror type, Element where, String what) {
		Schema schema = new Schema().put("x-kubernetes-preserve-unknown-fields", true);
		if (type.getKind() == TypeKind.ARRAY) {
			return Schema.ofType("array").put("items", preserved(((ArrayType) type).getComponentType(), where, what));
		}
		if (type.getKind() == TypeKind.DECLARED) {
			DeclaredType declared = (DeclaredType) type;
			TypeElement element = (TypeElement) declared.asElement();
			String name = element.getQualifiedName().toString();
			if (name.equals("java.lang.Object") || name.equals("com.google.gson.JsonElement")) {
				return schema;
			}
			if (this.typeSchemas.isCollection(declared) && declared.getTypeArguments().size() == 1) {
				return Schema.ofType("array").put("items", preserved(declared.getTypeArguments().get(0), where, what));
			}
			if (this.typeSchemas.isMap(declared)
					|| (element.getKind() == ElementKind.CLASS && !name.startsWith("java."))) {
				return schema.put("type", "object");
			}
		}
		return unsupported(where, what, type,
				"@PreserveUnknownFields applies to fields of a class, a map, Object, or a collection of those");
	}

	private static boolean isVoid(TypeMirror type) {
		return type.getKind() == TypeKind.DECLARED
				&& ((TypeElement) ((DeclaredType) type).asElement()).getQualifiedName().contentEquals("java.lang.Void");
	}

	private Schema unsupported(Element where, String what, TypeMirror type, String hint) {
		this.diagnostics.error(where, "The schema of " + what + " cannot be written: type " + this.types.erasure(type)
				+ " is not supported; " + hint);
		return new Schema().put("x-kubernetes-preserve-unknown-fields", true);
	}

}
