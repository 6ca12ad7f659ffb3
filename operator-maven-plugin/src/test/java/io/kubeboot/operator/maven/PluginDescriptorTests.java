package io.kubeboot.operator.maven;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The descriptor that maven-plugin-plugin generates from the Mojos' annotations (in
 * {@code target/classes} when the tests run) has the prefix, the goals and the {@code -D}
 * properties that the design note, the generated README and the goals' messages name.
 */
class PluginDescriptorTests {

	@Test
	void thePrefixIsOperator() throws Exception {
		assertThat(text(descriptor().getDocumentElement(), "goalPrefix")).isEqualTo("operator");
	}

	@Test
	void theGoalsTakeThePropertiesTheirMessagesName() throws Exception {
		Map<String, Element> mojos = mojos();
		assertThat(mojos).containsOnlyKeys("create-api", "create-webhook", "create-version", "help");
		assertThat(properties(mojos.get("create-api"))).containsExactlyInAnyOrder("kind", "apiVersion", "group",
				"plural", "scope", "reconciler", "dryRun", "regenerate");
		assertThat(properties(mojos.get("create-webhook"))).containsExactlyInAnyOrder("kind", "apiVersion",
				"validating", "defaulting", "dryRun", "regenerate");
		assertThat(properties(mojos.get("create-version"))).containsExactlyInAnyOrder("kind", "apiVersion",
				"conversion", "dryRun", "regenerate");
		for (String goal : List.of("create-api", "create-webhook", "create-version")) {
			Element mojo = mojos.get(goal);
			assertThat(text(mojo, "requiresProject")).as(goal).isEqualTo("true");
			assertThat(text(mojo, "requiresDirectInvocation")).as(goal).isEqualTo("true");
			assertThat(text(mojo, "threadSafe")).as(goal).isEqualTo("true");
			// no dependency resolution: the goals work offline and fast
			assertThat(mojo.getElementsByTagName("requiresDependencyResolution").getLength()).as(goal).isZero();
		}
	}

	private static Map<String, Element> mojos() throws Exception {
		Map<String, Element> mojos = new LinkedHashMap<>();
		NodeList list = descriptor().getElementsByTagName("mojo");
		for (int i = 0; i < list.getLength(); i++) {
			Element mojo = (Element) list.item(i);
			mojos.put(text(mojo, "goal"), mojo);
		}
		return mojos;
	}

	// the user properties a goal reads: ${name} in its <configuration>
	private static List<String> properties(Element mojo) {
		List<String> properties = new ArrayList<>();
		Element configuration = (Element) mojo.getElementsByTagName("configuration").item(0);
		NodeList values = configuration.getChildNodes();
		for (int i = 0; i < values.getLength(); i++) {
			String value = values.item(i).getTextContent().trim();
			if (values.item(i) instanceof Element && value.startsWith("${") && !value.startsWith("${project")
					&& !value.startsWith("${session")) {
				properties.add(value.substring(2, value.length() - 1));
			}
		}
		return properties;
	}

	private static String text(Element element, String tag) {
		NodeList nodes = element.getElementsByTagName(tag);
		return (nodes.getLength() > 0) ? nodes.item(0).getTextContent().trim() : null;
	}

	private static Document descriptor() throws Exception {
		try (InputStream in = PluginDescriptorTests.class.getResourceAsStream("/META-INF/maven/plugin.xml")) {
			assertThat(in).as("META-INF/maven/plugin.xml, which maven-plugin-plugin writes").isNotNull();
			return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
		}
	}

}
