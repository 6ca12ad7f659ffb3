package io.kubeboot.operator.crd;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static io.kubeboot.operator.crd.CustomResourceDefinitionProcessorTests.gadget;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Models the processor cannot describe fail the compilation with an error on the element
 * concerned, and their kind gets no file.
 */
class CustomResourceDefinitionProcessorErrorTests {

	@TempDir
	Path directory;

	@Test
	void twoStorageVersionsNameTheClasses() {
		Compilation compilation = Compilation.compile(this.directory, version("v1", true), version("v2", true));
		assertFailed(compilation);
		assertThat(compilation.errors()).containsExactly("Gadget (example.com) needs exactly one storage version, "
				+ "and has 2: com.example.v2.Gadget (v2, storage = true), com.example.v1.Gadget (v1, storage = true); "
				+ "set storage = false on @KubernetesKind of all but one");
	}

	@Test
	void noStorageVersion() {
		Compilation compilation = Compilation.compile(this.directory, version("v1", false));
		assertFailed(compilation);
		assertThat(compilation.errors()).singleElement()
			.asString()
			.contains("needs exactly one storage version, and has 0");
	}

	@Test
	void aVersionDeclaredTwice() {
		Compilation compilation = Compilation.compile(this.directory, version("v1", true),
				version("v1", false).replace("package com.example.v1;", "package com.example.other;"));
		assertFailed(compilation);
		assertThat(compilation.errors()).anySatisfy((error) -> assertThat(error)
			.isEqualTo("Version v1 of Gadget (example.com) is declared twice, by com.example.v1.Gadget and "
					+ "com.example.other.Gadget")
			.isNotNull());
	}

	@Test
	void versionsThatDisagreeOnNames() {
		Compilation compilation = Compilation.compile(this.directory, version("v1", true),
				version("v2", false).replace("storage = false", "storage = false, shortNames = \"gd\""));
		assertFailed(compilation);
		assertThat(compilation.errors()).containsExactly("The versions of Gadget (example.com) share one "
				+ "CustomResourceDefinition and must declare the same plural, singular, shortNames, categories and "
				+ "scope: com.example.v2.Gadget declares plural gadgets, singular gadget, shortNames [gd], categories "
				+ "[], scope Namespaced; com.example.v1.Gadget declares plural gadgets, singular gadget, shortNames [], "
				+ "categories [], scope Namespaced");
	}

	@Test
	void aTypeGsonDoesNotWriteIsReportedOnItsField() {
		Compilation compilation = Compilation.compile(this.directory, gadget("""
				public static class Spec {
					private String fine;
					private java.time.Instant when;
				}
				"""));
		assertFailed(compilation);
		assertThat(compilation.errorsWithLines()).containsExactly("Gadget.java:12: The schema of field 'when' of "
				+ "com.example.Gadget.Spec cannot be written: type java.time.Instant is not supported; client-java's "
				+ "Gson writes java.time.OffsetDateTime (format date-time) and java.time.LocalDate (format date), use "
				+ "one of those");
	}

	@Test
	void unsupportedTypes() {
		Compilation compilation = Compilation.compile(this.directory, gadget("""
				public static class Spec {
					private Map<Integer, String> byNumber;
					@SuppressWarnings("rawtypes")
					private List raw;
					private Optional<String> maybe;
					private Runnable task;
					private Thread thread;
				}
				"""));
		assertFailed(compilation);
		assertThat(compilation.errors()).containsExactly(
				"The schema of field 'byNumber' of com.example.Gadget.Spec cannot be written: type java.util.Map is "
						+ "not supported; a map in JSON has string keys: use Map<String, V>",
				"The schema of field 'raw' of com.example.Gadget.Spec cannot be written: type java.util.List is not "
						+ "supported; give the collection its element type, such as List<String>",
				"The schema of field 'maybe' of com.example.Gadget.Spec cannot be written: type java.util.Optional is "
						+ "not supported; Gson does not write Optional; use a field that may be null",
				"The schema of field 'task' of com.example.Gadget.Spec cannot be written: type java.lang.Runnable is "
						+ "not supported; Gson writes JDK classes field by field, if at all; use a scalar, a collection, "
						+ "a map or a class of your own",
				"The schema of field 'thread' of com.example.Gadget.Spec cannot be written: type java.lang.Thread is "
						+ "not supported; Gson writes JDK classes field by field, if at all; use a scalar, a collection, "
						+ "a map or a class of your own");
	}

	@Test
	void anInterfaceOfOurOwn() {
		Compilation compilation = Compilation.compile(this.directory, gadget("""
				public interface Shape { }

				public static class Spec {
					private Shape shape;
				}
				"""));
		assertFailed(compilation);
		assertThat(compilation.errors()).containsExactly("The schema of field 'shape' of com.example.Gadget.Spec "
				+ "cannot be written: type com.example.Gadget.Shape is not supported; Gson cannot create an instance "
				+ "of an interface or abstract class; use a concrete class");
	}

	@Test
	void aClassThatRefersToItself() {
		Compilation compilation = Compilation.compile(this.directory, gadget("""
				public static class Spec {
					private Node root;
				}

				public static class Node {
					private String name;
					private List<Node> children;
				}
				"""));
		assertFailed(compilation);
		assertThat(compilation.errorsWithLines()).containsExactly("Gadget.java:16: The schema of field 'children' of "
				+ "com.example.Gadget.Node cannot be written: com.example.Gadget.Spec -> com.example.Gadget.Node -> "
				+ "com.example.Gadget.Node refers back to itself, and a CustomResourceDefinition's schema cannot "
				+ "describe a cycle; annotate the field with @PreserveUnknownFields to keep its content unchecked");
	}

