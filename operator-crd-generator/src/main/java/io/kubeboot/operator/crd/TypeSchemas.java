package io.kubeboot.operator.crd;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.PrimitiveType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * The schemas of the types that are not model classes: Java's scalars as client-java's
 * Gson writes them, its {@code Quantity} and {@code IntOrString}, free-form JSON, enums,
 * and which types are collections and maps; and the core's {@code Condition}, whose
 * schema is {@code metav1.Condition}'s, with the descriptions a jar does not carry.
 */
final class TypeSchemas {

	/** A Kubernetes quantity: a number with an optional SI suffix or exponent. */
	private static final String QUANTITY = "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))"
			+ "(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$";

	private static final Map<String, String[]> SCALARS = Map.ofEntries(Map.entry("java.lang.String", of("string")),
			Map.entry("java.lang.Character", of("string")), Map.entry("java.lang.Integer", of("integer", "int32")),
			Map.entry("java.lang.Short", of("integer", "int32")), Map.entry("java.lang.Byte", of("integer", "int32")),
			Map.entry("java.lang.Long", of("integer", "int64")), Map.entry("java.math.BigInteger", of("integer")),
			Map.entry("java.lang.Boolean", of("boolean")), Map.entry("java.lang.Double", of("number", "double")),
			Map.entry("java.lang.Float", of("number", "float")), Map.entry("java.math.BigDecimal", of("number")),
			Map.entry("java.lang.Number", of("number")),
			Map.entry("java.time.OffsetDateTime", of("string", "date-time")),
			Map.entry("java.util.Date", of("string", "date-time")),
			Map.entry("java.time.LocalDate", of("string", "date")), Map.entry("java.sql.Date", of("string", "date")),
			Map.entry("java.util.UUID", of("string", "uuid")), Map.entry("java.net.URI", of("string")),
			Map.entry("java.net.URL", of("string")));

	private final Elements elements;

	private final Types types;

	TypeSchemas(Elements elements, Types types) {
		this.elements = elements;
		this.types = types;
	}

	/**
	 * The schema of a scalar or special type.
	 * @param type the type
	 * @return a new schema, or {@code null} if the type is none of those
	 */
	Schema known(TypeMirror type) {
		if (type.getKind().isPrimitive()) {
			return scalar(this.types.boxedClass((PrimitiveType) type).getQualifiedName().toString());
		}
		if (type.getKind() != TypeKind.DECLARED) {
			return null;
		}
		String name = ((TypeElement) ((DeclaredType) type).asElement()).getQualifiedName().toString();
		return switch (name) {
			case "io.kubernetes.client.custom.IntOrString" -> intOrString();
			case "io.kubernetes.client.custom.Quantity" -> intOrString().put("pattern", QUANTITY);
			case "io.kubeboot.operator.model.Condition" -> condition();
			case "java.lang.Object", "com.google.gson.JsonElement" ->
				new Schema().put("x-kubernetes-preserve-unknown-fields", true);
			case "com.google.gson.JsonObject" ->
				Schema.ofType("object").put("x-kubernetes-preserve-unknown-fields", true);
			case "com.google.gson.JsonArray" ->
				Schema.ofType("array").put("items", new Schema().put("x-kubernetes-preserve-unknown-fields", true));
			default -> scalar(name);
		};
	}

	/**
	 * The schema of an enum: a string with the constants' JSON names (Gson's
	 * {@code @SerializedName} or the constant's name).
	 * @param type the enum
	 * @return the schema
	 */
	Schema enumeration(TypeElement type) {
		List<String> values = new ArrayList<>();
		for (Element constant : type.getEnclosedElements()) {
			if (constant.getKind() == ElementKind.ENUM_CONSTANT) {
				values.add(Properties.jsonName(constant, this.elements));
			}
		}
		return Schema.ofType("string").put("enum", values);
	}

	boolean isCollection(DeclaredType type) {
		return isA(type, "java.util.Collection");
	}

	boolean isMap(DeclaredType type) {
		return isA(type, "java.util.Map");
	}

	/** Whether a map key of this type is a JSON string: a string or an enum. */
	boolean isStringLike(TypeMirror type) {
		if (type.getKind() != TypeKind.DECLARED) {
			return false;
		}
		Element element = ((DeclaredType) type).asElement();
		return element.getKind() == ElementKind.ENUM
				|| ((TypeElement) element).getQualifiedName().contentEquals("java.lang.String");
	}

	/**
	 * What to do instead of a JDK type that Gson does not write as JSON of its own.
	 * @param name the type's qualified name
	 * @return the hint
	 */
	String hint(String name) {
		if (name.startsWith("java.time.")) {
			return "client-java's Gson writes java.time.OffsetDateTime (format date-time) and "
					+ "java.time.LocalDate (format date), use one of those";
		}
		if (name.equals("java.util.Optional")) {
			return "Gson does not write Optional; use a field that may be null";
		}
		return "Gson writes JDK classes field by field, if at all; use a scalar, a collection, a map or a class "
				+ "of your own";
	}

	private boolean isA(DeclaredType type, String supertype) {
		TypeElement element = this.elements.getTypeElement(supertype);
		return this.types.isAssignable(this.types.erasure(type), this.types.erasure(element.asType()));
	}

	/**
	 * {@code metav1.Condition} as the API server validates it in built-in kinds.
	 */
	private static Schema condition() {
		Schema condition = Schema.ofType("object")
			.put("description", "One aspect of the resource's state, as of its last observation.");
		condition.properties()
			.put("type", Schema.ofType("string")
				.put("description",
						"The condition's type in UpperCamelCase, or prefixed with a domain " + "(example.com/Ready).")
				.put("maxLength", 316L)
				.put("pattern", "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
						+ "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$"));
		condition.properties()
			.put("status",
					Schema.ofType("string")
						.put("description", "Whether the condition holds: True, False or Unknown.")
						.put("enum", List.of("True", "False", "Unknown")));
		condition.properties()
			.put("observedGeneration",
					Schema.ofType("integer")
						.put("description", "The metadata.generation the condition was observed at.")
						.put("format", "int64")
						.put("minimum", 0L));
		condition.properties()
			.put("lastTransitionTime",
					Schema.ofType("string")
						.put("description", "When the status last changed from one value to another.")
						.put("format", "date-time"));
		condition.properties()
			.put("reason",
					Schema.ofType("string")
						.put("description", "Why the condition has its status: one UpperCamelCase word for programs.")
						.put("minLength", 1L)
						.put("maxLength", 1024L)
						.put("pattern", "^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$"));
		condition.properties()
			.put("message",
					Schema.ofType("string")
						.put("description", "Details for a person to read, possibly empty.")
						.put("maxLength", 32768L));
		condition.required().addAll(List.of("type", "status", "lastTransitionTime", "reason", "message"));
		return condition;
	}

	private static Schema intOrString() {
		return new Schema().put("anyOf", List.of(Schema.ofType("integer"), Schema.ofType("string")))
			.put("x-kubernetes-int-or-string", true);
	}

	private static Schema scalar(String name) {
		String[] typeAndFormat = SCALARS.get(name);
		if (typeAndFormat == null) {
			return null;
		}
		Schema schema = Schema.ofType(typeAndFormat[0]);
		return (typeAndFormat.length > 1) ? schema.put("format", typeAndFormat[1]) : schema;
	}

	private static String[] of(String... typeAndFormat) {
		return typeAndFormat;
	}

}
