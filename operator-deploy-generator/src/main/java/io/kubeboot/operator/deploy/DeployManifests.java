package io.kubeboot.operator.deploy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

import io.kubeboot.operator.deploy.Template.Cond;
import io.kubeboot.operator.deploy.Template.Document;
import io.kubeboot.operator.deploy.Template.Mapping;

/**
 * Renders the manifests of an operator from its {@link DeployModel} and
 * {@link DeploySettings}: plain YAML for {@code kubectl apply} (a project's
 * {@code deploy/}) and a Helm chart of the same objects, whose default values are the
 * settings', so that {@code helm template} of the chart renders the plain manifests.
 *
 * <pre class="code">
 * DeployManifests.of(DeployModels.of(ShopOperatorApplication.class),
 *         DeploySettings.read(Path.of("src/main/deploy/settings.yaml")))
 *     .refreshedBy("mvn test -Dtest=GeneratedDeployTests -Ddeploy.update=true")
 *     .check(Path.of("deploy"), Boolean.getBoolean("deploy.update"));
 * </pre>
 *
 * Both depend on nothing but the model and the settings: the same code gives the same
 * bytes, so a build compares them with the copy checked in.
 */
public final class DeployManifests {

	/** The directory of the chart among {@link #files()}. */
	public static final String CHART_DIRECTORY = "chart";

	/**
	 * The file of what each member cluster of a fleet must grant, among the plain
	 * manifests of an operator with a fleet.
	 */
	public static final String MEMBER_RBAC = "member-rbac.yaml";

	private static final Pattern SEMVER = Pattern
		.compile("(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\\+[0-9A-Za-z.-]+)?");

	private final Rendering rendering;

	private final String refresh;

	private DeployManifests(Rendering rendering, String refresh) {
		this.rendering = rendering;
		this.refresh = refresh;
	}

	/**
	 * Prepares the manifests of an operator.
	 * @param model the operator
	 * @param settings what its code does not say
	 * @return the manifests
	 * @throws IllegalArgumentException naming the setting or option at fault if the
	 * settings are invalid, or the CRDs' conversion webhooks point elsewhere than these
	 * manifests put the webhook server
	 */
	public static DeployManifests of(DeployModel model, DeploySettings settings) {
		Objects.requireNonNull(model, "model must not be null");
		Objects.requireNonNull(settings, "settings must not be null");
		ChartValues values = ChartValues.of(model, settings);
		Rendering rendering = new Rendering(model, values, settings);
		check(rendering);
		return new DeployManifests(rendering, "");
	}

	private static void check(Rendering rendering) {
		ChartValues values = rendering.values();
		String source = rendering.settings().source();
		if (values.has("webhook.certManager.enabled") && !(Boolean) values.get("webhook.certManager.enabled")
				&& values.get("webhook.caBundle").equals("")) {
			throw new IllegalArgumentException(source + ": values.webhook.caBundle must be given when "
					+ "values.webhook.certManager.enabled is false: the API server would not trust the webhook");
		}
		String version = chartVersion(rendering);
		if (!SEMVER.matcher(version).matches()) {
			throw new IllegalArgumentException(source + ": the chart's version '" + version + "' is no semantic "
					+ "version (such as 0.1.0): set chart.version, or give values.image.tag one");
		}
		checkCrds(rendering);
		WebhookTemplates.checkConversions(rendering);
		WebhookTemplates.checkLockOut(rendering);
	}

	/**
	 * Fails rather than leave out the CRD of a kind the operator uses: the RBAC and
	 * webhooks would name a kind no manifest installs, and an update would delete the CRD
	 * checked in.
	 */
	private static void checkCrds(Rendering rendering) {
		Set<String> generated = WebhookTemplates.crdNames(rendering.model());
		List<String> missing = new ArrayList<>();
		for (String kind : rendering.model().customKinds()) {
			if (!generated.contains(kind) && !rendering.settings().externalCrds().contains(kind)) {
				missing.add(kind);
			}
		}
		if (!missing.isEmpty()) {
			throw new IllegalArgumentException("The operator reconciles, caches or serves webhooks for " + missing
					+ ", but no CustomResourceDefinition of them was found in META-INF/kubeboot/crds/ on the class "
					+ "path: compile their model classes with operator-crd-generator on the processor path (in the "
					+ "module that holds them), or, if another chart or the cluster installs them, list them under "
					+ "externalCrds in " + rendering.settings().source());
		}
	}

	/**
	 * Says in every file's header how to regenerate it ({@code Regenerate: <command>}),
	 * such as the command that runs the project's test with {@code -Ddeploy.update=true}.
	 * @param command the command or instruction
	 * @return manifests with that header
	 */
	public DeployManifests refreshedBy(String command) {
		return new DeployManifests(this.rendering, Objects.requireNonNull(command, "command must not be null"));
	}

	/**
	 * Fails unless a directory holds exactly these {@link #files()}, naming every file
	 * that is missing, differs (with the lines that differ) or is not generated, and how
	 * to regenerate them ({@link #refreshedBy}); with {@code update}, writes them first,
	 * deleting the files of the directory that are not generated. Files and directories
	 * whose names start with a dot ({@code .gitkeep}) are left alone.
	 * @param directory the directory, such as {@code deploy}
	 * @param update whether to write the files into it first
	 * @throws AssertionError naming every difference, for a test to fail with
	 * @throws java.io.UncheckedIOException if the directory cannot be read or written
	 */
	public void check(Path directory, boolean update) {
		GeneratedFiles.of(files())
			.check(directory, update,
					this.refresh.isEmpty() ? "run the generating test with -Ddeploy.update=true" : this.refresh);
	}

