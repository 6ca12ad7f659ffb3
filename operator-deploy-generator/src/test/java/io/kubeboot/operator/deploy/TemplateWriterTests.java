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
	void conditionsAreWrittenAsHelmsOwn() {
		Cond enabled = new Cond(true, "$.Values.networkPolicy.enabled");
		Cond several = new Cond(false, "gt (int $.Values.replicas) 1");
		assertThat(enabled.not()).isEqualTo(new Cond(false, "not ($.Values.networkPolicy.enabled)"));
		assertThat(enabled.and(several.not()))
			.isEqualTo(new Cond(true, "and ($.Values.networkPolicy.enabled) (not (gt (int $.Values.replicas) 1))"));
		assertThat(Cond.ALWAYS.and(several)).isSameAs(several);
		Document document = new Document(List.of(), Template.map().put("a", 1).build(), enabled.and(several));
		assertThat(TemplateWriter.helm(List.of(), List.of(document))).isEqualTo("""
				{{- if and ($.Values.networkPolicy.enabled) (gt (int $.Values.replicas) 1) }}
				---
				a: 1
				{{- end }}
				""");
		assertThat(TemplateWriter.plain(List.of(), List.of(document))).isEmpty();
	}

	@Test
	void listsAndMapsOfTheValuesAreSplicedAndMergedAsToYamlWritesThem() {
		Document document = new Document(List.of(),
				Template.map()
					.put("labels",
							Template.map()
								.put("app", "x")
								.merge(new Template.Block(Map.of("b", "2", "a", "1"), "$.Values.podLabels"))
								.build())
					.put("env",
							Template.seq()
								.add(Template.map().put("name", "A").build())
								.splice(new Template.Block(List.of(Map.of("name", "B", "value", "2")), "$.Values.env"))
								.build())
					.build(),
				Cond.ALWAYS);
		assertThat(TemplateWriter.plain(List.of(), List.of(document))).isEqualTo("""
				labels:
				  app: x
				  a: "1"
				  b: "2"
				env:
				  - name: A
				  - name: B
				    value: "2"
				""");
		assertThat(TemplateWriter.helm(List.of(), List.of(document))).isEqualTo("""
				---
				labels:
				  app: x
				  {{- with $.Values.podLabels }}
				  {{- toYaml . | nindent 2 }}
				  {{- end }}
				env:
				  - name: A
				  {{- with $.Values.env }}
				  {{- toYaml . | nindent 2 }}
				  {{- end }}
				""");
	}

	@Test
	void anActionIsWrittenInTheTemplateAlone() {
		List<Object> documents = List.of(new Template.Action("{{- include \"x.checks\" $ }}"),
				new Document(List.of(), Template.map().put("a", 1).build(), Cond.ALWAYS));
		assertThat(TemplateWriter.helm(List.of("h"), documents))
			.isEqualTo("# h\n{{- include \"x.checks\" $ }}\n---\na: 1\n");
		assertThat(TemplateWriter.plain(List.of("h"), documents)).isEqualTo("# h\na: 1\n");
	}

	@Test
	void aMapOfTheValuesIsWrittenSortedAsToYamlWritesIt() {
		Document document = new Document(List.of(), Template.map()
			.put("env",
					Template.seq()
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
