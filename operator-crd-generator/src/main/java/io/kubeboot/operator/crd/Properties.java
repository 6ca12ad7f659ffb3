package io.kubeboot.operator.crd;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * The JSON properties of a model class as client-java's Gson reads and writes them: every
 * field that is neither static nor transient, of the class and its superclasses (theirs
 * first), named by Gson's {@code @SerializedName} if it has one, with its type as seen
 * from the class (a superclass's type variables bound to the class's type arguments).
 */
final class Properties {

	private static final String SERIALIZED_NAME = "com.google.gson.annotations.SerializedName";

	private final Elements elements;

	private final Types types;

	Properties(Elements elements, Types types) {
		this.elements = elements;
		this.types = types;
	}

	/**
	 * The properties of a class.
	 * @param type the class, with its type arguments
	 * @return the properties, in declaration order, superclasses first
	 */
	List<Property> of(DeclaredType type) {
		List<TypeElement> hierarchy = new ArrayList<>();
		TypeMirror current = type;
		while (current.getKind() == TypeKind.DECLARED) {
			TypeElement element = (TypeElement) ((DeclaredType) current).asElement();
			if (element.getQualifiedName().contentEquals("java.lang.Object")) {
				break;
			}
			hierarchy.add(0, element);
			current = element.getSuperclass();
		}
		List<Property> properties = new ArrayList<>();
		for (TypeElement owner : hierarchy) {
			for (VariableElement field : ElementFilter.fieldsIn(owner.getEnclosedElements())) {
				Set<Modifier> modifiers = field.getModifiers();
				if (!modifiers.contains(Modifier.STATIC) && !modifiers.contains(Modifier.TRANSIENT)) {
					TypeMirror fieldType = this.types.asMemberOf(type, field);
					properties.add(new Property(jsonName(field, this.elements), field, owner,
							getter(hierarchy, owner, field), fieldType));
				}
			}
		}
		return properties;
	}

	/**
	 * The annotations written on a property: on its field and its getter, and on its
	 * type, each annotation type once (the field's first).
	 * @param property the property
	 * @return the annotations by type name
	 */
	Map<String, Annotation> annotations(Property property) {
		Map<String, Annotation> annotations = new LinkedHashMap<>();
		add(annotations, property.field().getAnnotationMirrors());
		if (property.getter() != null) {
			add(annotations, property.getter().getAnnotationMirrors());
		}
		add(annotations, property.type().getAnnotationMirrors());
		return annotations;
	}

	/**
	 * Every annotation written on a property's field and getter, repeated ones as their
	 * containers, in the order written.
	 * @param property the property
	 * @return the annotations
	 */
	List<Annotation> all(Property property) {
		List<Annotation> all = new ArrayList<>();
		for (AnnotationMirror mirror : property.field().getAnnotationMirrors()) {
			all.add(Annotation.of(mirror, this.elements));
		}
		if (property.getter() != null) {
			for (AnnotationMirror mirror : property.getter().getAnnotationMirrors()) {
				all.add(Annotation.of(mirror, this.elements));
			}
		}
		return all;
	}

	/**
	 * The annotations on a type, such as the element type of a list, by type name.
	 * @param type the type
	 * @return the annotations
	 */
	Map<String, Annotation> annotations(TypeMirror type) {
		Map<String, Annotation> annotations = new LinkedHashMap<>();
		add(annotations, type.getAnnotationMirrors());
		return annotations;
	}

	private void add(Map<String, Annotation> annotations, List<? extends AnnotationMirror> mirrors) {
		for (AnnotationMirror mirror : mirrors) {
			Annotation annotation = Annotation.of(mirror, this.elements);
			annotations.putIfAbsent(annotation.type(), annotation);
		}
	}

	/**
	 * The name of a field or enum constant in JSON: Gson's {@code @SerializedName} or its
	 * own.
	 * @param element the field or enum constant
	 * @param elements the compiler's elements
	 * @return the name
	 */
	static String jsonName(Element element, Elements elements) {
		for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
			Annotation annotation = Annotation.of(mirror, elements);
			if (annotation.type().equals(SERIALIZED_NAME)) {
				return annotation.string("value");
			}
		}
		return element.getSimpleName().toString();
	}

	/**
	 * The getter of a field: {@code getX()} or {@code isX()}, or a record's accessor
	 * {@code x()}, the one of the most derived class that declares one (so that a
	 * subclass can annotate an inherited property by overriding its getter).
	 */
	private static ExecutableElement getter(List<TypeElement> hierarchy, TypeElement owner, VariableElement field) {
		String name = field.getSimpleName().toString();
		String capitalized = Character.toUpperCase(name.charAt(0)) + name.substring(1);
		for (int i = hierarchy.size() - 1; i >= hierarchy.indexOf(owner); i--) {
			TypeElement type = hierarchy.get(i);
			for (ExecutableElement method : ElementFilter.methodsIn(type.getEnclosedElements())) {
				String methodName = method.getSimpleName().toString();
				boolean accessor = methodName.equals("get" + capitalized) || methodName.equals("is" + capitalized)
						|| (type.getKind() == ElementKind.RECORD && methodName.equals(name));
				if (accessor && method.getParameters().isEmpty() && !method.getModifiers().contains(Modifier.STATIC)) {
					return method;
				}
			}
		}
		return null;
	}

	/**
	 * A property in the JSON of an object.
	 *
	 * @param name the JSON name
	 * @param field the field
	 * @param owner the class declaring the field
	 * @param getter the field's getter, or {@code null}
	 * @param type the field's type as seen from the class being described
	 */
	record Property(String name, VariableElement field, TypeElement owner, ExecutableElement getter, TypeMirror type) {

		/**
		 * The property for messages: the class's simple name and the field's name.
		 * @return the description
		 */
		String describe() {
			return "field '" + this.field.getSimpleName() + "' of " + this.owner.getQualifiedName();
		}

	}

}
