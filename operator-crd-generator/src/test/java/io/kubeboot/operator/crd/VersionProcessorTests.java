package io.kubeboot.operator.crd;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.tools.Diagnostic;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a version and a CustomResourceDefinition get beside the schema: selectable fields
 * ({@code @SelectableField}), the scale subresource ({@code @Scale}) and, for a kind with
 * several versions, the conversion webhook named by the processor's options; and the
 * paths and options that fail the compilation.
 */
class VersionProcessorTests {

	@TempDir
	Path directory;

	@Test
	void selectableFieldsOfFieldsAndOfTheKind() {
		Compilation compilation = Compilation.compile(this.directory, kind("""
				@SelectableField(".spec.color")
				@SelectableField(".status.phase")
				""", """
				public static class Spec {
					private String color;
					@SelectableField private Integer size;
					@SelectableField private Boolean enabled;
					private Part part;
				}

				public static class Part {
					@SelectableField private String zone;
				}

				public static class Status {
					private String phase;
				}
				"""));
		assertThat(compilation.success()).as(compilation.messages()).isTrue();
		assertThat(version(compilation).get("selectableFields")).isEqualTo(List.of(Map.of("jsonPath", ".spec.size"),
				Map.of("jsonPath", ".spec.enabled"), Map.of("jsonPath", ".spec.part.zone"),
				Map.of("jsonPath", ".spec.color"), Map.of("jsonPath", ".status.phase")));
		assertThat(compilation.crd("gadgets.example.com")).contains("""
				      selectableFields:
				        - jsonPath: .spec.size
				""");
	}

	@Test
	void selectableFieldsTheApiServerRefuses() {
		Compilation compilation = Compilation.compile(this.directory, kind("""
				@SelectableField(".spec.colour")
				@SelectableField(".spec.tags")
				@SelectableField(".spec.items.name")
				@SelectableField("spec.color")
				@SelectableField
				@SelectableField(".spec.size")
				""", """
				public static class Spec {
					private String color;
					@SelectableField private Integer size;
					@SelectableField private Double ratio;
					private List<String> tags;
					private List<Item> items;
				}

				public static class Item {
					@SelectableField private String name;
				}

				public static class Status { }
				"""));
		assertFailed(compilation);
		assertThat(compilation.errors()).containsExactly(
				"@SelectableField on field 'ratio' of com.example.Gadget.Spec: the field is a number, and a selectable "
						+ "field is a string, an integer or a boolean",
				"@SelectableField on field 'name' of com.example.Gadget.Item: the field is at .spec.items[*].name, in a "
						+ "list or map; a selectable field is reached through fields only",
				"@SelectableField on com.example.Gadget: the path '.spec.colour' names the field 'colour', which .spec "
						+ "does not have; it has [color, size, ratio, tags, items]",
				"@SelectableField on com.example.Gadget: the path '.spec.tags' leads to a list, and a selectable field "
						+ "is a string, an integer or a boolean",
				"@SelectableField on com.example.Gadget: the path '.spec.items.name' goes into .spec.items, which is a "
						+ "list; it must lead to a field through fields only",
				"@SelectableField on com.example.Gadget: the path 'spec.color' must be field names after dots, such as "
						+ ".spec.replicas",
				"@SelectableField on com.example.Gadget: on the kind class, give the field's JSON path, such as "
						+ ".spec.color",
				"@SelectableField on com.example.Gadget: .spec.size is a selectable field already");
	}

	@Test
	void atMostEightSelectableFields() {
		StringBuilder fields = new StringBuilder();
		for (int i = 1; i <= 9; i++) {
			fields.append("@SelectableField private String f").append(i).append(";\n");
		}
		Compilation compilation = Compilation.compile(this.directory,
				kind("", "public static class Spec {\n" + fields + "}\npublic static class Status { }"));
		assertFailed(compilation);
		assertThat(compilation.errors()).containsExactly("com.example.Gadget declares 9 selectable fields, "
				+ "[.spec.f1, .spec.f2, .spec.f3, .spec.f4, .spec.f5, .spec.f6, .spec.f7, .spec.f8, .spec.f9], and the "
				+ "API server takes at most 8 per version");
	}

