package io.kubeboot.sample;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a PromQL expression reads, as far as a dashboard's correctness depends on it: the
 * metric names of its selectors with the labels each one matches on, the labels it groups
 * by ({@code by}, {@code without}) or matches vector operands on ({@code on},
 * {@code ignoring}, {@code group_left}, {@code group_right}), and whether it aggregates.
 * Function and aggregation names, keywords, numbers, durations, ranges and Grafana
 * variables ({@code $job}, {@code ${job}}, {@code [[job]]}, {@code $__rate_interval}) are
 * not metric names. A selector without a metric name ({@code {__name__=~"..."}}) is
 * refused: what it reads cannot be told from the text.
 *
 * @param expression the expression as written
 * @param selectors the selectors, in the order they appear
 * @param groupingLabels the labels of every {@code by (...)}, {@code without (...)},
 * {@code on (...)}, {@code ignoring (...)}, {@code group_left (...)} and
 * {@code group_right (...)} clause
 * @param aggregates whether the expression applies an aggregation operator such as
 * {@code sum} or {@code max}
 */
record PromQlQuery(String expression, List<Selector> selectors, Set<String> groupingLabels, boolean aggregates) {

	private static final Set<String> AGGREGATIONS = Set.of("sum", "min", "max", "avg", "group", "stddev", "stdvar",
			"count", "count_values", "bottomk", "topk", "quantile", "limitk", "limit_ratio");

	private static final Set<String> GROUPING = Set.of("by", "without", "on", "ignoring", "group_left", "group_right");

	private static final Set<String> KEYWORDS = Set.of("bool", "and", "or", "unless", "offset", "atan2", "inf", "nan");

	/** Grafana's variable syntaxes, replaced by a number before parsing. */
	private static final Pattern VARIABLE = Pattern.compile("\\$\\{[^}]*}|\\$\\w+|\\[\\[[^]]*]]");

	/**
	 * One selector: a metric name and the labels its matchers name.
	 *
	 * @param metric the metric name, such as
	 * {@code controller_runtime_reconcile_time_seconds_bucket}
	 * @param labels the labels of its matchers, such as {@code controller} for
	 * {@code {controller=~"$controller"}}
	 */
	record Selector(String metric, Set<String> labels) {

	}

	/**
	 * Parses an expression.
	 * @param expression the expression
	 * @return what it reads
	 * @throws IllegalArgumentException if it has a selector without a metric name, or a
	 * string, matcher list or label list that does not end
	 */
	static PromQlQuery parse(String expression) {
		return new Parser(VARIABLE.matcher(expression).replaceAll("1"), expression).parse();
	}

	/**
	 * Every metric name the expression reads.
	 * @return the names, in the order they first appear
	 */
	Set<String> metrics() {
		Set<String> metrics = new LinkedHashSet<>();
		this.selectors.forEach((selector) -> metrics.add(selector.metric()));
		return metrics;
	}

	private static final class Parser {

		private final String text;

		private final String expression;

		private final List<Selector> selectors = new ArrayList<>();

		private final Set<String> grouping = new LinkedHashSet<>();

		private boolean aggregates;

		private int position;

		Parser(String text, String expression) {
			this.text = text;
			this.expression = expression;
		}

		PromQlQuery parse() {
			while (this.position < this.text.length()) {
				char c = this.text.charAt(this.position);
				if (Character.isWhitespace(c)) {
					this.position++;
				}
				else if (c == '"' || c == '\'' || c == '`') {
					skipString();
				}
				else if (c == '[') {
					// a range or a subquery: [5m], [1h:1m]
					skipPast(']');
				}
				else if (c == '{') {
					throw invalid("a selector without a metric name at " + this.position);
				}
				else if (Character.isLetter(c) || c == '_' || c == ':') {
					word();
				}
				else if (Character.isDigit(c) || c == '.') {
					// a number or a duration: 0.99, 1e3, 5m, 0x1f
					while (this.position < this.text.length()
							&& (Character.isLetterOrDigit(this.text.charAt(this.position))
									|| this.text.charAt(this.position) == '.')) {
						this.position++;
					}
				}
				else {
					this.position++;
				}
			}
			return new PromQlQuery(this.expression, List.copyOf(this.selectors), Set.copyOf(this.grouping),
					this.aggregates);
		}

