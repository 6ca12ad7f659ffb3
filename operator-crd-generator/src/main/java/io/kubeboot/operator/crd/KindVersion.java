package io.kubeboot.operator.crd;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/**
 * One version of a kind as one {@code @KubernetesKind} class declares it: its names, its
 * schema, printer columns, subresources and selectable fields, the entry of
 * {@code spec.versions} it becomes.
 *
 * @param type the class
 * @param group the API group
 * @param kind the kind
 * @param version the version
 * @param names the resource names and scope, which every version of a kind shares
 * @param served whether the version is served
 * @param storage whether the version is the storage version
 * @param schema the schema
 * @param columns the printer columns
 * @param subresources the subresources, empty for none
 * @param selectableFields the selectable fields
 */
record KindVersion(TypeElement type, String group, String kind, String version, Names names, boolean served,
		boolean storage, Schema schema, List<Map<String, Object>> columns, Map<String, Object> subresources,
		List<Map<String, Object>> selectableFields) {

	private static final String PRINTER_COLUMN = Constraints.MODEL + "PrinterColumn";

	private static final String PRINTER_COLUMNS = Constraints.MODEL + "PrinterColumns";

	/**
	 * Reads a class annotated with {@code @KubernetesKind}.
	 * @param type the class
	 * @param kindAnnotation its {@code @KubernetesKind}
	 * @param schemas the schema builder
	 * @param elements the compiler's elements
	 * @param diagnostics where problems go
	 * @return the version, or {@code null} if there were errors
	 */
	static KindVersion read(TypeElement type, Annotation kindAnnotation, SchemaBuilder schemas, Elements elements,
			Diagnostics diagnostics) {
		int errors = diagnostics.errors();
		String kind = kindAnnotation.string("kind");
		String plural = kindAnnotation.string("plural");
		String singular = kindAnnotation.string("singular");
		Names names = new Names(plural.isEmpty() ? plural(kind) : plural,
				singular.isEmpty() ? kind.toLowerCase(Locale.ROOT) : singular, kindAnnotation.strings("shortNames"),
				kindAnnotation.strings("categories"),
				kindAnnotation.constant("scope").equals("CLUSTER") ? "Cluster" : "Namespaced");
		Schema schema = schemas.root(type);
		List<Map<String, Object>> columns = new ArrayList<>();
		for (AnnotationMirror mirror : type.getAnnotationMirrors()) {
			Annotation annotation = Annotation.of(mirror, elements);
			if (annotation.type().equals(PRINTER_COLUMN)) {
				columns.add(column(type, annotation, schema, diagnostics));
			}
			else if (annotation.type().equals(PRINTER_COLUMNS)) {
				for (AnnotationMirror each : annotation.annotations("value")) {
					columns.add(column(type, Annotation.of(each, elements), schema, diagnostics));
				}
			}
		}
		Map<String, Object> subresources = Subresources.of(type, schema, elements, diagnostics);
		List<Map<String, Object>> selectableFields = SelectableFields.of(type, schema, elements, diagnostics);
		if (diagnostics.errors() > errors) {
			return null;
		}
		return new KindVersion(type, kindAnnotation.string("group"), kind, kindAnnotation.string("version"), names,
				kindAnnotation.bool("served"), kindAnnotation.bool("storage"), schema, columns, subresources,
				selectableFields);
	}

	/**
	 * The entry of {@code spec.versions}.
	 * @return the version as maps and lists
	 */
	Map<String, Object> toMap() {
		Map<String, Object> map = new LinkedHashMap<>();
		map.put("name", this.version);
		map.put("served", this.served);
		map.put("storage", this.storage);
		if (!this.subresources.isEmpty()) {
			map.put("subresources", this.subresources);
		}
		if (!this.columns.isEmpty()) {
			map.put("additionalPrinterColumns", this.columns);
		}
		if (!this.selectableFields.isEmpty()) {
			map.put("selectableFields", this.selectableFields);
		}
		map.put("schema", Map.of("openAPIV3Schema", this.schema.toMap()));
		return map;
	}

	private static Map<String, Object> column(TypeElement type, Annotation annotation, Schema schema,
			Diagnostics diagnostics) {
		String name = annotation.string("name");
		String jsonPath = annotation.string("jsonPath");
		Map<String, Object> column = new LinkedHashMap<>();
		column.put("name", name);
		column.put("type", annotation.constant("type").toLowerCase(Locale.ROOT));
		if (!annotation.string("format").isEmpty()) {
			column.put("format", annotation.string("format"));
		}
		if (!annotation.string("description").isEmpty()) {
			column.put("description", annotation.string("description"));
		}
		if (annotation.integer("priority") != 0) {
			column.put("priority", annotation.integer("priority"));
		}
		column.put("jsonPath", jsonPath);
		if (name.isBlank()) {
			diagnostics.error(type, annotation.mirror(), "@PrinterColumn needs a name");
		}
		else if (annotation.integer("priority") < 0) {
			diagnostics.error(type, annotation.mirror(), "@PrinterColumn " + name + ": priority must be 0 or more");
		}
		else {
			String unknown = JsonPaths.unknownField(schema, jsonPath);
			if (unknown != null) {
				diagnostics.error(type, annotation.mirror(), "@PrinterColumn " + name + ": " + unknown);
			}
		}
		return column;
	}

	/**
	 * The plural of a kind as English forms it for regular nouns: lower case, {@code -es}
	 * after s, x, z, ch and sh, {@code -ies} for a consonant and y.
	 * @param kind the kind
	 * @return the plural
	 */
	static String plural(String kind) {
		String lower = kind.toLowerCase(Locale.ROOT);
		if (lower.endsWith("s") || lower.endsWith("x") || lower.endsWith("z") || lower.endsWith("ch")
				|| lower.endsWith("sh")) {
			return lower + "es";
		}
		if (lower.length() > 1 && lower.endsWith("y") && "aeiou".indexOf(lower.charAt(lower.length() - 2)) < 0) {
			return lower.substring(0, lower.length() - 1) + "ies";
		}
		return lower + "s";
	}

	/**
	 * The names and scope of a kind's resource.
	 *
	 * @param plural the plural
	 * @param singular the singular
	 * @param shortNames the short names
	 * @param categories the categories
	 * @param scope {@code Namespaced} or {@code Cluster}
	 */
	record Names(String plural, String singular, List<String> shortNames, List<String> categories, String scope) {

		@Override
		public String toString() {
			return "plural " + this.plural + ", singular " + this.singular + ", shortNames " + this.shortNames
					+ ", categories " + this.categories + ", scope " + this.scope;
		}

	}

}
