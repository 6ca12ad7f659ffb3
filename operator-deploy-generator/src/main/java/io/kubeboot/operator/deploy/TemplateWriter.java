package io.kubeboot.operator.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.kubeboot.operator.deploy.Template.Block;
import io.kubeboot.operator.deploy.Template.Cond;
import io.kubeboot.operator.deploy.Template.Document;
import io.kubeboot.operator.deploy.Template.Each;
import io.kubeboot.operator.deploy.Template.EachDocument;
import io.kubeboot.operator.deploy.Template.Element;
import io.kubeboot.operator.deploy.Template.Entry;
import io.kubeboot.operator.deploy.Template.Item;
import io.kubeboot.operator.deploy.Template.Mapping;
import io.kubeboot.operator.deploy.Template.Node;
import io.kubeboot.operator.deploy.Template.Scalar;
import io.kubeboot.operator.deploy.Template.Sequence;
import io.kubeboot.operator.deploy.Template.Splice;
import org.jspecify.annotations.Nullable;
import org.yaml.snakeyaml.nodes.NodeId;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * Writes {@link Template templates}: as plain YAML with the settings' values, or as a
 * Helm template. Mappings and sequences are written in block style, two spaces deeper
 * than their key; strings are quoted where YAML would read them as something else.
 */
final class TemplateWriter {

	private static final int WIDTH = 100;

	private static final Resolver RESOLVER = new Resolver();

	private final boolean helm;

	private final StringBuilder out = new StringBuilder();

	private TemplateWriter(boolean helm) {
		this.helm = helm;
	}

	/**
	 * Writes a file of documents with the settings' values.
	 * @param header comment lines at the top
	 * @param documents {@link Document}s, {@link EachDocument}s and
	 * {@link Template.Action}s
	 * @return the YAML
	 */
	static String plain(List<String> header, List<?> documents) {
		return new TemplateWriter(false).file(header, documents);
	}

	/**
	 * Writes a file of documents as a Helm template.
	 * @param header comment lines at the top
	 * @param documents {@link Document}s, {@link EachDocument}s and
	 * {@link Template.Action}s
	 * @return the template
	 */
	static String helm(List<String> header, List<?> documents) {
		return new TemplateWriter(true).file(header, documents);
	}

	/**
	 * Writes a mapping alone, with the settings' values, as a file of values is.
	 */
	static String plain(List<String> header, Mapping mapping) {
		TemplateWriter writer = new TemplateWriter(false);
		writer.comments(header, 0, WIDTH);
		writer.entries(mapping.entries(), 0, null);
		return writer.out.toString();
	}

	private String file(List<String> header, List<?> documents) {
		comments(header, 0, WIDTH);
		boolean first = true;
		for (Object document : documents) {
			if (document instanceof Document single) {
				first = document(single, first);
			}
			else if (document instanceof Template.Action action) {
				if (this.helm) {
					this.out.append(action.helm()).append('\n');
				}
			}
			else {
				EachDocument each = (EachDocument) document;
				if (this.helm) {
					open(each.when(), 0);
					this.out.append("{{- range $item := ").append(each.helm()).append(" }}\n");
					document(each.document().apply(new Scalar("", "$item")), false);
					this.out.append("{{- end }}\n");
					close(each.when(), 0);
				}
				else if (each.when().plain()) {
					for (Object element : each.plain()) {
						first = document(each.document().apply(new Scalar(element, null)), first);
					}
				}
			}
		}
		return this.out.toString();
	}

	private boolean document(Document document, boolean first) {
		if (this.helm) {
			open(document.when(), 0);
			this.out.append("---\n");
			comments(document.comments(), 0, WIDTH);
			entries(document.root().entries(), 0, null);
			close(document.when(), 0);
			return false;
		}
		if (!document.when().plain()) {
			return first;
		}
		if (!first) {
			this.out.append("---\n");
		}
		comments(document.comments(), 0, WIDTH);
		entries(document.root().entries(), 0, null);
		return false;
	}

	/**
	 * Writes entries at an indentation; the first after {@code firstPrefix} (a list
	 * item's dash) if given.
	 */
	private void entries(List<Entry> entries, int indent, @Nullable String firstPrefix) {
		boolean first = true;
		for (Entry entry : entries) {
			if (!this.helm && !entry.when().plain()) {
				continue;
			}
			if (entry.key().isEmpty()) {
				merge((Block) entry.value(), indent);
				continue;
			}
			String prefix = (first && firstPrefix != null) ? firstPrefix : spaces(indent);
			if (first && firstPrefix != null && entry.when() != Cond.ALWAYS && entry.when() != Cond.HELM && this.helm) {
				throw new IllegalStateException("The first entry of a list item cannot be conditional: " + entry.key());
			}
			open(entry.when(), indent);
			comments(entry.comments(), indent, WIDTH);
			this.out.append(prefix).append(key(entry.key())).append(':');
			value(entry.value(), indent);
			close(entry.when(), indent);
			first = false;
		}
		if (first && firstPrefix != null) {
			this.out.append(firstPrefix).append("{}\n");
		}
	}