	/**
	 * Writes the {@link #files()} into a directory, deleting its files that are not
	 * generated (but for those whose names start with a dot).
	 * @param directory the directory
	 * @throws java.io.UncheckedIOException if a file cannot be written or deleted
	 */
	public void writeTo(Path directory) {
		GeneratedFiles.of(files()).writeTo(directory);
	}

	/**
	 * Returns the plain manifests and the chart, by path: the manifests' files at the top
	 * ({@code rbac.yaml}, ...), a {@code README.md} saying how to apply them, and the
	 * chart under {@value #CHART_DIRECTORY}.
	 * @return the files' contents by relative path, in order
	 */
	public Map<String, String> files() {
		Map<String, String> files = new LinkedHashMap<>(manifests());
		chart().forEach((path, content) -> files.put(CHART_DIRECTORY + "/" + path, content));
		return files;
	}

	/**
	 * Returns the plain manifests, rendered with the settings' values.
	 * @return the files' contents by name, in the order to apply them, and
	 * {@code README.md}
	 */
	public Map<String, String> manifests() {
		Map<String, String> files = new LinkedHashMap<>();
		files.put("namespace.yaml", TemplateWriter.plain(header(), List.of(namespace())));
		if (!this.rendering.model().crds().isEmpty()) {
			files.put("crd.yaml", String.join("---\n", this.rendering.model().crds()));
		}
		if (!this.rendering.model().policies().isEmpty()
				&& (Boolean) this.rendering.values().get("admissionPolicies.enabled")) {
			files.put("policy.yaml", String.join("---\n", this.rendering.model().policies()));
		}
		for (Map.Entry<String, Function<Rendering, List<Object>>> file : templates().entrySet()) {
			List<Object> documents = file.getValue().apply(this.rendering);
			if (rendersAny(documents)) {
				files.put(file.getKey(), TemplateWriter.plain(header(), documents));
			}
		}
		String members = RbacTemplates.members(this.rendering, header());
		if (members != null) {
			files.put(MEMBER_RBAC, members);
		}
		for (Map.Entry<String, String> extra : this.rendering.settings().extraFiles().entrySet()) {
			if (files.containsKey(extra.getKey()) || extra.getKey().equals("README.md")) {
				throw new IllegalArgumentException(this.rendering.settings().source() + ": "
						+ DeploySettings.EXTRA_DIRECTORY + "/" + extra.getKey() + " has the name of a generated file");
			}
			files.put(extra.getKey(), extra.getValue());
		}
		files.put("README.md", DeployReadme.of(this.rendering, files.keySet(), header()));
		return files;
	}

	/**
	 * Returns the Helm chart.
	 * @return the files' contents by path in the chart's directory
	 */
	public Map<String, String> chart() {
		return new HelmChart(this.rendering, header(), chartVersion(this.rendering)).files(templates());
	}

	/**
	 * The files of objects both the plain manifests and the chart hold, in the order to
	 * apply them.
	 */
	private static Map<String, Function<Rendering, List<Object>>> templates() {
		Map<String, Function<Rendering, List<Object>>> templates = new LinkedHashMap<>();
		templates.put("rbac.yaml", RbacTemplates::documents);
		templates.put("service.yaml", WorkloadTemplates::services);
		templates.put("certificate.yaml",
				(rendering) -> rendering.servesWebhooks() ? WebhookTemplates.certificates(rendering) : List.of());
		templates.put("webhook.yaml", WebhookTemplates::configurations);
		templates.put("deployment.yaml", WorkloadTemplates::deployment);
		templates.put("networkpolicy.yaml", WorkloadTemplates::networkPolicy);
		templates.put("servicemonitor.yaml", WorkloadTemplates::serviceMonitor);
		return templates;
	}

	private static boolean rendersAny(List<Object> documents) {
		for (Object document : documents) {
			if (document instanceof Document single && single.when().plain()) {
				return true;
			}
			if (document instanceof Template.EachDocument each && each.when().plain() && !each.plain().isEmpty()) {
				return true;
			}
		}
		return false;
	}

	private Document namespace() {
		Mapping metadata = Template.map()
			.put("name", this.rendering.settings().namespace())
			.put("labels", Template.map()
				.put(Rendering.NAME_LABEL, this.rendering.name())
				.comment("the operator's pods meet the restricted Pod Security Standard; so must anything else here")
				.put("pod-security.kubernetes.io/enforce", "restricted")
				.put("pod-security.kubernetes.io/warn", "restricted")
				.build())
			.build();
		return new Document(List.of("The namespace the operator runs in"),
				Template.map().put("apiVersion", "v1").put("kind", "Namespace").put("metadata", metadata).build(),
				Cond.ALWAYS);
	}

	private List<String> header() {
		List<String> header = new ArrayList<>();
		header.add("Generated from " + this.rendering.model().source() + " and " + this.rendering.settings().source()
				+ " by io.kubeboot.operator.deploy.DeployManifests: change those, not this file.");
		if (!this.refresh.isEmpty()) {
			header.add("Regenerate: " + this.refresh);
		}
		return header;
	}

	private static String chartVersion(Rendering rendering) {
		String version = rendering.settings().chartVersion();
		return (version != null) ? version : String.valueOf(rendering.values().get("image.tag"));
	}

}
