package io.kubeboot.operator.maven;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rules a kind, an API group, a version and a plural follow, and the messages that
 * refuse them. The kind and DNS rules are the archetype's
 * ({@code archetype-metadata.xml}); {@code NamesTests} keeps the two in step.
 */
final class Names {

	static final Pattern KIND = Pattern.compile("^[A-Z][A-Za-z0-9]*$");

	/**
	 * A DNS-1123 label: a plural, a singular, a label of a group.
	 */
	static final Pattern DNS_LABEL = Pattern.compile("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$");

	/**
	 * A DNS-1123 subdomain with at least one dot, as the archetype asks of a group.
	 */
	static final Pattern GROUP = Pattern.compile("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+$");

	// Kubernetes sorts other forms (v1.0, v2rc1) as plain strings, after every v<n>
	static final Pattern VERSION = Pattern.compile("^v[1-9][0-9]*((alpha|beta)[1-9][0-9]*)?$");

	/**
	 * The simple names that the templates import or declare: a kind of the same name
	 * would not compile, or would read as the wrong type. {@code TemplatesTests} checks
	 * that every import of a template is here.
	 */
	static final Set<String> RESERVED = Set.of("OperatorApplication", "TestOperatorApplication", "GeneratedDeployTests",
			"ArrayList", "List", "Map", "Optional", "Duration", "CustomResource", "KubernetesKind", "PrinterColumn",
			"Condition", "Conditions", "ListType", "RbacRule", "Reconciles", "Client", "Patch", "Request", "Result",
			"Size", "PositiveOrZero", "Logger", "LoggerFactory", "V1ObjectMeta", "TestNamespace", "WithControlPlane",
			"Test", "Autowired", "SpringBootTest", "ApiServerException", "FieldCause", "InvalidException",
			"ForbiddenException", "Objects", "AtomicReference", "AdmissionDeniedException", "AdmissionValidator",
			"Defaulter", "AdmissionWebhook", "WebhookServer", "TestWebhooks", "ControlPlane", "Component", "Gson",
			"JsonElement", "JsonObject", "JSON", "Convertible", "ConversionException", "Conversion", "Bean",
			"Configuration", "IOException", "Files", "Path", "Yaml");

	private static final int MAX_LABEL = 63;

	private static final int MAX_SUBDOMAIN = 253;

	private Names() {
	}

	/**
	 * Checks a kind given with {@code -Dkind}.
	 * @param kind the kind
	 * @return the kind
	 * @throws ScaffoldException naming the rule it breaks
	 */
	static String kind(String kind) {
		if (kind == null || kind.isBlank()) {
			throw new ScaffoldException("Pass -Dkind: the kind, UpperCamelCase, such as Database");
		}
		if (!KIND.matcher(kind).matches() || kind.length() > MAX_LABEL) {
			throw new ScaffoldException("-Dkind=" + kind + " is no kind: UpperCamelCase letters and digits starting "
					+ "with a capital, at most " + MAX_LABEL + " characters, such as Database");
		}
		if (kind.endsWith("List")) {
			throw new ScaffoldException("-Dkind=" + kind + " ends with List, which names the list of a kind "
					+ "(the API server serves " + kind + "List for " + kind + "): choose another name");
		}
		if (RESERVED.contains(kind)) {
			throw new ScaffoldException("-Dkind=" + kind + " is a name the generated code uses already "
					+ "(a class it imports or declares): choose another name");
		}
		if (isJavaLang(kind)) {
			throw new ScaffoldException("-Dkind=" + kind + " would hide java.lang." + kind + ": choose another name");
		}
		return kind;
	}

	/**
	 * Checks an API group given with {@code -Dgroup} or in {@code -DapiVersion}.
	 * @param group the group
	 * @return the group
	 * @throws ScaffoldException naming the rule it breaks
	 */
	static String group(String group) {
		if (!GROUP.matcher(group).matches() || group.length() > MAX_SUBDOMAIN) {
			throw new ScaffoldException("-Dgroup=" + group + " is no API group: a lower-case DNS subdomain with "
					+ "at least one dot, such as shop.example.com");
		}
		for (String reserved : new String[] { "k8s.io", "kubernetes.io" }) {
			if (group.equals(reserved) || group.endsWith("." + reserved)) {
				throw new ScaffoldException("-Dgroup=" + group + ": groups under k8s.io and kubernetes.io need "
						+ "Kubernetes' API approval");
			}
		}
		return group;
	}

	/**
	 * Checks a version given in {@code -DapiVersion}.
	 * @param version the version
	 * @return the version
	 * @throws ScaffoldException naming the rule it breaks
	 */
	static String version(String version) {
		if (!VERSION.matcher(version).matches()) {
			throw new ScaffoldException("-DapiVersion=" + version + " is no Kubernetes version: v<n>, "
					+ "v<n>alpha<m> or v<n>beta<m>, such as v1alpha1");
		}
		return version;
	}

	/**
	 * Checks a plural given with {@code -Dplural}, and that the CRD's name fits.
	 * @param plural the plural
	 * @param group the group
	 * @return the plural
	 * @throws ScaffoldException naming the rule it breaks
	 */
	static String plural(String plural, String group) {
		if (!DNS_LABEL.matcher(plural).matches() || plural.length() > MAX_LABEL) {
			throw new ScaffoldException("-Dplural=" + plural + " is no DNS label: lower-case letters, digits and "
					+ "'-', at most " + MAX_LABEL + " characters, such as databases");
		}
		String crd = plural + "." + group;
		if (crd.length() > MAX_SUBDOMAIN) {
			throw new ScaffoldException(
					crd + " is too long for a CRD's name: at most " + MAX_SUBDOMAIN + " characters");
		}
		return plural;
	}

	/**
	 * The plural a kind gets when none is given: the kind in lower case, then {@code y}
	 * after a consonant becomes {@code ies}, {@code s}, {@code x}, {@code z}, {@code ch}
	 * and {@code sh} take {@code es}, and anything else takes {@code s}. The goal prints
	 * it, so that a wrong guess shows.
	 * @param kind the kind
	 * @return its plural
	 */
	static String pluralOf(String kind) {
		String lower = kind.toLowerCase(Locale.ROOT);
		if (lower.length() > 1 && lower.endsWith("y") && !isVowel(lower.charAt(lower.length() - 2))) {
			return lower.substring(0, lower.length() - 1) + "ies";
		}
		if (lower.endsWith("s") || lower.endsWith("x") || lower.endsWith("z") || lower.endsWith("ch")
				|| lower.endsWith("sh")) {
			return lower + "es";
		}
		return lower + "s";
	}

	private static boolean isVowel(char c) {
		return "aeiou".indexOf(c) >= 0;
	}

	// the running JDK's own java.lang, so that a type added by a later JDK is refused too
	private static boolean isJavaLang(String simpleName) {
		try {
			Class.forName("java.lang." + simpleName, false, null);
			return true;
		}
		catch (ClassNotFoundException ex) {
			return false;
		}
	}

}