	/**
	 * Writes a value after its key (the line's {@code key:} written), at the key's
	 * indentation.
	 */
	private void value(Node value, int indent) {
		if (value instanceof Scalar scalar) {
			this.out.append(' ').append(scalar(scalar)).append('\n');
		}
		else if (value instanceof Mapping mapping) {
			if (mapping.entries().isEmpty()
					|| !this.helm && mapping.entries().stream().noneMatch((entry) -> entry.when().plain())) {
				this.out.append(" {}\n");
			}
			else {
				this.out.append('\n');
				entries(mapping.entries(), indent + 2, null);
			}
		}
		else if (value instanceof Sequence sequence) {
			if (sequence.flow()) {
				List<String> items = new ArrayList<>();
				for (Element element : sequence.elements()) {
					items.add(flowScalar((Scalar) ((Item) element).value()));
				}
				this.out.append(" [").append(String.join(", ", items)).append("]\n");
			}
			else if (!this.helm && isEmpty(sequence)) {
				this.out.append(" []\n");
			}
			else {
				this.out.append('\n');
				elements(sequence.elements(), indent + 2);
			}
		}
		else {
			Block block = (Block) value;
			if (this.helm) {
				this.out.append('\n')
					.append(spaces(indent + 2))
					.append("{{- toYaml ")
					.append(block.helm())
					.append(" | nindent ")
					.append(indent + 2)
					.append(" }}\n");
			}
			else {
				value(Template.of(block.plain()), indent);
			}
		}
	}

	/**
	 * Writes the entries of a map of the values at an indentation.
	 */
	private void merge(Block map, int indent) {
		if (this.helm) {
			this.out.append(spaces(indent))
				.append("{{- with ")
				.append(map.helm())
				.append(" }}\n")
				.append(spaces(indent))
				.append("{{- toYaml . | nindent ")
				.append(indent)
				.append(" }}\n")
				.append(spaces(indent))
				.append("{{- end }}\n");
		}
		else {
			Mapping entries = (Mapping) Template.of(map.plain());
			for (Entry entry : entries.entries()) {
				this.out.append(spaces(indent)).append(key(entry.key())).append(':');
				value(entry.value(), indent);
			}
		}
	}

	private void elements(List<Element> elements, int indent) {
		for (Element element : elements) {
			if (element instanceof Splice splice) {
				if (this.helm) {
					this.out.append(spaces(indent))
						.append("{{- with ")
						.append(splice.helm())
						.append(" }}\n")
						.append(spaces(indent))
						.append("{{- toYaml . | nindent ")
						.append(indent)
						.append(" }}\n")
						.append(spaces(indent))
						.append("{{- end }}\n");
				}
				else {
					splice.plain().forEach((value) -> item(Template.of(value), indent));
				}
			}
			else if (element instanceof Item item) {
				if (!this.helm && !item.when().plain()) {
					continue;
				}
				open(item.when(), indent);
				comments(item.comments(), indent, WIDTH);
				item(item.value(), indent);
				close(item.when(), indent);
			}
			else {
				Each each = (Each) element;
				if (this.helm) {
					boolean map = each.plain() instanceof Map;
					this.out.append(spaces(indent))
						.append(map ? "{{- range $key, $value := " : "{{- range $value := ")
						.append(each.helm())
						.append(" }}\n");
					item(each.item().apply(new Scalar("", map ? "$key" : "$value"), new Scalar("", "$value")), indent);
					this.out.append(spaces(indent)).append("{{- end }}\n");
				}
				else if (each.plain() instanceof Map<?, ?> map) {
					new TreeMap<>(map).forEach((key, value) -> item(
							each.item().apply(new Scalar(key, null), new Scalar(String.valueOf(value), null)), indent));
				}
				else {
					for (Object value : (List<?>) each.plain()) {
						item(each.item().apply(new Scalar(value, null), new Scalar(value, null)), indent);
					}
				}
			}
		}
	}

