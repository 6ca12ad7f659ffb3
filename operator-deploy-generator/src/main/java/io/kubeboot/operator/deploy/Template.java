package io.kubeboot.operator.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * A manifest as a tree that renders two ways from one description: as the YAML
 * {@code kubectl apply} takes, with the values of the project's settings, and as a Helm
 * template of the same shape, with every value, condition and repetition written as the
 * chart's template action. So the plain manifests are what {@code helm template} renders
 * with the chart's default values, by construction.
 * <p>
 * Every node carries both forms: a {@link Scalar} its plain value and its Helm pipeline,
 * a {@link Cond} its plain truth and its Helm condition. Helm pipelines refer to
 * {@code $.Values} and {@code $.Release}, which stay valid inside a {@code range}.
 */
final class Template {

	private Template() {
	}

	/**
	 * A node of the tree.
	 */
	sealed interface Node permits Scalar, Mapping, Sequence, Block {

	}

	/**
	 * A scalar.
	 *
	 * @param plain its value in the plain manifest: a string, number or boolean
	 * @param helm the Helm pipeline that writes it ({@code $.Values.replicas},
	 * {@code $.Values.image.tag | quote}), or {@code null} for a literal written alike in
	 * both
	 */
	record Scalar(Object plain, @Nullable String helm) implements Node {

		Scalar {
			Objects.requireNonNull(plain, "plain must not be null");
		}

	}

	/**
	 * A condition.
	 *
	 * @param plain whether it holds with the settings' values
	 * @param helm the Helm condition ({@code $.Values.networkPolicy.enabled})
	 */
	record Cond(boolean plain, String helm) {

		static final Cond ALWAYS = new Cond(true, "true");

		/** Written by the chart only: Helm's own labels. */
		static final Cond HELM = new Cond(false, "true");

		Cond and(Cond other) {
			if (this == HELM || other == HELM) {
				throw new IllegalArgumentException("A condition of the chart only cannot be combined");
			}
			if (this == ALWAYS || other == ALWAYS) {
				return (this == ALWAYS) ? other : this;
			}
			return new Cond(this.plain && other.plain, "and (" + this.helm + ") (" + other.helm + ")");
		}

		Cond not() {
			return new Cond(!this.plain, "not (" + this.helm + ")");
		}

	}

	/**
	 * An entry of a mapping, or the entries of a map of the values merged into it (a
	 * {@link Block} value and an empty key), written sorted by key as {@code toYaml}
	 * writes them.
	 *
	 * @param key the key, empty for merged entries
	 * @param value the value
	 * @param comments comment lines above it, without {@code #}
	 * @param when the condition under which it is written
	 */
	record Entry(String key, Node value, List<String> comments, Cond when) {

	}

	/**
	 * A mapping, its entries in order.
	 *
	 * @param entries the entries
	 */
	record Mapping(List<Entry> entries) implements Node {

		Mapping {
			entries = List.copyOf(entries);
		}

	}

	/**
	 * An element of a sequence: an {@link Item}, or an {@link Each} that writes an item
	 * for every element of a list or entry of a map of the values.
	 */
	sealed interface Element permits Item, Each, Splice {

	}

	/**
	 * The elements of a list of the values, spliced into a sequence after its other
	 * items: each written as it is in the plain manifest, {@code toYaml} in the chart.
	 *
	 * @param plain the list
	 * @param helm the pipeline of the list ({@code $.Values.extraVolumes})
	 */
	record Splice(List<?> plain, String helm) implements Element {

	}

	/**
	 * An item of a sequence.
	 *
	 * @param value the value
	 * @param comments comment lines above it
	 * @param when the condition under which it is written
	 */
	record Item(Node value, List<String> comments, Cond when) implements Element {

	}

	/**
	 * Items for the elements of a list of the values, or the entries of a map sorted by
	 * key, as Helm's {@code range} writes them.
	 *
	 * @param helm the pipeline of the list or map ({@code $.Values.env})
	 * @param plain the list or map
	 * @param item the item of one element: given the key (a map's, else the element) and
	 * the value (a map's, else the element)
	 */
	record Each(String helm, Object plain, BiFunction<Scalar, Scalar, Node> item) implements Element {

	}

	/**
	 * A sequence.
	 *
	 * @param elements the elements
	 * @param flow whether to write it in flow style ({@code ["a", "b"]}), for literal
	 * scalars only
	 */
	record Sequence(List<Element> elements, boolean flow) implements Node {

		Sequence {
			elements = List.copyOf(elements);
		}

	}

	/**
	 * A value of the settings written as a whole: its YAML in the plain manifest,
	 * {@code toYaml} in the chart.
	 *
	 * @param plain the value: a map, list or scalar
	 * @param helm the pipeline of the value ({@code $.Values.resources})
	 */
	record Block(Object plain, String helm) implements Node {

	}

	/**
	 * A document (one Kubernetes object) of a file.
	 *
	 * @param comments comment lines above it
	 * @param root the object
	 * @param when the condition under which it is written
	 */
	record Document(List<String> comments, Mapping root, Cond when) {

		Document with(Cond condition) {
			return new Document(this.comments, this.root, condition);
		}

	}