	@Test
	void theScaleSubresource() {
		Compilation compilation = Compilation.compile(this.directory, kind("""
				@Scale(labelSelectorPath = ".status.selector")
				""", """
				public static class Spec {
					private Integer replicas;
				}

				public static class Status {
					private int replicas;
					private String selector;
				}
				"""));
		assertThat(compilation.success()).as(compilation.messages()).isTrue();
		assertThat(version(compilation).get("subresources"))
			.isEqualTo(Map.of("status", Map.of(), "scale", Map.of("specReplicasPath", ".spec.replicas",
					"statusReplicasPath", ".status.replicas", "labelSelectorPath", ".status.selector")));
		assertThat(compilation.crd("gadgets.example.com")).contains("""
				      subresources:
				        status: {}
				        scale:
				          specReplicasPath: .spec.replicas
				          statusReplicasPath: .status.replicas
				          labelSelectorPath: .status.selector
				""");
	}

	@Test
	void scalePathsThatDoNotExist() {
		Compilation compilation = Compilation.compile(this.directory, kind("""
				@Scale
				""", """
				public static class Spec {
					private Integer size;
				}

				public static class Status {
					private String phase;
				}
				"""));
		assertFailed(compilation);
		assertThat(compilation.errors()).containsExactly(
				"@Scale on com.example.Gadget: the specReplicasPath '.spec.replicas' names the field 'replicas', which "
						+ ".spec does not have; it has [size]",
				"@Scale on com.example.Gadget: the statusReplicasPath '.status.replicas' names the field 'replicas', "
						+ "which .status does not have; it has [phase]");
	}

	@Test
	void scalePathsOfTheWrongTypeOrPlace() {
		Compilation compilation = Compilation.compile(this.directory, kind("""
				@Scale(specReplicasPath = ".spec.size", statusReplicasPath = ".spec.replicas",
						labelSelectorPath = ".metadata.labels")
				""", """
				public static class Spec {
					private String size;
					private Integer replicas;
				}

				public static class Status { }
				"""));
		assertFailed(compilation);
		assertThat(compilation.errors()).containsExactly(
				"@Scale on com.example.Gadget: the specReplicasPath '.spec.size' leads to a field of type string, and "
						+ "it must be an integer",
				"@Scale on com.example.Gadget: the statusReplicasPath '.spec.replicas' must be a path under .status",
				"@Scale on com.example.Gadget: the labelSelectorPath '.metadata.labels' must be a path under .spec or "
						+ ".status");
	}

	@Test
	void scaleOfAKindWithoutStatus() {
		Compilation compilation = Compilation.compile(this.directory, """
				package com.example;

				import io.kubeboot.operator.model.*;

				@KubernetesKind(group = "example.com", version = "v1", kind = "Gadget")
				@Scale
				public class Gadget extends CustomResource<Gadget.Spec, Void> {
					public static class Spec { private int replicas; }
				}
				""");
		assertFailed(compilation);
		assertThat(compilation.errors()).containsExactly("@Scale on com.example.Gadget: the statusReplicasPath "
				+ "'.status.replicas' names the field 'status', which the kind does not have; it has [apiVersion, kind, "
				+ "metadata, spec]");
	}

	@Test
	void scaleAndSelectableFieldPathsGoOnTheKindClass() {
		Compilation compilation = Compilation.compile(this.directory, kind("", """
				@Scale
				@SelectableField(".spec.color")
				public static class Spec {
					private Integer replicas;
					private String color;
				}

				public static class Status {
					private Integer replicas;
				}
				"""));
		assertThat(compilation.success()).isFalse();
		assertThat(compilation.errors()).containsExactlyInAnyOrder(
				"@Scale goes on the class annotated with @KubernetesKind, and com.example.Gadget.Spec is none",
				"@SelectableField goes on the class annotated with @KubernetesKind, and com.example.Gadget.Spec is none");
	}

	@Test
	void severalVersionsAreConvertedByTheWebhook() {
		Compilation compilation = Compilation.compile(this.directory, version("v1", true), version("v1beta1", false));
		assertThat(compilation.success()).as(compilation.messages()).isTrue();
		assertThat(compilation.crd("gadgets.example.com")).contains("""
				  names:
				    kind: Gadget
				    listKind: GadgetList
				    plural: gadgets
				    singular: gadget
				  conversion:
				    strategy: Webhook
				    webhook:
				      conversionReviewVersions:
				        - v1
				      clientConfig:
				        service:
				          name: webhook-service
				          namespace: system
				          path: /convert
				          port: 443
				  versions:
				""");
		assertThat(compilation.of(Diagnostic.Kind.NOTE)).contains("The CustomResourceDefinition of Gadget sends "
				+ "conversions to the Service system/webhook-service, port 443, path /convert; name your Service with "
				+ "-Akubeboot.webhook.service=... and -Akubeboot.webhook.namespace=...");
	}

