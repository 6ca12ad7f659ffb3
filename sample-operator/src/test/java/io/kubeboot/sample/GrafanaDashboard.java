package io.kubeboot.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * The Grafana dashboard of {@code dashboards/operator.json}: every PromQL query of its
 * panels and template variables, and what a scrape of an operator lacks for them to show
 * data.
 */
final class GrafanaDashboard {

	/** The dashboard; tests run in the module's directory. */
	static final Path FILE = Path.of("..", "dashboards", "operator.json");

	/**
	 * Labels Prometheus attaches to every series it scrapes from a pod, which the
	 * operator does not export itself: {@code job} and {@code instance} always,
	 * {@code namespace} and {@code pod} through Kubernetes service discovery (a
	 * ServiceMonitor, a PodMonitor or the {@code prometheus.io/scrape} annotations), and
	 * {@code exported_namespace}, which Prometheus makes of a series' own
	 * {@code namespace} (an informer's) when it attaches the pod's.
	 */
	static final Set<String> TARGET_LABELS = Set.of("job", "instance", "namespace", "pod", "exported_namespace");

	private static final Pattern LABEL_VALUES = Pattern
		.compile("^\\s*label_values\\((.*),\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\s*\\)\\s*$", Pattern.DOTALL);

	private static final Pattern LEGEND_LABEL = Pattern.compile("\\{\\{\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\s*}}");

	private static final List<String> SUFFIXES = List.of("_bucket", "_sum", "_count", "_max", "_total");

	private final JsonObject json;

	private final List<Query> queries = new ArrayList<>();

	private final List<Variable> variables = new ArrayList<>();

	/**
	 * A panel's query.
	 *
	 * @param panel the panel's title
	 * @param refId the query's letter in the panel
	 * @param query what the query reads
	 * @param legendLabels the labels its {@code legendFormat} shows
	 * ({@code {{controller}}})
	 */
	record Query(String panel, String refId, PromQlQuery query, Set<String> legendLabels) {

		@Override
		public String toString() {
			return "panel '" + this.panel + "' query " + this.refId;
		}

	}

	/**
	 * A template variable filled by {@code label_values(selector, label)}.
	 *
	 * @param name the variable's name
	 * @param selector the selector whose series it reads
	 * @param label the label whose values it offers
	 */
	record Variable(String name, PromQlQuery selector, String label) {

		@Override
		public String toString() {
			return "variable '" + this.name + "'";
		}

	}

	private GrafanaDashboard(JsonObject json) {
		this.json = json;
		for (JsonElement panel : json.getAsJsonArray("panels")) {
			addQueries(panel.getAsJsonObject());
		}
		for (JsonElement element : json.getAsJsonObject("templating").getAsJsonArray("list")) {
			JsonObject variable = element.getAsJsonObject();
			if (!"query".equals(variable.get("type").getAsString())) {
				continue;
			}
			JsonElement query = variable.get("query");
			String text = query.isJsonObject() ? query.getAsJsonObject().get("query").getAsString()
					: query.getAsString();
			Matcher labelValues = LABEL_VALUES.matcher(text);
			if (!labelValues.matches()) {
				throw new IllegalArgumentException("Variable '" + variable.get("name").getAsString()
						+ "' is not label_values(selector, label): " + text);
			}
			this.variables.add(new Variable(variable.get("name").getAsString(), PromQlQuery.parse(labelValues.group(1)),
					labelValues.group(2)));
		}
	}

	private void addQueries(JsonObject panel) {
		if (panel.has("panels")) {
			// a collapsed row holds its panels
			for (JsonElement nested : panel.getAsJsonArray("panels")) {
				addQueries(nested.getAsJsonObject());
			}
		}
		if (!panel.has("targets")) {
			return;
		}
		for (JsonElement element : panel.getAsJsonArray("targets")) {
			JsonObject target = element.getAsJsonObject();
			Set<String> legendLabels = new LinkedHashSet<>();
			if (target.has("legendFormat")) {
				Matcher label = LEGEND_LABEL.matcher(target.get("legendFormat").getAsString());
				while (label.find()) {
					legendLabels.add(label.group(1));
				}
			}
			this.queries.add(new Query(panel.get("title").getAsString(), target.get("refId").getAsString(),
					PromQlQuery.parse(target.get("expr").getAsString()), Set.copyOf(legendLabels)));
		}
	}

	/**
	 * Reads {@link #FILE}.
	 * @return the dashboard
	 */
	static GrafanaDashboard load() throws IOException {
		return parse(Files.readString(FILE, StandardCharsets.UTF_8));
	}

	/**
	 * Reads a dashboard.
	 * @param json the dashboard's JSON, as Grafana exports it
	 * @return the dashboard
	 * @throws IllegalArgumentException if a query cannot be read
	 */
	static GrafanaDashboard parse(String json) {
		return new GrafanaDashboard(JsonParser.parseString(json).getAsJsonObject());
	}

