package io.kubeboot.operator.crd;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/**
 * The {@code subresources} of a version: {@code status} when the kind has a status field,
 * {@code scale} from {@code @Scale} on the kind class, its paths checked against the
 * schema (replicas integer fields under {@code .spec} and {@code .status}, the label
 * selector a string field under either).
 */
final class Subresources {

	private static final String SCALE = Constraints.MODEL + "Scale";

	private Subresources() {
	}

	/**
	 * The subresources of a kind class's version.
	 * @param type the kind class
	 * @param root its schema
	 * @param elements the compiler's elements
	 * @param diagnostics where problems go
	 * @return the subresources, empty for none
	 */
	static Map<String, Object> of(TypeElement type, Schema root, Elements elements, Diagnostics diagnostics) {
		Map<String, Object> subresources = new LinkedHashMap<>();
		if (root.properties().containsKey("status")) {
			// status is then written through /status only, and metadata.generation counts
			// spec changes alone
			subresources.put("status", Map.of());
		}
		for (AnnotationMirror mirror : type.getAnnotationMirrors()) {
			Annotation annotation = Annotation.of(mirror, elements);
			if (annotation.type().equals(SCALE)) {
				subresources.put("scale", scale(annotation, root,
						new Origin(type, mirror, type.getQualifiedName().toString()), diagnostics));
			}
		}
		return subresources;
	}

	private static Map<String, Object> scale(Annotation annotation, Schema root, Origin origin,
			Diagnostics diagnostics) {
		Map<String, Object> scale = new LinkedHashMap<>();
		String spec = annotation.string("specReplicasPath");
		String status = annotation.string("statusReplicasPath");
		String selector = annotation.string("labelSelectorPath");
		check(root, "specReplicasPath", spec, "integer", origin, diagnostics, ".spec.");
		check(root, "statusReplicasPath", status, "integer", origin, diagnostics, ".status.");
		scale.put("specReplicasPath", spec);
		scale.put("statusReplicasPath", status);
		if (!selector.isEmpty()) {
			check(root, "labelSelectorPath", selector, "string", origin, diagnostics, ".spec.", ".status.");
			scale.put("labelSelectorPath", selector);
		}
		return scale;
	}

	private static void check(Schema root, String name, String path, String type, Origin origin,
			Diagnostics diagnostics, String... under) {
		boolean placed = false;
		for (String prefix : under) {
			placed |= path.startsWith(prefix);
		}
		if (!placed) {
			List<String> parents = Stream.of(under).map((prefix) -> prefix.substring(0, prefix.length() - 1)).toList();
			origin.error(diagnostics,
					"the " + name + " '" + path + "' must be a path under " + String.join(" or ", parents));
			return;
		}
		JsonPaths.Field field = JsonPaths.field(root, path, "the " + name);
		if (field.problem() != null) {
			origin.error(diagnostics, field.problem());
		}
		else if (!type.equals(field.schema().type())) {
			origin.error(diagnostics, "the " + name + " '" + path + "' leads to a field of type "
					+ field.schema().type() + ", and it must be " + (type.equals("integer") ? "an " : "a ") + type);
		}
	}

}
