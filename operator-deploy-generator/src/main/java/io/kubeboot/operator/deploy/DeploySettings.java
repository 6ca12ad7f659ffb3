package io.kubeboot.operator.deploy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * What the code of an operator does not say about how it is deployed, from a small YAML
 * file of the project (the sample's and the archetype's
 * {@code src/main/deploy/settings.yaml}):
 *
 * <pre class="code">
 * namespace: shop-operator      # where the plain manifests install it
 * chart:
 *   version: 0.1.0              # the Helm chart's version (default: the image's tag)
 *   description: Keeps shops.   # its description
 *   home: https://example.com/shop-operator   # and its home, icon, sources, keywords, maintainers
 * externalCrds:                 # kinds the operator uses whose CRDs someone else installs
 *   - certificates.cert-manager.io
 * values:                       # the chart's values.yaml defaults; the plain manifests use them
 *   image:
 *     repository: registry.example.com/shop-operator
 *     tag: 0.1.0
 *   replicas: 2
 * </pre>
 *
 * The manifests of the directory {@code extra} beside the file are copied as they are
 * into the plain manifests and the chart's templates: what the generator does not
 * describe (a Secret's reference, a PriorityClass, a ConfigMap of CA certificates).
 * {@code values} takes the keys of the chart's {@code values.yaml} (its comments say what
 * each does); a key not given keeps the generator's default, and an unknown key or a
 * value of the wrong type is refused naming the key.
 */
public final class DeploySettings {

	private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

	/** The directory beside the settings' file whose manifests are copied as they are. */
	static final String EXTRA_DIRECTORY = "extra";

	private static final Set<String> KEYS = Set.of("namespace", "chart", "externalCrds", "values");

	private static final Pattern CRD_NAME = Pattern
		.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+");

	private static final Set<String> CHART_KEYS = Set.of("version", "description", "home", "icon", "sources",
			"keywords", "maintainers");

	private final String source;

	private final String namespace;

	private final @Nullable String chartVersion;

	private final @Nullable String description;

	private final List<String> externalCrds;

	private final Map<String, Object> values;

	private final Map<String, String> extraFiles;

	private final Map<String, Object> chartMetadata;

	private DeploySettings(String source, String namespace, @Nullable String chartVersion, @Nullable String description,
			Map<String, Object> chartMetadata, List<String> externalCrds, Map<String, Object> values,
			Map<String, String> extraFiles) {
		this.source = source;
		this.namespace = namespace;
		this.chartVersion = chartVersion;
		this.description = description;
		this.externalCrds = externalCrds;
		this.values = values;
		this.extraFiles = extraFiles;
		this.chartMetadata = chartMetadata;
	}

	/**
	 * Reads the settings of a file.
	 * @param file the YAML file
	 * @return the settings
	 * @throws IOException if the file cannot be read
	 * @throws IllegalArgumentException naming the file and the key if a setting is
	 * invalid
	 */
	public static DeploySettings read(Path file) throws IOException {
		DeploySettings settings = parse(Files.readString(file, StandardCharsets.UTF_8),
				file.toString().replace('\\', '/'));
		Path extra = file.toAbsolutePath().getParent().resolve(EXTRA_DIRECTORY);
		if (!Files.isDirectory(extra)) {
			return settings;
		}
		Map<String, String> files = new TreeMap<>();
		try (Stream<Path> paths = Files.list(extra)) {
			for (Path path : paths.filter(Files::isRegularFile).sorted().toList()) {
				String name = path.getFileName().toString();
				if (!name.startsWith(".")) {
					files.put(name, Files.readString(path, StandardCharsets.UTF_8));
				}
			}
		}
		return settings.withExtraFiles(files);
	}

	/**
	 * Settings with files of the project's own copied into the manifests.
	 * @param files the files' contents by name
	 * @return the settings
	 * @throws IllegalArgumentException if a name is no YAML file's
	 */
	DeploySettings withExtraFiles(Map<String, String> files) {
		for (String name : files.keySet()) {
			if (!name.matches("[A-Za-z0-9][-A-Za-z0-9_.]*\\.yaml")) {
				throw new IllegalArgumentException(this.source + ": " + EXTRA_DIRECTORY + "/" + name + " is no "
						+ "manifest: the files there are YAML (*.yaml)");
			}
		}
		return new DeploySettings(this.source, this.namespace, this.chartVersion, this.description, this.chartMetadata,
				this.externalCrds, this.values, new TreeMap<>(files));
	}