	JsonObject json() {
		return this.json;
	}

	List<Query> queries() {
		return List.copyOf(this.queries);
	}

	List<Variable> variables() {
		return List.copyOf(this.variables);
	}

	/**
	 * Every metric name a panel or a variable reads.
	 * @return the names, sorted
	 */
	Set<String> metrics() {
		Set<String> metrics = new TreeSet<>();
		this.queries.forEach((query) -> metrics.addAll(query.query().metrics()));
		this.variables.forEach((variable) -> metrics.addAll(variable.selector().metrics()));
		return metrics;
	}

	/**
	 * What keeps a panel or a variable from showing data when Prometheus scrapes an
	 * operator that exports what the scrape has: a metric name it does not export, a
	 * label that a selector matches on, a query groups by or a legend shows but the
	 * series do not have (a legend of an aggregation may only show the labels it keeps).
	 * The labels of {@link #TARGET_LABELS} are taken as present.
	 * @param scrape a scrape of the operator
	 * @return the problems, one sentence each; empty if there is none
	 */
	List<String> problems(PrometheusScrape scrape) {
		List<String> problems = new ArrayList<>();
		for (Query query : this.queries) {
			Set<String> labels = checkSelectors(query, query.query(), scrape, problems);
			for (String label : query.query().groupingLabels()) {
				if (!labels.contains(label)) {
					problems.add(query + " groups by '" + label + "', which none of " + query.query().metrics()
							+ " has: " + query.query().expression());
				}
			}
			for (String label : query.legendLabels()) {
				if (query.query().aggregates() && !query.query().groupingLabels().contains(label)) {
					problems.add(query + " shows {{" + label + "}} in its legend, which its aggregation drops: "
							+ query.query().expression());
				}
				else if (!labels.contains(label)) {
					problems.add(query + " shows {{" + label + "}} in its legend, which none of "
							+ query.query().metrics() + " has");
				}
			}
		}
		for (Variable variable : this.variables) {
			Set<String> labels = checkSelectors(variable, variable.selector(), scrape, problems);
			if (!labels.contains(variable.label())) {
				problems.add(variable + " offers the values of '" + variable.label() + "', which none of "
						+ variable.selector().metrics() + " has");
			}
		}
		return problems;
	}

	/**
	 * Checks the selectors of a query, returning the labels its series have (the target
	 * labels included).
	 */
	private static Set<String> checkSelectors(Object source, PromQlQuery query, PrometheusScrape scrape,
			List<String> problems) {
		Set<String> labels = new TreeSet<>(TARGET_LABELS);
		for (PromQlQuery.Selector selector : query.selectors()) {
			if (!scrape.exports(selector.metric())) {
				problems.add(source + " reads " + selector.metric() + ", which the operator does not export"
						+ exportedOfFamily(selector.metric(), scrape));
				continue;
			}
			Set<String> has = scrape.labels(selector.metric());
			labels.addAll(has);
			for (String label : selector.labels()) {
				if (!TARGET_LABELS.contains(label) && !has.contains(label)) {
					problems.add(source + " matches " + selector.metric() + " on '" + label
							+ "', a label it does not have (it has " + has + ")");
				}
			}
		}
		return labels;
	}

	private static String exportedOfFamily(String metric, PrometheusScrape scrape) {
		Set<String> relatives = new TreeSet<>();
		for (String name : scrape.names()) {
			if (family(name).equals(family(metric))) {
				relatives.add(name);
			}
		}
		return relatives.isEmpty() ? "" : " (it exports " + String.join(", ", relatives) + ")";
	}

	/**
	 * The metric families of a scrape whose name starts with one of the prefixes and that
	 * no panel or variable reads.
	 * @param scrape a scrape of the operator
	 * @param prefixes prefixes such as {@code workqueue_}
	 * @return the families, sorted
	 */
	Set<String> familiesNotShown(PrometheusScrape scrape, List<String> prefixes) {
		Set<String> shown = new TreeSet<>();
		metrics().forEach((metric) -> shown.add(family(metric)));
		Set<String> missing = new TreeSet<>();
		for (String name : scrape.names()) {
			if (prefixes.stream().anyMatch(name::startsWith) && !shown.contains(family(name))) {
				missing.add(family(name));
			}
		}
		return missing;
	}

	/**
	 * The family of a sample name: without {@code _bucket}, {@code _sum}, {@code _count}
	 * (histograms), {@code _max} (Micrometer's gauge beside a histogram) or
	 * {@code _total} (counters).
	 */
	static String family(String name) {
		for (String suffix : SUFFIXES) {
			if (name.endsWith(suffix)) {
				return name.substring(0, name.length() - suffix.length());
			}
		}
		return name;
	}

}
