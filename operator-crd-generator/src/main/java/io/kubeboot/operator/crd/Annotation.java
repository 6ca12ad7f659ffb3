package io.kubeboot.operator.crd;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.util.Elements;

/**
 * An annotation read by the name of its type, so that the processor needs none of the
 * annotations' classes: the values with their defaults filled in.
 *
 * @param mirror the annotation
 * @param values the values by attribute name
 */
record Annotation(AnnotationMirror mirror, Map<String, Object> values) {

	static Annotation of(AnnotationMirror mirror, Elements elements) {
		Map<String, Object> values = new LinkedHashMap<>();
		for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> entry : elements
			.getElementValuesWithDefaults(mirror)
			.entrySet()) {
			values.put(entry.getKey().getSimpleName().toString(), unwrap(entry.getValue()));
		}
		return new Annotation(mirror, values);
	}

	/**
	 * The qualified name of the annotation's type.
	 * @return the name
	 */
	String type() {
		return ((TypeElement) this.mirror.getAnnotationType().asElement()).getQualifiedName().toString();
	}

	/**
	 * The simple name of the annotation's type, for messages.
	 * @return the name with {@code @}
	 */
	String simpleName() {
		return "@" + this.mirror.getAnnotationType().asElement().getSimpleName();
	}

	String string(String name) {
		return (String) this.values.get(name);
	}

	int integer(String name) {
		return ((Number) this.values.get(name)).intValue();
	}

	long number(String name) {
		return ((Number) this.values.get(name)).longValue();
	}

	boolean bool(String name) {
		return (Boolean) this.values.get(name);
	}

	/**
	 * An enum value's constant name.
	 * @param name the attribute
	 * @return the constant's name
	 */
	String constant(String name) {
		return ((VariableElement) this.values.get(name)).getSimpleName().toString();
	}

	/**
	 * The constant names of an array of enum values.
	 * @param name the attribute
	 * @return the constants' names, in order
	 */
	List<String> constants(String name) {
		List<String> constants = new ArrayList<>();
		for (Object value : (List<?>) this.values.get(name)) {
			constants.add(((VariableElement) value).getSimpleName().toString());
		}
		return constants;
	}

	@SuppressWarnings("unchecked")
	List<String> strings(String name) {
		Object value = this.values.get(name);
		return (value instanceof List<?> list) ? (List<String>) list : List.of((String) value);
	}

	@SuppressWarnings("unchecked")
	List<AnnotationMirror> annotations(String name) {
		return (List<AnnotationMirror>) this.values.get(name);
	}

	private static Object unwrap(AnnotationValue value) {
		Object unwrapped = value.getValue();
		if (unwrapped instanceof List<?> list) {
			List<Object> items = new ArrayList<>();
			for (Object item : list) {
				items.add(unwrap((AnnotationValue) item));
			}
			return items;
		}
		return unwrapped;
	}

}