	@Test
	void aClassThatRefersToItselfIsFineBehindPreserveUnknownFields() {
		Compilation compilation = Compilation.compile(this.directory, gadget("""
				public static class Spec {
					private Node root;
				}

				public static class Node {
					private String name;
					@PreserveUnknownFields
					private List<Node> children;
				}
				"""));
		assertThat(compilation.success()).as(compilation.messages()).isTrue();
		assertThat(CustomResourceDefinitionProcessorTests.properties(compilation.crdDocument("gadgets.example.com"),
				"spec"))
			.isEqualTo(Map.of("root",
					Map.of("type", "object", "properties",
							Map.of("name", Map.of("type", "string"), "children", Map.of("type", "array", "items",
									Map.of("type", "object", "x-kubernetes-preserve-unknown-fields", true))))));
	}

	@Test
	void preserveUnknownFieldsOnAScalar() {
		Compilation compilation = Compilation.compile(this.directory, gadget("""
				public static class Spec {
					@PreserveUnknownFields private String text;
				}
				"""));
		assertFailed(compilation);
		assertThat(compilation.errors()).containsExactly("The schema of field 'text' of com.example.Gadget.Spec cannot "
				+ "be written: type java.lang.String is not supported; @PreserveUnknownFields applies to fields of a "
				+ "class, a map, Object, or a collection of those");
	}

	@Test
	void constraintsOnTypesTheyDoNotFit() {
		Compilation compilation = Compilation.compile(this.directory, gadget("""
				public static class Spec {
					@Size(max = 3) private Integer count;
					@Min(1) private String text;
					@Pattern(regexp = "a") private List<String> list;
					@AllowedValues("a") private Integer number;
					@ListType(ListType.Type.SET) private String notAList;
				}
				"""));
		assertFailed(compilation);
		assertThat(compilation.errors()).containsExactly(
				"@Size on field 'count' of com.example.Gadget.Spec applies to a schema of type string or array or "
						+ "object, and this one is integer",
				"@Min on field 'text' of com.example.Gadget.Spec applies to a schema of type integer or number, and "
						+ "this one is string",
				"@Pattern on field 'list' of com.example.Gadget.Spec applies to a schema of type string, and this one "
						+ "is array",
				"@AllowedValues on field 'number' of com.example.Gadget.Spec applies to a schema of type string, and "
						+ "this one is integer",
				"@ListType on field 'notAList' of com.example.Gadget.Spec applies to a schema of type array, and this "
						+ "one is string");
	}

	@Test
	void listMapsNeedRequiredKeysOfTheirItems() {
		Compilation compilation = Compilation.compile(this.directory, gadget("""
				public static class Spec {
					@ListType(value = ListType.Type.MAP, mapKeys = "type") private List<Condition> conditions;
					@ListType(ListType.Type.MAP) private List<Condition> noKeys;
					@ListType(ListType.Type.SET) private List<Condition> objects;
				}

				public static class Condition {
					private String type;
				}
				"""));
		assertFailed(compilation);
		assertThat(compilation.errors()).containsExactly(
				"@ListType(MAP) on field 'conditions' of com.example.Gadget.Spec: map key 'type' must be a required "
						+ "field of the items (annotate it with @NotNull); the items have [type], required []",
				"@ListType(MAP) on field 'noKeys' of com.example.Gadget.Spec needs items of a class and mapKeys naming "
						+ "the fields that identify an item",
				"@ListType(SET) on field 'objects' of com.example.Gadget.Spec needs items of a scalar type (strings, "
						+ "numbers, booleans)");
	}

	@Test
	void printerColumnsNamingFieldsTheSchemaDoesNotHave() {
		// reported on the class: javac has no position for one of repeated annotations
		Compilation compilation = Compilation.compile(this.directory, """
				package com.example;

				import io.kubeboot.operator.model.CustomResource;
				import io.kubeboot.operator.model.KubernetesKind;
				import io.kubeboot.operator.model.PrinterColumn;

				@KubernetesKind(group = "example.com", version = "v1", kind = "Gadget")
				@PrinterColumn(name = "Name", jsonPath = ".spec.nmae")
				@PrinterColumn(name = "Phase", jsonPath = "status.phase")
				@PrinterColumn(name = "Label", jsonPath = ".metadata.labels.app")
				@PrinterColumn(name = "First", jsonPath = ".spec.items[0].name")
				public class Gadget extends CustomResource<Gadget.Spec, Void> {
					public static class Spec {
						private String name;
						private java.util.List<String> items;
					}
				}
				""");
		assertFailed(compilation);
		assertThat(compilation.errorsWithLines()).containsExactly(
				"Gadget.java:12: @PrinterColumn Name: the jsonPath '.spec.nmae' names the field 'nmae', which .spec "
						+ "does not have; it has [name, items]",
				"Gadget.java:12: @PrinterColumn Phase: the jsonPath 'status.phase' must start with a dot, such as "
						+ ".spec.name");
	}

	private static void assertFailed(Compilation compilation) {
		assertThat(compilation.success()).as(compilation.messages()).isFalse();
		assertThat(compilation.crdFiles()).isEmpty();
	}

	private static String version(String version, boolean storage) {
		return """
				package com.example.%s;

				import io.kubeboot.operator.model.CustomResource;
				import io.kubeboot.operator.model.KubernetesKind;

				@KubernetesKind(group = "example.com", version = "%s", kind = "Gadget", storage = %s)
				public class Gadget extends CustomResource<Gadget.Spec, Void> {
					public static class Spec { private String name; }
				}
				""".formatted(version, version, storage);
	}

}
