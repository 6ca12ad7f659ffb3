package io.kubeboot.operator.maven;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Renders the templates under {@code templates/} beside this class: {@code {{name}}} is
 * replaced by a variable's value, {@code {{#flag}}...{{/flag}}} is kept when a flag is
 * true and {@code {{^flag}}...{{/flag}}} when it is false. A line holding only a section
 * tag disappears, so that templates read like the code they make.
 * <p>
 * Strict, as generated code must not carry a typo to the user: a variable or flag the
 * template names but the caller does not give, one the caller gives but the template
 * never names, a flag used as a variable (or the reverse) and an unbalanced section all
 * fail with the template and its line.
 */
final class Templates {

	private static final Pattern TAG = Pattern.compile("\\{\\{([#^/]?)([A-Za-z][A-Za-z0-9]*)}}");

	private static final String ROOT = "templates/";

	private Templates() {
	}

	/**
	 * Renders a template of the plugin.
	 * @param name its name under {@code templates/}, such as {@code api/Kind.java.tmpl}
	 * @param values the variables ({@code String}s) and flags ({@code Boolean}s)
	 * @return the rendered text
	 * @throws IllegalStateException naming the template and its line when the template
	 * and the values do not fit
	 */
	static String render(String name, Map<String, ?> values) {
		return render(name, read(name), values);
	}

	static String read(String name) {
		try (InputStream in = Templates.class.getResourceAsStream(ROOT + name)) {
			if (in == null) {
				throw new IllegalStateException("No template " + ROOT + name);
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot read template " + ROOT + name, ex);
		}
	}

	static String render(String name, String template, Map<String, ?> values) {
		StringBuilder out = new StringBuilder(template.length());
		Deque<Section> sections = new ArrayDeque<>();
		Set<String> used = new HashSet<>();
		String[] lines = template.split("\n", -1);
		for (int i = 0; i < lines.length; i++) {
			String line = lines[i];
			String where = name + ":" + (i + 1);
			Matcher matcher = TAG.matcher(line);
			boolean standalone = matcher.find() && !matcher.group(1).isEmpty() && line.trim().equals(matcher.group())
					&& !matcher.find();
			matcher.reset();
			int from = 0;
			while (matcher.find()) {
				if (!standalone && isOn(sections)) {
					out.append(line, from, matcher.start());
				}
				from = matcher.end();
				String kind = matcher.group(1);
				String tag = matcher.group(2);
				used.add(tag);
				Object value = values.get(tag);
				if (value == null) {
					throw new IllegalStateException(where + ": no value for {{" + kind + tag + "}}");
				}
				if (kind.isEmpty()) {
					if (!(value instanceof String text)) {
						throw new IllegalStateException(where + ": " + tag + " is a flag, used as a variable");
					}
					if (isOn(sections)) {
						out.append(text);
					}
				}
				else if (kind.equals("/")) {
					if (sections.isEmpty() || !sections.peek().name().equals(tag)) {
						throw new IllegalStateException(where + ": {{/" + tag + "}} closes no open section");
					}
					sections.pop();
				}
				else {
					if (!(value instanceof Boolean flag)) {
						throw new IllegalStateException(where + ": " + tag + " is a variable, used as a flag");
					}
					sections.push(new Section(tag, kind.equals("#") == flag, where));
				}
			}
			if (!standalone && isOn(sections)) {
				out.append(line, from, line.length());
				if (i < lines.length - 1) {
					out.append('\n');
				}
			}
		}
		if (!sections.isEmpty()) {
			throw new IllegalStateException(
					sections.peek().where() + ": {{" + sections.peek().name() + "}} is never closed");
		}
		Set<String> unused = new HashSet<>(values.keySet());
		unused.removeAll(used);
		if (!unused.isEmpty()) {
			throw new IllegalStateException(name + ": never uses " + unused.stream().sorted().toList());
		}
		return out.toString();
	}

	// an enclosing section that is off turns off everything inside it
	private static boolean isOn(Deque<Section> sections) {
		return sections.stream().allMatch(Section::on);
	}

	private record Section(String name, boolean on, String where) {

	}

}