		private void word() {
			int start = this.position;
			while (this.position < this.text.length() && (Character.isLetterOrDigit(this.text.charAt(this.position))
					|| this.text.charAt(this.position) == '_' || this.text.charAt(this.position) == ':')) {
				this.position++;
			}
			String word = this.text.substring(start, this.position);
			int next = nextNonWhitespace();
			boolean call = next < this.text.length() && this.text.charAt(next) == '(';
			if (GROUPING.contains(word)) {
				if (call) {
					this.position = next;
					this.grouping.addAll(labelList());
				}
			}
			else if (AGGREGATIONS.contains(word)) {
				this.aggregates = true;
			}
			else if (!KEYWORDS.contains(word.toLowerCase(Locale.ROOT)) && !call) {
				// neither a keyword nor a function such as rate or histogram_quantile
				Set<String> labels = new LinkedHashSet<>();
				if (next < this.text.length() && this.text.charAt(next) == '{') {
					this.position = next;
					labels.addAll(matcherLabels());
				}
				this.selectors.add(new Selector(word, Set.copyOf(labels)));
			}
		}

		/** Reads {@code {a="x", b=~"y"}}, returning the label names. */
		private List<String> matcherLabels() {
			List<String> labels = new ArrayList<>();
			this.position++;
			while (true) {
				this.position = nextNonWhitespace();
				if (this.position >= this.text.length()) {
					throw invalid("a matcher list that does not end");
				}
				char c = this.text.charAt(this.position);
				if (c == '}') {
					this.position++;
					return labels;
				}
				if (c == ',') {
					this.position++;
					continue;
				}
				int start = this.position;
				while (this.position < this.text.length() && (Character.isLetterOrDigit(this.text.charAt(this.position))
						|| this.text.charAt(this.position) == '_')) {
					this.position++;
				}
				if (start == this.position) {
					throw invalid("a matcher that does not start with a label name at " + start);
				}
				labels.add(this.text.substring(start, this.position));
				while (this.position < this.text.length() && "=!~ ".indexOf(this.text.charAt(this.position)) >= 0) {
					this.position++;
				}
				if (this.position >= this.text.length() || "\"'`".indexOf(this.text.charAt(this.position)) < 0) {
					throw invalid("a matcher without a quoted value at " + this.position);
				}
				skipString();
			}
		}

		/** Reads {@code (a, b)}, returning the label names. */
		private List<String> labelList() {
			int start = this.position + 1;
			skipPast(')');
			List<String> labels = new ArrayList<>();
			for (String label : this.text.substring(start, this.position - 1).split(",")) {
				if (!label.isBlank()) {
					labels.add(label.strip());
				}
			}
			return labels;
		}

		private void skipString() {
			char quote = this.text.charAt(this.position);
			this.position++;
			while (this.position < this.text.length() && this.text.charAt(this.position) != quote) {
				this.position += (this.text.charAt(this.position) == '\\' && quote != '`') ? 2 : 1;
			}
			if (this.position >= this.text.length()) {
				throw invalid("a string that does not end");
			}
			this.position++;
		}

		private void skipPast(char end) {
			int found = this.text.indexOf(end, this.position);
			if (found < 0) {
				throw invalid("no '" + end + "' after " + this.position);
			}
			this.position = found + 1;
		}

		private int nextNonWhitespace() {
			int next = this.position;
			while (next < this.text.length() && Character.isWhitespace(this.text.charAt(next))) {
				next++;
			}
			return next;
		}

		private IllegalArgumentException invalid(String problem) {
			return new IllegalArgumentException(
					"Cannot read the PromQL expression " + this.expression + ": " + problem);
		}

	}

}
