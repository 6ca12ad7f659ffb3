package io.kubeboot.operator.maven;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The compiler options of {@code operator-crd-generator} that point a CRD with several
 * versions at the manifests' conversion webhook:
 * {@code -Akubeboot.webhook.service=<name>-webhook},
 * {@code -Akubeboot.webhook.namespace=<namespace>} and
 * {@code -Akubeboot.webhook.certificate=<namespace>/<name>-webhook}, where the name is
 * {@code spring.application.name} and the namespace that of
 * {@code src/main/deploy/settings.yaml}, as the deploy generator names the Service and
 * the Certificate. Projects generated since the archetype has them need no edit; older
 * ones get them inserted into {@code maven-compiler-plugin}'s configuration after
 * {@code <annotationProcessorPathsUseDepMgmt>}, with that line's indentation. Options
 * that disagree with the settings are refused, never rewritten.
 */
final class PomEdits {

	static final Path POM = Path.of("pom.xml");

	static final Path SETTINGS = Path.of("src", "main", "deploy", "settings.yaml");

	static final Path APPLICATION = Path.of("src", "main", "resources", "application.yaml");

	static final String ANCHOR = "<annotationProcessorPathsUseDepMgmt>";

	private static final Pattern OPTION = Pattern
		.compile("<arg>\\s*-Akubeboot\\.webhook\\.(service|namespace|certificate)=([^<\\s]*)\\s*</arg>");

	private PomEdits() {
	}

	/**
	 * Plans the edit of a project's {@code pom.xml}.
	 * @param root the project's directory
	 * @return the edit, unchanged when the options are there and agree
	 * @throws ScaffoldException if the options disagree with the settings, some are
	 * missing, or there is no place to insert them
	 */
	static Edit plan(Path root) {
		String pom = read(root, POM);
		String namespace = settingsNamespace(read(root, SETTINGS));
		String name = applicationName(root);
		Map<String, String> expected = new LinkedHashMap<>();
		expected.put("service", name + "-webhook");
		expected.put("namespace", namespace);
		expected.put("certificate", namespace + "/" + name + "-webhook");
		String options = String.join(" ",
				expected.entrySet()
					.stream()
					.map((option) -> "-Akubeboot.webhook." + option.getKey() + "=" + option.getValue())
					.toList());
		String summary = "pom.xml compiles the model with " + options;

		Map<String, String> present = new LinkedHashMap<>();
		Matcher matcher = OPTION.matcher(pom);
		while (matcher.find()) {
			present.put(matcher.group(1), matcher.group(2));
		}
		for (Map.Entry<String, String> option : present.entrySet()) {
			String want = expected.get(option.getKey());
			// a Maven property is the user's to keep right
			if (!want.equals(option.getValue()) && !option.getValue().contains("${")) {
				throw new ScaffoldException("pom.xml compiles the model with -Akubeboot.webhook." + option.getKey()
						+ "=" + option.getValue() + ", but " + source(option.getKey(), name, namespace) + ": make them "
						+ "agree");
			}
		}
		if (present.size() == expected.size()) {
			return new Edit(pom, pom, summary);
		}
		List<String> missing = new ArrayList<>();
		expected.forEach((option, value) -> {
			if (!present.containsKey(option)) {
				missing.add("<arg>-Akubeboot.webhook." + option + "=" + value + "</arg>");
			}
		});
		int compiler = pom.indexOf("<artifactId>maven-compiler-plugin</artifactId>");
		int pluginEnd = (compiler < 0) ? -1 : pom.indexOf("</plugin>", compiler);
		int compilerArgs = (compiler < 0) ? -1 : pom.indexOf("<compilerArgs>", compiler);
		int anchor = (compiler < 0) ? -1 : pom.indexOf(ANCHOR, compiler);
		String after;
		if (compilerArgs >= 0 && compilerArgs < pluginEnd) {
			// the arguments join those the compiler gets already
			int lineEnd = pom.indexOf('\n', compilerArgs);
			String indentation = indentation(pom, compilerArgs) + unit(pom);
			after = pom.substring(0, lineEnd + 1) + lines(missing, indentation) + pom.substring(lineEnd + 1);
		}
		else if (anchor >= 0 && anchor < pluginEnd && present.isEmpty()) {
			int lineEnd = pom.indexOf('\n', anchor);
			String indentation = indentation(pom, anchor);
			List<String> block = new ArrayList<>();
			block.add("<!-- the conversion webhook of a CRD with several versions: the Service and the cert-manager "
					+ "Certificate of deploy/ -->");
			block.add("<compilerArgs>");
			block.addAll(missing.stream().map((arg) -> unit(pom) + arg).toList());
			block.add("</compilerArgs>");
			after = pom.substring(0, lineEnd + 1) + lines(block, indentation) + pom.substring(lineEnd + 1);
		}
		else {
			throw new ScaffoldException("pom.xml: maven-compiler-plugin has no " + ANCHOR
					+ " to add the options after; add to its <compilerArgs>: " + String.join(" ", missing));
		}
		requireOptions(after, expected);
		return new Edit(pom, after, summary);
	}

	private static String source(String option, String name, String namespace) {
		return switch (option) {
			case "service" -> "spring.application.name (" + APPLICATION + ") names the Service " + name + "-webhook";
			case "namespace" -> SETTINGS + " installs into " + namespace;
			default -> "the Certificate of the manifests is " + namespace + "/" + name + "-webhook";
		};
	}