	@Test
	@SuppressWarnings("unchecked")
	void theOptionsNameTheWebhooksService() {
		Compilation compilation = Compilation.compile(this.directory,
				List.of("kubeboot.webhook.service=storage-operator-webhook",
						"kubeboot.webhook.namespace=storage-system", "kubeboot.webhook.port=8443",
						"kubeboot.webhook.certificate=storage-system/webhook-cert"),
				version("v1", true), version("v1beta1", false));
		assertThat(compilation.success()).as(compilation.messages()).isTrue();
		Map<String, Object> crd = compilation.crdDocument("gadgets.example.com");
		assertThat(((Map<String, Object>) crd.get("spec")).get("conversion"))
			.isEqualTo(Map.of("strategy", "Webhook", "webhook",
					Map.of("conversionReviewVersions", List.of("v1"), "clientConfig",
							Map.of("service", Map.of("name", "storage-operator-webhook", "namespace", "storage-system",
									"path", "/convert", "port", 8443)))));
		assertThat(crd.get("metadata")).isEqualTo(Map.of("name", "gadgets.example.com", "annotations",
				Map.of("cert-manager.io/inject-ca-from", "storage-system/webhook-cert")));
		assertThat(compilation.of(Diagnostic.Kind.NOTE)).noneMatch((note) -> note.contains("conversions"));
	}

	@Test
	@SuppressWarnings("unchecked")
	void oneVersionOrStrategyNoneHasNoConversion() {
		Compilation one = Compilation.compile(this.directory.resolve("one"),
				List.of("kubeboot.webhook.certificate=storage-system/webhook-cert"), version("v1", true));
		assertThat(one.success()).as(one.messages()).isTrue();
		assertThat((Map<String, Object>) one.crdDocument("gadgets.example.com").get("spec"))
			.doesNotContainKey("conversion");
		assertThat(one.crdDocument("gadgets.example.com").get("metadata"))
			.isEqualTo(Map.of("name", "gadgets.example.com"));
		Compilation none = Compilation.compile(this.directory.resolve("none"),
				List.of("kubeboot.conversion.strategy=None"), version("v1", true), version("v1beta1", false));
		assertThat(none.success()).as(none.messages()).isTrue();
		assertThat((Map<String, Object>) none.crdDocument("gadgets.example.com").get("spec"))
			.doesNotContainKey("conversion");
	}

	@Test
	void optionsThatNameNoService() {
		Compilation compilation = Compilation.compile(this.directory,
				List.of("kubeboot.conversion.strategy=Sometimes", "kubeboot.webhook.service=Storage_Webhook",
						"kubeboot.webhook.port=https", "kubeboot.webhook.certificate=webhook-cert"),
				version("v1", true));
		assertThat(compilation.success()).isFalse();
		assertThat(compilation.errors()).containsExactly(
				"-Akubeboot.conversion.strategy=Sometimes is neither Webhook nor None",
				"-Akubeboot.webhook.service=Storage_Webhook is no name of Kubernetes: lower-case letters, digits and "
						+ "'-', at most 63",
				"-Akubeboot.webhook.port=https is no port: 1 to 65535",
				"-Akubeboot.webhook.certificate=webhook-cert names no Certificate: give it as namespace/name");
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> version(Compilation compilation) {
		Map<String, Object> spec = (Map<String, Object>) compilation.crdDocument("gadgets.example.com").get("spec");
		return ((List<Map<String, Object>>) spec.get("versions")).get(0);
	}

	private static void assertFailed(Compilation compilation) {
		assertThat(compilation.success()).as(compilation.messages()).isFalse();
		assertThat(compilation.crdFiles()).isEmpty();
	}

	/** A Gadget kind with annotations and nested classes. */
	private static String kind(String annotations, String nested) {
		return """
				package com.example;

				import io.kubeboot.operator.model.*;
				import java.util.*;

				@KubernetesKind(group = "example.com", version = "v1", kind = "Gadget")
				%s
				public class Gadget extends CustomResource<Gadget.Spec, Gadget.Status> {

				%s

				}
				""".formatted(annotations, nested);
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