	private void item(Node value, int indent) {
		String dash = spaces(indent) + "- ";
		if (value instanceof Scalar scalar) {
			this.out.append(dash).append(scalar(scalar)).append('\n');
		}
		else if (value instanceof Mapping mapping) {
			entries(mapping.entries(), indent + 2, dash);
		}
		else if (value instanceof Block block && !this.helm) {
			item(Template.of(block.plain()), indent);
		}
		else {
			throw new IllegalStateException("A list item must be a scalar or a mapping: " + value);
		}
	}

	private boolean isEmpty(Sequence sequence) {
		for (Element element : sequence.elements()) {
			if (element instanceof Item item && item.when().plain()) {
				return false;
			}
			if (element instanceof Splice splice && !splice.plain().isEmpty()) {
				return false;
			}
			if (element instanceof Each each && !((each.plain() instanceof Map<?, ?> map) ? map.isEmpty()
					: ((List<?>) each.plain()).isEmpty())) {
				return false;
			}
		}
		return true;
	}

	private void open(Cond when, int indent) {
		if (this.helm && when != Cond.ALWAYS && when != Cond.HELM) {
			this.out.append(spaces(indent)).append("{{- if ").append(when.helm()).append(" }}\n");
		}
	}

	private void close(Cond when, int indent) {
		if (this.helm && when != Cond.ALWAYS && when != Cond.HELM) {
			this.out.append(spaces(indent)).append("{{- end }}\n");
		}
	}

	private String flowScalar(Scalar scalar) {
		String text = scalar(scalar);
		return (scalar.plain() instanceof String value && text.equals(value) && value.matches(".*[,\\[\\]{}].*"))
				? quoted(value) : text;
	}

	private String scalar(Scalar scalar) {
		if (this.helm && scalar.helm() != null) {
			return "{{ " + scalar.helm() + ((scalar.plain() instanceof String) ? " | quote" : "") + " }}";
		}
		return literal(scalar.plain());
	}

	/**
	 * A scalar as YAML: strings quoted where YAML would read something else.
	 */
	static String literal(Object value) {
		if (!(value instanceof String text)) {
			return String.valueOf(value);
		}
		return plainSafe(text) ? text : quoted(text);
	}

	private static String key(String key) {
		return plainSafe(key) ? key : quoted(key);
	}

	private static boolean plainSafe(String text) {
		if (text.isEmpty() || !text.equals(text.strip())) {
			return false;
		}
		if (!RESOLVER.resolve(NodeId.scalar, text, true).equals(Tag.STR)) {
			// a number, a boolean (YAML 1.1's yes and on too), null, ...
			return false;
		}
		if ("-?:,[]{}#&*!|>'\"%@`".indexOf(text.charAt(0)) >= 0) {
			return false;
		}
		if (text.contains(": ") || text.contains(" #") || text.endsWith(":") || text.contains("{{")) {
			return false;
		}
		for (char c : text.toCharArray()) {
			if (c < ' ' || c == 0x7f) {
				return false;
			}
		}
		return true;
	}

	/**
	 * A string in double quotes, escaped as JSON (and so as YAML and Go) escapes it.
	 */
	static String quoted(String value) {
		StringBuilder quoted = new StringBuilder("\"");
		for (char c : value.toCharArray()) {
			switch (c) {
				case '"' -> quoted.append("\\\"");
				case '\\' -> quoted.append("\\\\");
				case '\n' -> quoted.append("\\n");
				case '\t' -> quoted.append("\\t");
				case '\r' -> quoted.append("\\r");
				default -> {
					if (c < ' ') {
						quoted.append(String.format("\\u%04x", (int) c));
					}
					else {
						quoted.append(c);
					}
				}
			}
		}
		return quoted.append('"').toString();
	}

	/**
	 * Writes comment lines, each wrapped at word boundaries.
	 */
	private void comments(List<String> lines, int indent, int width) {
		String prefix = spaces(indent) + "#";
		for (String text : lines) {
			if (text.isBlank()) {
				this.out.append(prefix).append('\n');
				continue;
			}
			StringBuilder line = new StringBuilder(prefix);
			int leading = text.length() - text.stripLeading().length();
			String start = prefix + " " + " ".repeat(leading);
			line.setLength(0);
			line.append(start);
			for (String word : text.strip().split(" +")) {
				if (line.length() > start.length() && line.length() + 1 + word.length() > width) {
					this.out.append(line).append('\n');
					line.setLength(0);
					line.append(start);
				}
				if (line.length() > start.length()) {
					line.append(' ');
				}
				line.append(word);
			}
			this.out.append(line).append('\n');
		}
	}

	private static String spaces(int count) {
		return " ".repeat(count);
	}

}
