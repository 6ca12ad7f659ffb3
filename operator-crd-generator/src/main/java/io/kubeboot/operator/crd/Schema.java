package io.kubeboot.operator.crd;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One node of an OpenAPI v3 schema as a CustomResourceDefinition holds it. Its keys are
 * kept in one fixed order (description and type first, properties last) so that the YAML
 * reads the same for every node and every build.
 */
final class Schema {

	private static final List<String> ORDER = List.of("description", "type", "format", "default", "enum", "minLength",
			"maxLength", "pattern", "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "minItems",
			"maxItems", "minProperties", "maxProperties", "anyOf", "x-kubernetes-int-or-string",
			"x-kubernetes-preserve-unknown-fields", "x-kubernetes-list-type", "x-kubernetes-list-map-keys",
			"x-kubernetes-validations", "required", "properties", "items", "additionalProperties");

	private static final Comparator<String> KEYS = Comparator
		.comparingInt((String key) -> ORDER.contains(key) ? ORDER.indexOf(key) : ORDER.size())
		.thenComparing(Comparator.naturalOrder());

	private final Map<String, Object> values = new TreeMap<>(KEYS);

	private final Map<String, Schema> properties = new LinkedHashMap<>();

	private final List<String> required = new ArrayList<>();

	private final List<Rule> rules = new ArrayList<>();

	private Origin selectable;

	static Schema ofType(String type) {
		return new Schema().put("type", type);
	}

	Schema put(String key, Object value) {
		this.values.put(key, value);
		return this;
	}

	Object get(String key) {
		return this.values.get(key);
	}

	boolean has(String key) {
		return this.values.containsKey(key);
	}

	String type() {
		return (String) this.values.get("type");
	}

	/**
	 * Keeps the greater of the current and the new lower bound.
	 * @param key a lower bound such as {@code minLength}
	 * @param value the new bound
	 */
	void atLeast(String key, BigDecimal value) {
		Object current = this.values.get(key);
		if (current == null || decimal(current).compareTo(value) < 0) {
			this.values.put(key, number(value));
		}
	}

	/**
	 * Keeps the smaller of the current and the new upper bound.
	 * @param key an upper bound such as {@code maxLength}
	 * @param value the new bound
	 */
	void atMost(String key, BigDecimal value) {
		Object current = this.values.get(key);
		if (current == null || decimal(current).compareTo(value) > 0) {
			this.values.put(key, number(value));
		}
	}

	Map<String, Schema> properties() {
		return this.properties;
	}

	List<String> required() {
		return this.required;
	}

	/**
	 * The CEL rules of this node, its {@code x-kubernetes-validations}.
	 * @return the rules, to add to
	 */
	List<Rule> rules() {
		return this.rules;
	}

	/**
	 * The {@code @SelectableField} that declares this node a selectable field.
	 * @return where it comes from, or {@code null} if it is none
	 */
	Origin selectable() {
		return this.selectable;
	}

	void selectable(Origin origin) {
		this.selectable = origin;
	}

	/**
	 * The schema of a list's items.
	 * @return the items' schema, or {@code null} if this is no list
	 */
	Schema items() {
		return (this.values.get("items") instanceof Schema items) ? items : null;
	}

	/**
	 * The schema of a map's values.
	 * @return the values' schema, or {@code null} if this is no map
	 */
	Schema additionalProperties() {
		return (this.values.get("additionalProperties") instanceof Schema values) ? values : null;
	}

	/**
	 * This schema as maps and lists for {@link YamlWriter}; empty properties and required
	 * lists are left out (kube-apiserver rejects neither, but they say nothing).
	 * @return the map
	 */
	Map<String, Object> toMap() {
		Map<String, Object> map = new TreeMap<>(KEYS);
		for (Map.Entry<String, Object> entry : this.values.entrySet()) {
			map.put(entry.getKey(), convert(entry.getValue()));
		}
		if (!this.rules.isEmpty()) {
			map.put("x-kubernetes-validations", this.rules.stream().map(Rule::toMap).toList());
		}
		if (!this.required.isEmpty()) {
			map.put("required", List.copyOf(this.required));
		}
		if (!this.properties.isEmpty()) {
			Map<String, Object> properties = new LinkedHashMap<>();
			this.properties.forEach((name, schema) -> properties.put(name, schema.toMap()));
			map.put("properties", properties);
		}
		return map;
	}

	private static Object convert(Object value) {
		if (value instanceof Schema schema) {
			return schema.toMap();
		}
		if (value instanceof List<?> list) {
			return list.stream().map(Schema::convert).toList();
		}
		return value;
	}

	private static BigDecimal decimal(Object number) {
		return (number instanceof BigDecimal decimal) ? decimal : BigDecimal.valueOf(((Number) number).longValue());
	}

	/** Whole numbers as {@code Long}, so that they print without a fraction. */
	private static Object number(BigDecimal value) {
		try {
			return value.longValueExact();
		}
		catch (ArithmeticException ex) {
			return value;
		}
	}

}
