package io.kubeboot.operator.autoconfigure.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The properties reference, {@code docs/reference/properties.md}, holds between its
 * markers the tables generated from the configuration metadata that the build writes from
 * the operator's properties classes and the endpoint: a property added, removed, renamed
 * or given another default or description fails the build until the reference is
 * regenerated with {@code -Ddocs.update=true}.
 */
class PropertiesReferenceTests {

	static final Path METADATA = Path.of("target", "classes", "META-INF", "spring-configuration-metadata.json");

	static final Path REFERENCE = Path.of("..", "docs", "reference", "properties.md");

	static final String BEGIN = "<!-- generated from the configuration metadata: edit the javadoc of the "
			+ "properties, then run mvn test -pl operator-spring-boot-autoconfigure -Dtest=PropertiesReferenceTests "
			+ "-Ddocs.update=true -->";

	static final String END = "<!-- end of the generated tables -->";

	@Test
	void theReferenceHoldsTheTablesOfTheConfigurationMetadata() throws IOException {
		String reference = Files.readString(REFERENCE, StandardCharsets.UTF_8);
		int begin = reference.indexOf(BEGIN);
		int end = reference.indexOf(END);
		assertThat(begin).as("%s has the marker %s", REFERENCE, BEGIN).isNotNegative();
		assertThat(end).as("%s has the marker %s", REFERENCE, END).isGreaterThan(begin);
		String generated = "\n\n" + tables(read(METADATA)) + "\n";
		String current = reference.substring(begin + BEGIN.length(), end);
		if (Boolean.getBoolean("docs.update")) {
			Files.writeString(REFERENCE,
					reference.substring(0, begin + BEGIN.length()) + generated + reference.substring(end),
					StandardCharsets.UTF_8);
			return;
		}
		if (!current.equals(generated)) {
			fail("%s is out of date with the configuration metadata: run mvn test -pl "
					+ "operator-spring-boot-autoconfigure -Dtest=PropertiesReferenceTests -Ddocs.update=true%n"
					+ "Generated:%n%s", REFERENCE, generated);
		}
	}

	@Test
	void everyPropertyHasADescription() throws IOException {
		assertThat(read(METADATA)).allSatisfy((property) -> assertThat(property.description())
			.as("the description of %s (the javadoc of its field)", property.name())
			.isNotBlank());
	}

	/**
	 * One table per group of properties: the top-level ones, then one per sub-prefix.
	 */
	static String tables(List<Property> properties) {
		Map<String, List<Property>> groups = new LinkedHashMap<>();
		for (Property property : properties) {
			groups.computeIfAbsent(group(property.name()), (key) -> new ArrayList<>()).add(property);
		}
		StringBuilder out = new StringBuilder();
		groups.forEach((group, members) -> {
			out.append("\n### `").append(group).append("`\n\n");
			out.append("| property | default | description |\n|---|---|---|\n");
			for (Property member : members) {
				out.append("| `")
					.append(member.name())
					.append("` | ")
					.append(member.defaultValue())
					.append(" | ")
					.append(cell(member.description()))
					.append(" |\n");
			}
		});
		return out.toString().strip() + "\n";
	}

	/**
	 * {@code operator} for {@code operator.enabled}, {@code operator.client} for
	 * {@code operator.client.qps} and {@code operator.controller.rate-limiter.qps}.
	 */
	private static String group(String name) {
		String[] parts = name.split("\\.");
		if (parts[0].equals("operator")) {
			return (parts.length > 2) ? "operator." + parts[1] : "operator";
		}
		return String.join(".", List.of(parts).subList(0, Math.min(parts.length - 1, 3)));
	}

	private static String cell(String text) {
		return text.replace("|", "\\|").replace("\n", " ");
	}

	static List<Property> read(Path metadata) throws IOException {
		JsonObject root = JsonParser.parseString(Files.readString(metadata, StandardCharsets.UTF_8)).getAsJsonObject();
		JsonArray properties = root.getAsJsonArray("properties");
		return StreamSupport.stream(properties.spliterator(), false)
			.map(JsonElement::getAsJsonObject)
			.filter((property) -> !property.has("deprecation"))
			.map(Property::of)
			.sorted((a, b) -> order(a.name()).compareTo(order(b.name())))
			.collect(Collectors.toList());
	}

	/** Top-level operator properties first, then the groups, management's last. */
	private static String order(String name) {
		String rank = name.startsWith("operator.") ? (group(name).equals("operator") ? "0" : "1") : "2";
		return rank + group(name) + " " + name;
	}

	record Property(String name, String defaultValue, String description) {

		static Property of(JsonObject json) {
			String description = json.has("description") ? json.get("description").getAsString() : "";
			return new Property(json.get("name").getAsString(), defaultValue(json.get("defaultValue")), description);
		}

		private static String defaultValue(JsonElement value) {
			if (value == null || value.isJsonNull()) {
				return "";
			}
			if (value.isJsonArray()) {
				List<String> items = new ArrayList<>();
				value.getAsJsonArray().forEach((item) -> items.add(item.getAsString()));
				return items.isEmpty() ? "" : "`" + String.join(",", items) + "`";
			}
			return "`" + value.getAsString() + "`";
		}

	}

}
