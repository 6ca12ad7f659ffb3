package io.kubeboot.operator.client.internal;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonPrimitive;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;
import org.jspecify.annotations.Nullable;

/**
 * A parsed field selector in Kubernetes' string form: {@code field=value},
 * {@code field==value} and {@code field!=value}, separated by commas, a value escaping
 * {@code \}, {@code ,} and {@code =} with a backslash, as the API server parses it.
 * <p>
 * Which fields a kind can be selected by only the API server knows: every kind by
 * {@code metadata.name} and {@code metadata.namespace}, a custom resource by the fields
 * its CustomResourceDefinition declares in {@code selectableFields}, a built-in kind by
 * the fields the API server supports for it (such as {@code spec.nodeName} and
 * {@code status.phase} of Pods, {@code type} of Secrets). So the cache leaves the
 * selecting to the API server; {@link #matches(KubernetesObject)} only estimates whether
 * an object the process wrote will be seen by a field-selected informer, reading each
 * field at the JSON path its name spells (an absent field reads as the empty string, as
 * the API server reads an absent selectable field of a custom resource).
 */
public final class FieldSelector {

	private static final String[] OPERATORS = { "!=", "==", "=" };

	private static volatile @Nullable Gson defaultGson;

	private final String selector;

	private final List<Term> terms;

	private FieldSelector(String selector, List<Term> terms) {
		this.selector = selector;
		this.terms = terms;
	}

	/**
	 * Parses a selector.
	 * @param selector the selector, such as {@code spec.color=blue,status.phase!=Failed};
	 * empty for one that matches everything
	 * @return the parsed selector
	 * @throws IllegalArgumentException naming the selector and the term that cannot be
	 * parsed
	 */
	public static FieldSelector parse(String selector) {
		List<Term> terms = new ArrayList<>();
		for (String term : split(selector)) {
			if (term.isEmpty()) {
				continue;
			}
			terms.add(term(term, selector));
		}
		return new FieldSelector(selector, List.copyOf(terms));
	}

	/**
	 * Returns the fields the selector selects by, in order.
	 * @return the field names, such as {@code spec.color}
	 */
	public List<String> fields() {
		return this.terms.stream().map(Term::field).toList();
	}

	/**
	 * Tells whether an object matches, reading each field at the JSON path its name
	 * spells in the object as serialized by client-java.
	 * @param object the object
	 * @return whether it matches every term
	 */
	public boolean matches(KubernetesObject object) {
		return matches(object, gson());
	}

	/**
	 * Tells whether an object matches, reading each field at the JSON path its name
	 * spells in the object as serialized by a Gson.
	 * @param object the object
	 * @param gson serializes the object
	 * @return whether it matches every term
	 */
	public boolean matches(KubernetesObject object, Gson gson) {
		if (this.terms.isEmpty()) {
			return true;
		}
		return matches(gson.toJsonTree(object));
	}

	/**
	 * Tells whether an object in its JSON form matches.
	 * @param object the object
	 * @return whether it matches every term
	 */
	public boolean matches(JsonElement object) {
		for (Term term : this.terms) {
			boolean equal = term.value().equals(valueAt(object, term.field()));
			if (equal == term.notEqual()) {
				return false;
			}
		}
		return true;
	}

	@Override
	public String toString() {
		return this.selector;
	}

	/**
	 * Reads a field as the API server compares it: a string as is, a number or a boolean
	 * in its JSON form, anything absent or not a scalar as the empty string.
	 */
	private static String valueAt(JsonElement object, String field) {
		JsonElement current = object;
		for (String name : field.split("\\.", -1)) {
			if (current == null || !current.isJsonObject()) {
				return "";
			}
			current = current.getAsJsonObject().get(name);
		}
		if (current == null || !current.isJsonPrimitive()) {
			return "";
		}
		JsonPrimitive value = current.getAsJsonPrimitive();
		if (value.isNumber()) {
			// integers decoded into a map come back as doubles: 3.0 is 3
			BigDecimal number = value.getAsBigDecimal();
			try {
				return number.toBigIntegerExact().toString();
			}
			catch (ArithmeticException notAnInteger) {
				return number.toPlainString();
			}
		}
		return value.getAsString();
	}

	private static Term term(String term, String selector) {
		for (int i = 0; i < term.length(); i++) {
			for (String operator : OPERATORS) {
				if (term.startsWith(operator, i)) {
					String field = term.substring(0, i);
					if (field.isEmpty()) {
						throw invalid(selector, term, "it names no field");
					}
					if (!field.equals(field.strip()) || field.chars().anyMatch(Character::isWhitespace)) {
						throw invalid(selector, term, "the field name '" + field + "' has spaces");
					}
					String value = unescape(term.substring(i + operator.length()), selector, term);
					return new Term(field, value, "!=".equals(operator));
				}
			}
		}
		throw invalid(selector, term, "it has no operator (=, == or !=)");
	}

	private static String unescape(String value, String selector, String term) {
		StringBuilder unescaped = new StringBuilder(value.length());
		boolean escaping = false;
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (escaping) {
				if (c != '\\' && c != ',' && c != '=') {
					throw invalid(selector, term, "'\\" + c + "' is no escape sequence (escape only \\, , and =)");
				}
				unescaped.append(c);
				escaping = false;
			}
			else if (c == '\\') {
				escaping = true;
			}
			else if (c == ',' || c == '=') {
				throw invalid(selector, term, "'" + c + "' in a value must be escaped as '\\" + c + "'");
			}
			else {
				unescaped.append(c);
			}
		}
		if (escaping) {
			throw invalid(selector, term, "it ends in a lone '\\'");
		}
		return unescaped.toString();
	}

	private static IllegalArgumentException invalid(String selector, String term, String why) {
		return new IllegalArgumentException("Cannot parse field selector '" + selector + "' at '" + term + "': " + why);
	}

	/** Splits at commas that no backslash escapes, keeping the escapes. */
	private static List<String> split(String selector) {
		List<String> terms = new ArrayList<>();
		int start = 0;
		boolean escaping = false;
		for (int i = 0; i < selector.length(); i++) {
			char c = selector.charAt(i);
			if (escaping) {
				escaping = false;
			}
			else if (c == '\\') {
				escaping = true;
			}
			else if (c == ',') {
				terms.add(selector.substring(start, i));
				start = i + 1;
			}
		}
		terms.add(selector.substring(start));
		return terms;
	}

	private static Gson gson() {
		Gson gson = defaultGson;
		if (gson == null) {
			gson = new JSON().getGson();
			defaultGson = gson;
		}
		return gson;
	}

	private record Term(String field, String value, boolean notEqual) {
	}

}