	// the edited pom parses, and its compiler gets the three options
	private static void requireOptions(String pom, Map<String, String> expected) {
		try {
			DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
			factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
			factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
			Document document = factory.newDocumentBuilder()
				.parse(new ByteArrayInputStream(pom.getBytes(StandardCharsets.UTF_8)));
			List<String> args = new ArrayList<>();
			NodeList nodes = document.getElementsByTagName("arg");
			for (int i = 0; i < nodes.getLength(); i++) {
				Element arg = (Element) nodes.item(i);
				if (arg.getParentNode().getNodeName().equals("compilerArgs")) {
					args.add(arg.getTextContent().strip());
				}
			}
			expected.forEach((option, value) -> {
				if (!args.contains("-Akubeboot.webhook." + option + "=" + value)) {
					throw new IllegalStateException("-Akubeboot.webhook." + option + " is not in " + args);
				}
			});
		}
		catch (Exception ex) {
			throw new ScaffoldException("pom.xml would not hold the compiler options once edited (" + ex.getMessage()
					+ "): add them to maven-compiler-plugin's <compilerArgs> by hand", ex);
		}
	}

	private static String lines(List<String> lines, String indentation) {
		StringBuilder text = new StringBuilder();
		for (String line : lines) {
			text.append(indentation).append(line).append('\n');
		}
		return text.toString();
	}

	private static String indentation(String text, int at) {
		int lineStart = text.lastIndexOf('\n', at) + 1;
		int end = lineStart;
		while (end < at && (text.charAt(end) == ' ' || text.charAt(end) == '\t')) {
			end++;
		}
		return text.substring(lineStart, end);
	}

	// one level of the pom's own indentation: that of <modelVersion>, under <project>
	private static String unit(String pom) {
		int modelVersion = pom.indexOf("<modelVersion>");
		String indentation = (modelVersion < 0) ? "" : indentation(pom, modelVersion);
		return indentation.isEmpty() ? "\t" : indentation;
	}

	private static String read(Path root, Path file) {
		Path path = root.resolve(file);
		if (!Files.isRegularFile(path)) {
			throw new ScaffoldException("No " + file.toString().replace('\\', '/') + " to take the conversion "
					+ "webhook's " + (file.equals(SETTINGS) ? "namespace" : "options") + " from: run this goal in an "
					+ "operator project (operator-spring-boot-archetype)");
		}
		try {
			return Files.readString(path, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new ScaffoldException("Cannot read " + file + ": " + ex.getMessage(), ex);
		}
	}

	// the top-level namespace: key of settings.yaml, as the deploy generator reads it
	static String settingsNamespace(String settings) {
		Matcher matcher = Pattern.compile("(?m)^namespace:\\s*['\"]?([a-z0-9-]+)['\"]?\\s*(#.*)?$").matcher(settings);
		if (!matcher.find()) {
			throw new ScaffoldException(SETTINGS + " has no namespace: the conversion webhook's Service is there");
		}
		return matcher.group(1);
	}

	// spring.application.name from application.yaml (nested or dotted keys) or
	// application.properties
	static String applicationName(Path root) {
		Path yaml = root.resolve(APPLICATION);
		Path properties = root.resolve("src/main/resources/application.properties");
		try {
			if (Files.isRegularFile(yaml)) {
				String name = yamlName(Files.readString(yaml, StandardCharsets.UTF_8));
				if (name != null) {
					return name;
				}
			}
			if (Files.isRegularFile(properties)) {
				Matcher matcher = Pattern.compile("(?m)^spring\\.application\\.name\\s*[=:]\\s*(\\S+)\\s*$")
					.matcher(Files.readString(properties, StandardCharsets.UTF_8));
				if (matcher.find()) {
					return matcher.group(1);
				}
			}
		}
		catch (IOException ex) {
			throw new ScaffoldException("Cannot read the application's name: " + ex.getMessage(), ex);
		}
		throw new ScaffoldException(
				"No spring.application.name in " + APPLICATION + ": the manifests name the webhook's Service after it");
	}

	private static String yamlName(String yaml) {
		List<String> path = new ArrayList<>();
		List<Integer> indents = new ArrayList<>();
		for (String line : yaml.lines().toList()) {
			String stripped = line.strip();
			if (stripped.isEmpty() || stripped.startsWith("#") || stripped.startsWith("---")) {
				continue;
			}
			int indent = line.indexOf(stripped);
			while (!indents.isEmpty() && indents.get(indents.size() - 1) >= indent) {
				indents.remove(indents.size() - 1);
				path.remove(path.size() - 1);
			}
			int colon = stripped.indexOf(':');
			if (colon < 0) {
				continue;
			}
			String key = stripped.substring(0, colon).strip();
			String value = stripped.substring(colon + 1).replaceAll("\\s+#.*$", "").strip();
			String full = String.join(".", path) + (path.isEmpty() ? "" : ".") + key;
			if (full.equals("spring.application.name") && !value.isEmpty()) {
				return value.replaceAll("^['\"]|['\"]$", "");
			}
			path.add(key);
			indents.add(indent);
		}
		return null;
	}

	/**
	 * The edit of {@code pom.xml}.
	 *
	 * @param before its content as read
	 * @param after its content once edited, the same when nothing changes
	 * @param summary the options the model compiles with, for the goal to print
	 */
	record Edit(String before, String after, String summary) {

		boolean changed() {
			return !this.before.equals(this.after);
		}

	}

}
