package io.kubeboot.sample;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * {@code dashboards/operator.json} without a cluster: a dashboard Grafana imports, every
 * query filtered by the variables, and the reading of PromQL and of scrapes that
 * {@link GrafanaDashboardIntegrationTests} relies on.
 */
class GrafanaDashboardTests {

	@Test
	void isADashboardGrafanaImports() throws Exception {
		JsonObject json = GrafanaDashboard.load().json();
		assertThat(json.get("uid").getAsString()).isEqualTo("operator-spring-boot");
		assertThat(json.get("title").getAsString()).isEqualTo("Operator Spring Boot");
		assertThat(json.get("schemaVersion").getAsInt()).isEqualTo(39);
		assertThat(json.get("id").isJsonNull()).isTrue();
		List<String> variables = new ArrayList<>();
		for (JsonElement variable : json.getAsJsonObject("templating").getAsJsonArray("list")) {
			variables.add(variable.getAsJsonObject().get("name").getAsString());
			if (!"datasource".equals(variable.getAsJsonObject().get("type").getAsString())) {
				assertThat(datasourceUid(variable.getAsJsonObject())).isEqualTo("${datasource}");
			}
		}
		assertThat(variables).containsExactly("datasource", "namespace", "job", "pod", "controller");

		Set<Integer> ids = new HashSet<>();
		List<int[]> areas = new ArrayList<>();
		for (JsonElement element : json.getAsJsonArray("panels")) {
			JsonObject panel = element.getAsJsonObject();
			String title = panel.get("title").getAsString();
			assertThat(ids.add(panel.get("id").getAsInt())).as("id of %s is unique", title).isTrue();
			JsonObject grid = panel.getAsJsonObject("gridPos");
			int[] area = { grid.get("x").getAsInt(), grid.get("y").getAsInt(), grid.get("w").getAsInt(),
					grid.get("h").getAsInt() };
			assertThat(area[0] + area[2]).as("right edge of %s", title).isLessThanOrEqualTo(24);
			assertThat(area[2]).as("width of %s", title).isPositive();
			assertThat(area[3]).as("height of %s", title).isPositive();
			for (int[] other : areas) {
				boolean overlap = area[0] < other[0] + other[2] && other[0] < area[0] + area[2]
						&& area[1] < other[1] + other[3] && other[1] < area[1] + area[3];
				assertThat(overlap).as("%s overlaps another panel", title).isFalse();
			}
			areas.add(area);
			if ("row".equals(panel.get("type").getAsString())) {
				continue;
			}
			assertThat(panel.get("type").getAsString()).isIn("timeseries", "stat", "state-timeline");
			assertThat(datasourceUid(panel)).as("data source of %s", title).isEqualTo("${datasource}");
			Set<String> refIds = new HashSet<>();
			for (JsonElement target : panel.getAsJsonArray("targets")) {
				assertThat(datasourceUid(target.getAsJsonObject())).isEqualTo("${datasource}");
				assertThat(refIds.add(target.getAsJsonObject().get("refId").getAsString())).isTrue();
				assertThat(target.getAsJsonObject().get("expr").getAsString()).isNotBlank();
			}
			assertThat(refIds).as("queries of %s", title).isNotEmpty();
		}
	}

	@Test
	void everyQueryFollowsTheVariables() throws Exception {
		GrafanaDashboard dashboard = GrafanaDashboard.load();
		assertThat(dashboard.queries()).hasSizeGreaterThan(40);
		for (GrafanaDashboard.Query query : dashboard.queries()) {
			for (PromQlQuery.Selector selector : query.query().selectors()) {
				assertThat(selector.labels()).as("%s: %s", query, selector.metric())
					.contains("namespace", "job", "pod");
				if (selector.metric().startsWith("workqueue_") || selector.metric().startsWith("operator_reconcile_")
						|| (selector.metric().startsWith("controller_runtime_")
								&& !selector.metric().startsWith("controller_runtime_webhook_"))) {
					assertThat(selector.labels()).as("%s: %s", query, selector.metric()).contains("controller");
				}
			}
		}
		assertThat(dashboard.metrics()).contains("controller_runtime_reconcile_total",
				"controller_runtime_reconcile_time_seconds_bucket", "workqueue_depth", "leader_election_master_status",
				"rest_client_requests_total", "controller_runtime_webhook_requests_total", "process_cpu_usage");
	}

	@Test
	void thePanelsOfWhatTheCacheCostsShowEachInformerOnALineOfItsOwn() throws Exception {
		// two informers of one kind differ by any of these: a max or a sum without one
		// of them would show one line for both
		Set<String> informer = Set.of("kind", "namespace", "exported_namespace", "selector", "field_selector",
				"metadata_only");
		List<GrafanaDashboard.Query> queries = GrafanaDashboard.load()
			.queries()
			.stream()
			.filter((query) -> query.query()
				.metrics()
				.stream()
				.anyMatch((metric) -> metric.startsWith("operator_informer_objects")
						|| metric.startsWith("operator_informer_object_budget")
						|| metric.startsWith("operator_informer_estimated_heap_bytes")))
			.filter((query) -> !query.query().groupingLabels().contains("pod"))
			.toList();
		assertThat(queries).hasSize(4)
			.allSatisfy((query) -> assertThat(query.query().groupingLabels()).as("%s", query).containsAll(informer));
	}