	/**
	 * A line of the Helm template alone, such as an {@code include} of the checks:
	 * nothing in the plain manifest.
	 *
	 * @param helm the template action, such as {@code {{- include "x.checks" $ }}}
	 */
	record Action(String helm) {

	}

	/**
	 * Documents for every element of a list of the values, as Helm's {@code range} writes
	 * them: each gets the element.
	 *
	 * @param helm the pipeline of the list
	 * @param plain the list
	 * @param when the condition under which they are written
	 * @param document the document of one element
	 */
	record EachDocument(String helm, List<?> plain, Cond when, Function<Scalar, Document> document) {

	}

	/**
	 * Builds a mapping.
	 */
	static final class MappingBuilder {

		private final List<Entry> entries = new ArrayList<>();

		private List<String> comments = List.of();

		private Cond when = Cond.ALWAYS;

		/**
		 * Comments the next entry.
		 */
		MappingBuilder comment(String... lines) {
			this.comments = List.of(lines);
			return this;
		}

		/**
		 * Writes the next entry only when the condition holds.
		 */
		MappingBuilder when(Cond condition) {
			this.when = condition;
			return this;
		}

		MappingBuilder put(String key, Node value) {
			this.entries.add(new Entry(key, value, this.comments, this.when));
			this.comments = List.of();
			this.when = Cond.ALWAYS;
			return this;
		}

		MappingBuilder put(String key, Object literal) {
			return put(key, of(literal));
		}

		/**
		 * Merges the entries of a map of the values into this mapping, after the entries
		 * before it.
		 */
		MappingBuilder merge(Block map) {
			return put("", map);
		}

		Mapping build() {
			return new Mapping(this.entries);
		}

	}

	/**
	 * Builds a sequence.
	 */
	static final class SequenceBuilder {

		private final List<Element> elements = new ArrayList<>();

		private List<String> comments = List.of();

		private Cond when = Cond.ALWAYS;

		SequenceBuilder comment(String... lines) {
			this.comments = List.of(lines);
			return this;
		}

		SequenceBuilder when(Cond condition) {
			this.when = condition;
			return this;
		}

		SequenceBuilder add(Node value) {
			this.elements.add(new Item(value, this.comments, this.when));
			this.comments = List.of();
			this.when = Cond.ALWAYS;
			return this;
		}

		SequenceBuilder each(String helm, Object plain, BiFunction<Scalar, Scalar, Node> item) {
			this.elements.add(new Each(helm, plain, item));
			return this;
		}

		/**
		 * Adds the elements of a list of the values.
		 */
		SequenceBuilder splice(Block list) {
			this.elements.add(new Splice((List<?>) list.plain(), list.helm()));
			return this;
		}

		Sequence build() {
			return new Sequence(this.elements, false);
		}

	}

	static MappingBuilder map() {
		return new MappingBuilder();
	}

	static SequenceBuilder seq() {
		return new SequenceBuilder();
	}

	/**
	 * A sequence of literals, in flow style.
	 */
	static Sequence flow(List<?> literals) {
		List<Element> items = new ArrayList<>();
		for (Object literal : literals) {
			items.add(new Item(new Scalar(literal, null), List.of(), Cond.ALWAYS));
		}
		return new Sequence(items, true);
	}

	/**
	 * A sequence of scalars, literal or not, in flow style.
	 */
	static Sequence flow(Scalar... scalars) {
		List<Element> items = new ArrayList<>();
		for (Scalar scalar : scalars) {
			items.add(new Item(scalar, List.of(), Cond.ALWAYS));
		}
		return new Sequence(items, true);
	}

	/**
	 * A string made of parts: literal strings and scalars, joined without separator.
	 */
	static Scalar concat(Object... parts) {
		StringBuilder plain = new StringBuilder();
		List<String> helm = new ArrayList<>();
		boolean literal = true;
		for (Object part : parts) {
			if (part instanceof Scalar scalar) {
				plain.append(scalar.plain());
				helm.add((scalar.helm() != null) ? "(" + scalar.helm() + ")"
						: TemplateWriter.quoted(String.valueOf(scalar.plain())));
				literal &= scalar.helm() == null;
			}
			else {
				plain.append(part);
				helm.add(TemplateWriter.quoted(String.valueOf(part)));
			}
		}
		return new Scalar(plain.toString(), literal ? null : "print " + String.join(" ", helm));
	}

	/**
	 * A literal: a scalar, or a map or list of literals, written alike in both forms.
	 */
	@SuppressWarnings("unchecked")
	static Node of(Object literal) {
		if (literal instanceof Node node) {
			return node;
		}
		if (literal instanceof Map<?, ?> map) {
			// sorted, as Helm's toYaml writes a map
			MappingBuilder mapping = map();
			new TreeMap<>((Map<String, Object>) map).forEach((key, value) -> mapping.put(key, of(value)));
			return mapping.build();
		}
		if (literal instanceof List<?> list) {
			SequenceBuilder sequence = seq();
			list.forEach((value) -> sequence.add(of(value)));
			return sequence.build();
		}
		return new Scalar(literal, null);
	}

}