	/**
	 * Parses settings.
	 * @param yaml the YAML
	 * @param source what it was read from, for messages and the manifests' headers
	 * @return the settings
	 * @throws IllegalArgumentException naming the source and the key if a setting is
	 * invalid
	 */
	@SuppressWarnings("unchecked")
	public static DeploySettings parse(String yaml, String source) {
		Object document;
		try {
			document = new Yaml(new SafeConstructor(new LoaderOptions())).load(yaml);
		}
		catch (YAMLException ex) {
			throw new IllegalArgumentException(source + " is not YAML: " + ex.getMessage(), ex);
		}
		if (!(document instanceof Map<?, ?> map)) {
			throw new IllegalArgumentException(source + " must be a mapping with 'namespace' and 'values'");
		}
		for (Object key : map.keySet()) {
			if (!KEYS.contains(String.valueOf(key))) {
				throw new IllegalArgumentException(source + ": unknown setting '" + key + "' (known: namespace, chart, "
						+ "externalCrds, values)");
			}
		}
		Object namespace = map.get("namespace");
		if (!(namespace instanceof String name) || !DNS_LABEL.matcher(name).matches() || name.length() > 63) {
			throw new IllegalArgumentException(source + ": namespace must be a namespace's name (lower-case letters, "
					+ "digits and '-', at most 63), not " + namespace);
		}
		String version = null;
		String description = null;
		Map<String, Object> metadata = new LinkedHashMap<>();
		Object chart = map.get("chart");
		if (chart != null) {
			if (!(chart instanceof Map<?, ?> chartMap)) {
				throw new IllegalArgumentException(source + ": chart must be a mapping (version, description, home, "
						+ "icon, sources, keywords, maintainers)");
			}
			for (Map.Entry<?, ?> entry : chartMap.entrySet()) {
				String key = String.valueOf(entry.getKey());
				if (!CHART_KEYS.contains(key) || !chartValue(key, entry.getValue())) {
					throw new IllegalArgumentException(source + ": chart." + key + " is not a setting of the chart "
							+ "(version, description, home and icon are strings, sources and keywords lists of strings, "
							+ "maintainers a list of {name, email, url})");
				}
				if (!key.equals("version") && !key.equals("description")) {
					metadata.put(key, entry.getValue());
				}
			}
			version = (String) chartMap.get("version");
			description = (String) chartMap.get("description");
		}
		List<String> external = new ArrayList<>();
		Object crds = map.get("externalCrds");
		if (crds != null) {
			if (!(crds instanceof List<?> list)) {
				throw new IllegalArgumentException(source + ": externalCrds must be a list of CRD names");
			}
			for (Object crd : list) {
				if (!(crd instanceof String crdName) || !CRD_NAME.matcher(crdName).matches()) {
					throw new IllegalArgumentException(source + ": externalCrds: '" + crd + "' is no CRD name (such as "
							+ "certificates.cert-manager.io)");
				}
				external.add(crdName);
			}
		}
		Object values = map.get("values");
		if (values != null && !(values instanceof Map)) {
			throw new IllegalArgumentException(source + ": values must be a mapping, as the chart's values.yaml");
		}
		return new DeploySettings(source, name, version, description, metadata, List.copyOf(external),
				(values != null) ? new LinkedHashMap<>((Map<String, Object>) values) : Map.of(), Map.of());
	}

	private static boolean chartValue(String key, @Nullable Object value) {
		return switch (key) {
			case "sources", "keywords" ->
				value instanceof List<?> list && list.stream().allMatch(String.class::isInstance);
			case "maintainers" -> value instanceof List<?> list && list.stream()
				.allMatch((maintainer) -> maintainer instanceof Map<?, ?> fields && fields.get("name") instanceof String
						&& fields.keySet().stream().allMatch((field) -> List.of("name", "email", "url").contains(field))
						&& fields.values().stream().allMatch(String.class::isInstance));
			default -> value instanceof String;
		};
	}

	/**
	 * Settings without a file, for tests and plain Java.
	 * @param namespace the namespace the plain manifests install the operator in
	 * @param values the values, as the chart's {@code values.yaml}
	 * @return the settings
	 */
	public static DeploySettings of(String namespace, Map<String, Object> values) {
		Objects.requireNonNull(values, "values must not be null");
		Map<String, Object> settings = new LinkedHashMap<>();
		settings.put("namespace", namespace);
		settings.put("values", values);
		return parse(new Yaml().dump(settings), "settings");
	}

	/**
	 * Returns where the settings were read from.
	 * @return the file, such as {@code src/main/deploy/settings.yaml}
	 */
	public String source() {
		return this.source;
	}

	/**
	 * Returns the namespace the plain manifests install the operator in.
	 * @return the namespace
	 */
	public String namespace() {
		return this.namespace;
	}

	/**
	 * Returns the chart's version.
	 * @return the version, or {@code null} for the image's tag
	 */
	public @Nullable String chartVersion() {
		return this.chartVersion;
	}

	/**
	 * Returns the chart's description.
	 * @return the description, or {@code null} for one naming the operator
	 */
	public @Nullable String description() {
		return this.description;
	}

	/**
	 * Returns what {@code Chart.yaml} says besides the version and description: its
	 * {@code home}, {@code icon}, {@code sources}, {@code keywords} and
	 * {@code maintainers}, as given.
	 * @return the fields by name
	 */
	Map<String, Object> chartMetadata() {
		return this.chartMetadata;
	}

	/**
	 * Returns the CRDs of kinds the operator uses that someone else installs (another
	 * chart, the cluster), which the manifests do not hold.
	 * @return CRD names such as {@code certificates.cert-manager.io}
	 */
	public List<String> externalCrds() {
		return this.externalCrds;
	}

	/**
	 * Returns the manifests of the project's own, from the directory {@code extra} beside
	 * the settings' file: copied as they are into the plain manifests and the chart's
	 * templates (where Helm renders them, so {@code {{} is Helm's there). @return the
	 * files' contents by name
	 */
	public Map<String, String> extraFiles() {
		return this.extraFiles;
	}

	/**
	 * Returns the values given, as the chart's {@code values.yaml} nests them.
	 * @return the values
	 */
	public Map<String, Object> values() {
		return this.values;
	}

}