	@Test
	void readsTheMetricNamesAndLabelsOfAQuery() {
		PromQlQuery query = PromQlQuery.parse("histogram_quantile(0.99, sum by (controller, le) "
				+ "(rate(controller_runtime_reconcile_time_seconds_bucket{namespace=~\"$namespace\", "
				+ "controller=~\"${controller:regex}\"}[$__rate_interval])))");
		assertThat(query.selectors()).containsExactly(new PromQlQuery.Selector(
				"controller_runtime_reconcile_time_seconds_bucket", Set.of("namespace", "controller")));
		assertThat(query.groupingLabels()).containsExactlyInAnyOrder("controller", "le");
		assertThat(query.aggregates()).isTrue();

		PromQlQuery ratio = PromQlQuery.parse("rate(a_sum{x=\"}{,\\\"\"}[5m] offset 1h) / on (x) "
				+ "group_left(y) rate(a_count[1h:1m]) > bool 1e-9 unless b or absent(c) and d{z!~'q'}");
		assertThat(ratio.metrics()).containsExactly("a_sum", "a_count", "b", "c", "d");
		assertThat(ratio.selectors().get(0).labels()).containsExactly("x");
		assertThat(ratio.selectors().get(4).labels()).containsExactly("z");
		assertThat(ratio.groupingLabels()).containsExactlyInAnyOrder("x", "y");
		assertThat(ratio.aggregates()).isFalse();

		assertThatIllegalArgumentException().isThrownBy(() -> PromQlQuery.parse("sum({__name__=~\"workqueue_.*\"})"))
			.withMessageContaining("a selector without a metric name");
	}

	@Test
	void readsTheLabelNamesOfAScrape() {
		PrometheusScrape scrape = PrometheusScrape.parse("""
				# HELP a_total A counter
				# TYPE a_total counter
				a_total{b="x\\"},c=\\"",d="y"} 1.0
				a_total{e=""} 2.0
				f 3.0
				""");
		assertThat(scrape.names()).containsExactly("a_total", "f");
		assertThat(scrape.labels("a_total")).containsExactly("b", "d", "e");
		assertThat(scrape.labels("f")).isEmpty();
		assertThat(scrape.exports("g")).isFalse();
	}

	@Test
	void namesEveryQueryThatWouldShowNoData() {
		GrafanaDashboard dashboard = GrafanaDashboard
			.parse("""
					{
					  "panels": [
					    { "type": "row", "title": "Row", "panels": [] },
					    { "type": "timeseries", "title": "Duration", "targets": [
					      { "refId": "A", "legendFormat": "{{controller}} {{pod}} {{result}}",
					        "expr": "histogram_quantile(0.9, sum by (controller, pod, le) (rate(r_seconds_bucket{pod=~\\"$pod\\", result=\\"x\\"}[5m])))" },
					      { "refId": "B", "legendFormat": "{{name}}", "expr": "w_depth{name=\\"q\\"} + on (other) missing_total" },
					      { "refId": "C", "legendFormat": "{{controller}}", "expr": "sum by (controller) (rate(r_seconds_count[5m]))" }
					    ] }
					  ],
					  "templating": { "list": [
					    { "type": "datasource", "name": "datasource", "query": "prometheus" },
					    { "type": "query", "name": "controller", "query": "label_values(r_seconds_count{job=~\\"$job\\"}, controller)" },
					    { "type": "query", "name": "queue", "query": { "query": "label_values(w_depth, queue)" } }
					  ] }
					}
					""");
		PrometheusScrape scrape = PrometheusScrape.parse("""
				r_seconds_bucket{controller="c",le="0.005"} 1
				r_seconds_count{controller="c"} 1
				r_seconds_total{controller="c"} 1
				missing_sum 1
				w_depth{name="q"} 0
				""");
		assertThat(dashboard.problems(scrape)).containsExactly(
				"panel 'Duration' query A matches r_seconds_bucket on 'result', a label it does not have "
						+ "(it has [controller, le])",
				"panel 'Duration' query A shows {{result}} in its legend, which its aggregation drops: "
						+ dashboard.queries().get(0).query().expression(),
				"panel 'Duration' query B reads missing_total, which the operator does not export "
						+ "(it exports missing_sum)",
				"panel 'Duration' query B groups by 'other', which none of [w_depth, missing_total] has: "
						+ "w_depth{name=\"q\"} + on (other) missing_total",
				"variable 'queue' offers the values of 'queue', which none of [w_depth] has");
		assertThat(dashboard.familiesNotShown(scrape, List.of("r_", "w_", "x_"))).isEmpty();
		assertThat(dashboard.familiesNotShown(PrometheusScrape.parse("x_total 1\nr_seconds_max 1\n"), List.of("x_")))
			.containsExactly("x");
	}

	private static String datasourceUid(JsonObject object) {
		return object.getAsJsonObject("datasource").get("uid").getAsString();
	}

}
