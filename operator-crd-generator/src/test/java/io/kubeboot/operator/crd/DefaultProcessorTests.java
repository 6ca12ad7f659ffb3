package io.kubeboot.operator.crd;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static io.kubeboot.operator.crd.CustomResourceDefinitionProcessorTests.gadget;
import static io.kubeboot.operator.crd.CustomResourceDefinitionProcessorTests.properties;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @Default} becomes the {@code default} of a field's schema when it is a value of
 * the field's type, and fails the compilation, naming the field, when it is not.
 */
class DefaultProcessorTests {

	@TempDir
	Path directory;

	@Test
	@SuppressWarnings("unchecked")
	void defaultsOfEveryType() {
		Compilation compilation = Compilation.compile(this.directory, gadget("""
				public enum Mode { FAST, SLOW }

				public static class Spec {
					@Default("3") private Integer replicas;
					@Default("Retain") private String policy;
					@Default("\\"say \\\\\\"hi\\\\\\"\\"") private String quoted;
					@Default("") private String empty;
					@Default("true") private boolean enabled;
					@Default("0.5") private double ratio;
					@Default("2") private double whole;
					@Default("SLOW") private Mode mode;
					@Default("[\\"a\\", \\"b\\"]") private List<String> tags;
					@Default("{\\"path\\": \\"/healthz\\", \\"port\\": 8080}") private Probe probe;
					@Default("{}") private Map<String, Integer> counts;
					@Default("80%") private io.kubernetes.client.custom.IntOrString maxSurge;
					@Default("8080") private io.kubernetes.client.custom.IntOrString port;
					@Default("1Gi") private io.kubernetes.client.custom.Quantity memory;
					@Default("[[1, 2], [3]]") private List<List<Integer>> matrix;
					@Default("{\\"any\\": [1, {\\"thing\\": 2}]}") @PreserveUnknownFields private Object free;
				}

				public static class Probe {
					@NotNull private String path;
					private Integer port;
				}
				"""));
		assertThat(compilation.success()).as(compilation.messages()).isTrue();
		Map<String, Object> spec = properties(compilation.crdDocument("gadgets.example.com"), "spec");
		assertThat(spec)
			.extractingByKeys("replicas", "policy", "quoted", "empty", "enabled", "ratio", "whole", "mode", "tags",
					"probe", "counts", "maxSurge", "port", "memory", "matrix")
			.extracting((property) -> ((Map<String, Object>) property).get("default"))
			.containsExactly(3, "Retain", "say \"hi\"", "", true, 0.5, 2, "SLOW", List.of("a", "b"),
					Map.of("path", "/healthz", "port", 8080), Map.of(), "80%", 8080, "1Gi",
					List.of(List.of(1, 2), List.of(3)));
		assertThat(compilation.crd("gadgets.example.com")).contains("""
				                replicas:
				                  type: integer
				                  format: int32
				                  default: 3
				""").contains("""
				                matrix:
				                  type: array
				                  default:
				                    - - 1
				                      - 2
				                    - - 3
				""");
		assertThat(((Map<String, Object>) spec.get("free")).get("default"))
			.isEqualTo(Map.of("any", List.of(1, Map.of("thing", 2))));
	}

	@Test
	void defaultsThatAreNoValueOfTheField() {
		Compilation compilation = Compilation.compile(this.directory, gadget("""
				public enum Mode { FAST, SLOW }

				public static class Spec {
					@Default("fast") private Integer replicas;
					@Default("\\"3\\"") private Integer count;
					@Default("1.5") private int whole;
					@Default("MEDIUM") private Mode mode;
					@Default("{\\"paht\\": \\"/\\"}") private Probe probe;
					@Default("{\\"port\\": 1}") private Probe other;
					@Default("[1]") private List<String> tags;
					@Default("null") private Integer nothing;
					@Default("{\\"any\\": [1, {\\"thing\\": null}]}") @PreserveUnknownFields private Object free;
					@Default("3000000000") private int big;
					@Default("[true]") private List<io.kubernetes.client.custom.IntOrString> ports;
				}

				public static class Probe {
					@NotNull private String path;
					private Integer port;
				}
				"""));
		assertThat(compilation.success()).as(compilation.messages()).isFalse();
		assertThat(compilation.crdFiles()).isEmpty();
		assertThat(compilation.errors()).containsExactly(
				"@Default on field 'replicas' of com.example.Gadget.Spec: 'fast' is not JSON (unexpected 'f' at "
						+ "character 1); the field is an integer, such as 3",
				"@Default on field 'count' of com.example.Gadget.Spec: the default is a string (\"3\"), and "
						+ "must be an integer",
				"@Default on field 'whole' of com.example.Gadget.Spec: the default is a number (1.5), and must "
						+ "be an integer",
				"@Default on field 'mode' of com.example.Gadget.Spec: the default is 'MEDIUM', which is not "
						+ "one of the allowed values [FAST, SLOW]",
				"@Default on field 'probe' of com.example.Gadget.Spec: the default has the field "
						+ "'paht', which the field's type does not have; it has [path, port]",
				"@Default on field 'other' of com.example.Gadget.Spec: the default lacks the required "
						+ "field 'path'",
				"@Default on field 'tags' of com.example.Gadget.Spec: the default's [0] is an integer (1), and "
						+ "must be a string",
				"@Default on field 'nothing' of com.example.Gadget.Spec: the default is null, which is no "
						+ "default: leave it out",
				"@Default on field 'free' of com.example.Gadget.Spec: the "
						+ "default's .any[1].thing is null, which is no default: leave it out",
				"@Default on field 'big' of com.example.Gadget.Spec: the default is 3000000000, which an "
						+ "int32 cannot hold",
				"@Default on field 'ports' of com.example.Gadget.Spec: the default's [0] is a boolean "
						+ "(true), and must be an integer or a string");
	}

	@Test
	void jsonReadsWhatRfc8259Allows() {
		assertThat(Json.parse(" {\"a\": [1, -2.5e1, true, false, \"\\u00e9\\n\"], \"b\": {}} "))
			.isEqualTo(Map.of("a", List.of(1L, new BigDecimal("-2.5e1"), true, false, "é\n"), "b", Map.of()));
		assertThat(Json.parse("12345678901234567890")).isEqualTo(new BigDecimal("12345678901234567890"));
		assertThat(Json.parse("null")).isSameAs(Json.NULL);
		for (String text : List.of("", "{a: 1}", "[1,]", "01", "'a'", "\"a", "1 2", "tru", "\"\\x\"", "{\"a\" 1}")) {
			org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
				.as(text)
				.isThrownBy(() -> Json.parse(text));
		}
	}

}
