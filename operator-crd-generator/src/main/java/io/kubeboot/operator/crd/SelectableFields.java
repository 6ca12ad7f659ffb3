package io.kubeboot.operator.crd;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/**
 * The {@code selectableFields} of a version, from {@code @SelectableField} on fields
 * (marked on their schema while it is built, found by walking the finished schema) and on
 * the kind class (by JSON path): each a string, integer or boolean reached through fields
 * only, at most {@value #LIMIT} and none twice, as the API server requires.
 */
final class SelectableFields {

	/** The API server's limit of selectable fields per version. */
	static final int LIMIT = 8;

	private static final String SELECTABLE_FIELD = Constraints.MODEL + "SelectableField";

	private static final String SELECTABLE_FIELDS = Constraints.MODEL + "SelectableFields";

	private static final Set<String> TYPES = Set.of("string", "integer", "boolean");

	private SelectableFields() {
	}

	/**
	 * Marks a field's schema as a selectable field when the field has
	 * {@code @SelectableField}.
	 * @param annotations the field's annotations by type name
	 * @param schema the field's schema
	 * @param where the field, for messages
	 * @param what the field for messages
	 * @param diagnostics where problems go
	 */
	static void mark(Map<String, Annotation> annotations, Schema schema, Element where, String what,
			Diagnostics diagnostics) {
		Annotation annotation = annotations.get(SELECTABLE_FIELD);
		if (annotations.containsKey(SELECTABLE_FIELDS)) {
			diagnostics.error(where, annotations.get(SELECTABLE_FIELDS).mirror(),
					"@SelectableField on " + what + ": a field is selectable once");
		}
		else if (annotation != null && !annotation.string("value").isEmpty()) {
			diagnostics.error(where, annotation.mirror(), "@SelectableField on " + what + " takes no path: the path is "
					+ "the field's; name other fields with @SelectableField on the kind class");
		}
		else if (annotation != null) {
			schema.selectable(new Origin(where, annotation.mirror(), what));
		}
	}

	/**
	 * The selectable fields of a version: the fields marked in its schema, in the
	 * schema's order, then the paths on the kind class.
	 * @param type the kind class
	 * @param root its schema
	 * @param elements the compiler's elements
	 * @param diagnostics where problems go
	 * @return the entries of {@code selectableFields}
	 */
	static List<Map<String, Object>> of(TypeElement type, Schema root, Elements elements, Diagnostics diagnostics) {
		Map<String, Origin> paths = new LinkedHashMap<>();
		collect(root, "", false, paths, diagnostics);
		String what = type.getQualifiedName().toString();
		for (AnnotationMirror mirror : type.getAnnotationMirrors()) {
			Annotation annotation = Annotation.of(mirror, elements);
			if (annotation.type().equals(SELECTABLE_FIELD)) {
				path(annotation, root, new Origin(type, mirror, what), paths, diagnostics);
			}
			else if (annotation.type().equals(SELECTABLE_FIELDS)) {
				for (AnnotationMirror each : annotation.annotations("value")) {
					path(Annotation.of(each, elements), root, new Origin(type, each, what), paths, diagnostics);
				}
			}
		}
		if (paths.size() > LIMIT) {
			diagnostics.error(type, what + " declares " + paths.size() + " selectable fields, " + paths.keySet()
					+ ", and the API server takes at most " + LIMIT + " per version");
		}
		List<Map<String, Object>> fields = new ArrayList<>();
		for (String path : paths.keySet()) {
			fields.add(Map.of("jsonPath", path));
		}
		return fields;
	}

	private static void path(Annotation annotation, Schema root, Origin origin, Map<String, Origin> paths,
			Diagnostics diagnostics) {
		String path = annotation.string("value");
		if (path.isEmpty()) {
			origin.error(diagnostics, "on the kind class, give the field's JSON path, such as .spec.color");
			return;
		}
		JsonPaths.Field field = JsonPaths.field(root, path, "the path");
		if (field.problem() != null) {
			origin.error(diagnostics, field.problem());
		}
		else if (!TYPES.contains(field.schema().type())) {
			origin.error(diagnostics, "the path '" + path + "' leads to " + typeName(field.schema())
					+ ", and a selectable field is a string, an integer or a boolean");
		}
		else {
			add(path, origin, paths, diagnostics);
		}
	}

	private static void collect(Schema schema, String path, boolean inCollection, Map<String, Origin> paths,
			Diagnostics diagnostics) {
		Origin origin = schema.selectable();
		if (origin != null) {
			if (inCollection) {
				origin.error(diagnostics, "the field is at " + path + ", in a list or map; a selectable field is "
						+ "reached through fields only");
			}
			else if (!TYPES.contains(schema.type())) {
				origin.error(diagnostics, "the field is " + typeName(schema)
						+ ", and a selectable field is a string, an integer or a boolean");
			}
			else {
				add(path, origin, paths, diagnostics);
			}
		}
		schema.properties()
			.forEach((name, child) -> collect(child, path + "." + name, inCollection, paths, diagnostics));
		if (schema.items() != null) {
			collect(schema.items(), path + "[*]", true, paths, diagnostics);
		}
		if (schema.additionalProperties() != null) {
			collect(schema.additionalProperties(), path + ".*", true, paths, diagnostics);
		}
	}

	private static void add(String path, Origin origin, Map<String, Origin> paths, Diagnostics diagnostics) {
		if (paths.putIfAbsent(path, origin) != null) {
			origin.error(diagnostics, path + " is a selectable field already");
		}
	}

	private static String typeName(Schema schema) {
		String type = schema.type();
		if (type == null) {
			return "a value of any type";
		}
		return switch (type) {
			case "array" -> "a list";
			case "object" -> "an object";
			case "integer" -> "an integer";
			default -> "a " + type;
		};
	}

}
