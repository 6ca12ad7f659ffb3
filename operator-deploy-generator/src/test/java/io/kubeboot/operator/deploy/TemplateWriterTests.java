package io.kubeboot.operator.deploy;

import java.util.List;
import java.util.Map;

import io.kubeboot.operator.deploy.Template.Cond;
import io.kubeboot.operator.deploy.Template.Document;
import io.kubeboot.operator.deploy.Template.Scalar;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a template is written: as YAML with the values, and as a Helm template.
 */
class TemplateWriterTests {

	@Test
	void stringsThatYamlWouldReadAsSomethingElseAreQuoted() {
		assertThat(TemplateWriter.literal("0.1")).isEqualTo("\"0.1\"");
		assertThat(TemplateWriter.literal("0.1.0")).isEqualTo("0.1.0");
		assertThat(TemplateWriter.literal("8081")).isEqualTo("\"8081\"");
		assertThat(TemplateWriter.literal("true")).isEqualTo("\"true\"");
		assertThat(TemplateWriter.literal("yes")).isEqualTo("\"yes\"");
		assertThat(TemplateWriter.literal("")).isEqualTo("\"\"");
		assertThat(TemplateWriter.literal("a: b")).isEqualTo("\"a: b\"");
		assertThat(TemplateWriter.literal("*")).isEqualTo("\"*\"");
		assertThat(TemplateWriter.literal("say \"hi\"\n")).isEqualTo("\"say \\\"hi\\\"\\n\"");
		assertThat(TemplateWriter.literal("/actuator/prometheus")).isEqualTo("/actuator/prometheus");
		assertThat(TemplateWriter.literal(8081)).isEqualTo("8081");
		assertThat(TemplateWriter.literal(false)).isEqualTo("false");
	}

	@Test
	void aConditionalEntryIsLeftOutOfTheYamlAndWrappedInTheTemplate() {
		Document document = new Document(List.of(),
				Template.map()
					.put("kind", "Thing")
					.comment("only with more than one")
					.when(new Cond(false, "gt (int $.Values.replicas) 1"))
					.put("spread", true)
					.put("replicas", new Scalar(1, "$.Values.replicas"))
					.put("image", Template.concat(new Scalar("repo", "$.Values.repository"), ":1.0"))
					.build(),
				Cond.ALWAYS);
		assertThat(TemplateWriter.plain(List.of("header"), List.of(document)))
			.isEqualTo("# header\nkind: Thing\nreplicas: 1\nimage: repo:1.0\n");
		assertThat(TemplateWriter.helm(List.of("header"), List.of(document))).isEqualTo("""
				# header
				---
				kind: Thing
				{{- if gt (int $.Values.replicas) 1 }}
				# only with more than one
				spread: true
				{{- end }}
				replicas: {{ $.Values.replicas }}
				image: {{ print ($.Values.repository) ":1.0" | quote }}
				""");
	}

	@Test
	void aMapOfTheValuesIsWrittenSortedAsToYamlWritesIt() {
		Document document = new Document(List.of(), Template.map()
			.put("env", Template.seq()
				.each("$.Values.env", Map.of("B", "2", "A", 1),
						(name, value) -> Template.map().put("name", name).put("value", value).build())
				.build())
			.put("resources", new Template.Block(Map.of("limits", Map.of("memory", "1Gi")), "$.Values.resources"))
			.build(), Cond.ALWAYS);
		assertThat(TemplateWriter.plain(List.of(), List.of(document))).isEqualTo("""
				env:
				  - name: A
				    value: "1"
				  - name: B
				    value: "2"
				resources:
				  limits:
				    memory: 1Gi
				""");
		assertThat(TemplateWriter.helm(List.of(), List.of(document))).isEqualTo("""
				---
				env:
				  {{- range $key, $value := $.Values.env }}
				  - name: {{ $key | quote }}
				    value: {{ $value | quote }}
				  {{- end }}
				resources:
				  {{- toYaml $.Values.resources | nindent 2 }}
				""");
	}

}
