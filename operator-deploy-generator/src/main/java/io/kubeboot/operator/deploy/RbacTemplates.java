package io.kubeboot.operator.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

import io.kubeboot.operator.autoconfigure.metrics.OperatorMetricsAuthAutoConfiguration;
import io.kubeboot.operator.deploy.Template.Cond;
import io.kubeboot.operator.deploy.Template.Document;
import io.kubeboot.operator.deploy.Template.EachDocument;
import io.kubeboot.operator.deploy.Template.Mapping;
import io.kubeboot.operator.deploy.Template.Scalar;
import io.kubeboot.operator.deploy.Template.SequenceBuilder;
import io.kubeboot.operator.rbac.Permission;
import io.kubeboot.operator.rbac.PolicyRule;
import io.kubeboot.operator.rbac.PolicyRules;
import io.kubeboot.operator.rbac.RbacManifest;
import io.kubeboot.operator.rbac.RbacManifest.Role;
import org.jspecify.annotations.Nullable;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The ServiceAccount and the roles of an operator, from what its manager needs. The
 * permissions the manager places in the namespaces it watches (all of them, or those of
 * {@code operator.namespaces}) follow the chart's {@code watchNamespaces}: with none, a
 * ClusterRole bound cluster-wide; with some, a Role and RoleBinding in each
 * (cluster-scoped kinds keep their ClusterRole). Leader election's Lease lives in the
 * namespace the operator is installed in unless the application names another. The
 * metrics endpoint's access reviews, and the role of whoever scrapes it, follow the
 * chart's {@code metrics.secure}.
 */
final class RbacTemplates {

	/** Where a permission goes to the namespace the operator is installed in. */
	private static final String INSTALLED = "kubeboot-installed-namespace";

	/** Where a permission goes to each watched namespace. */
	private static final String WATCHED = "kubeboot-watched-namespace";

	private static final String LEADER_ELECTION_ROLE = "leader-election";

	/** The role of the metrics endpoint's access reviews, as the starter names it. */
	private static final String METRICS_AUTH_ROLE = "metrics-auth";

	private static final String LEASE_GROUP = "coordination.k8s.io";

	private static final String LEASES = "leases";

	private static final String RBAC_API = "rbac.authorization.k8s.io/v1";

	/** The helper ClusterRoles: suffix, aggregated into, verbs, who. */
	private static final String[][] HELPERS = { { "admin", "admin", "*", "namespace admins do anything with" },
			{ "editor", "edit", "create,delete,get,list,patch,update,watch", "editors create, change and delete" },
			{ "viewer", "view", "get,list,watch", "viewers read" } };

	private RbacTemplates() {
	}

	static List<Object> documents(Rendering rendering) {
		List<Object> documents = new ArrayList<>();
		ChartValues values = rendering.values();
		Mapping account = Template.map()
			.put("name", rendering.serviceAccountName())
			.put("namespace", rendering.namespace())
			.put("labels", rendering.labels(null))
			.when(values.notEmpty("serviceAccount.annotations"))
			.put("annotations", values.block("serviceAccount.annotations"))
			.build();
		documents.add(new Document(List.of("The identity the operator's pods run as"),
				rendering.object("v1", "ServiceAccount", account).build(), values.isTrue("serviceAccount.create")));
		List<Role> allNamespaces = roles(rendering, false);
		List<Role> oneNamespace = roles(rendering, true);
		Cond watching = rendering.values().notEmpty("watchNamespaces");
		Cond electing = rendering.values().isTrue("leaderElection.enabled");
		String leaseRole = rendering.name() + "-" + LEADER_ELECTION_ROLE;
		String metricsAuthRole = rendering.name() + "-" + METRICS_AUTH_ROLE;
		for (Role role : allNamespaces) {
			Cond when = oneNamespace.contains(role) ? Cond.ALWAYS : watching.not();
			if (role.name().equals(leaseRole)) {
				when = electing;
			}
			else if (role.name().equals(metricsAuthRole)) {
				when = rendering.values().isTrue("metrics.secure");
			}
			documents.addAll(role(rendering, role, when));
		}
		for (Role role : oneNamespace) {
			if (!allNamespaces.contains(role)) {
				documents.addAll(role(rendering, role, watching));
			}
		}
		if (values.has("metrics.secure")) {
			documents.addAll(metricsReader(rendering));
		}
		if (values.has("rbacHelpers.enabled")) {
			documents.addAll(helpers(rendering));
		}
		return documents;
	}

	private static List<Role> roles(Rendering rendering, boolean oneNamespace) {
		DeployModel model = rendering.model();
		List<Permission> placed = new ArrayList<>();
		for (Permission permission : leasePermissions(model)) {
			placed.add(permission.inNamespace((model.leaseNamespace() != null) ? model.leaseNamespace() : INSTALLED));
		}
		if (rendering.values().has("metrics.secure")) {
			// cluster-scoped reviews: a ClusterRole however many namespaces are watched
			placed.addAll(OperatorMetricsAuthAutoConfiguration.requiredPermissions());
		}
		for (Permission permission : model.permissions()) {
			if (permission.role().equals(LEADER_ELECTION_ROLE) || permission.role().equals(METRICS_AUTH_ROLE)) {
				// described above, whether the application elects a leader or guards its
				// metrics or not
				continue;
			}
			else if (permission.isInAllNamespaces() || model.watchNamespaces().contains(permission.namespace())) {
				placed.add(oneNamespace ? permission.inNamespace(WATCHED) : permission.inAllNamespaces());
			}
			else {
				placed.add(permission);
			}
		}
		return RbacManifest.roles(rendering.name(), PolicyRules.of(placed));
	}

	/**
	 * Leader election's rules, as the manager derives them when it elects a leader
	 * ({@code Manager.requiredPermissions()}), in no namespace yet: the chart's
	 * {@code leaderElection.enabled} turns leader election on whatever the application's
	 * default, so its Role is always described, and rendered only while the value is on.
	 */
	static List<Permission> leasePermissions(DeployModel model) {
		return List.of(
				Permission.of(LEASE_GROUP, LEASES, "create")
					.inRole(LEADER_ELECTION_ROLE)
					.because("leader election creates its Lease " + model.leaseName()
							+ " (RBAC cannot restrict create to a name)"),
				Permission.of(LEASE_GROUP, LEASES, "get", "update", "watch")
					.resourceNames(model.leaseName())
					.inRole(LEADER_ELECTION_ROLE)
					.because("leader election reads and renews its Lease; with watch a standby takes over a "
							+ "released Lease at once"));
	}

	/**
	 * What a scraper needs while the metrics answer only callers RBAC lets get their path
	 * (values {@code metrics.secure}): a ClusterRole granting {@code get} on the path, a
	 * non-resource URL, as controller-runtime's {@code metrics-reader} role, bound to the
	 * scraper's ServiceAccount when the values name one.
	 */
	private static List<Object> metricsReader(Rendering rendering) {
		ChartValues values = rendering.values();
		Cond secure = values.isTrue("metrics.secure");
		Scalar name = rendering.clusterNamed("-metrics-reader");
		Mapping role = rendering.object(RBAC_API, "ClusterRole", rendering.metadata(name, null, "metrics"))
			.put("rules",
					Template.seq()
						.comment("the SubjectAccessReview the operator asks for a scrape: get on the path")
						.add(Template.map()
							.put("nonResourceURLs", Template.flow(List.of(rendering.model().metricsPath())))
							.put("verbs", Template.flow(List.of("get")))
							.build())
						.build())
			.build();
		Mapping subject = Template.map()
			.put("kind", "ServiceAccount")
			.put("name", values.string("metrics.scraper.serviceAccount.name"))
			.put("namespace", values.string("metrics.scraper.serviceAccount.namespace"))
			.build();
		Mapping binding = rendering.object(RBAC_API, "ClusterRoleBinding", rendering.metadata(name, null, "metrics"))
			.put("roleRef",
					Template.map()
						.put("apiGroup", "rbac.authorization.k8s.io")
						.put("kind", "ClusterRole")
						.put("name", name)
						.build())
			.put("subjects", Template.seq().add(subject).build())
			.build();
		return List.of(
				new Document(List
					.of("Lets a scraper get the metrics (values metrics.secure): bind it to whoever " + "scrapes them"),
						role, secure),
				new Document(List.of("The scraper of values metrics.scraper.serviceAccount"), binding,
						secure.and(values.notEmpty("metrics.scraper.serviceAccount.name"))));
	}

	private static List<Object> role(Rendering rendering, Role role, Cond when) {
		List<Object> documents = new ArrayList<>();
		String namespace = role.namespace();
		if (WATCHED.equals(namespace)) {
			String helm = "$.Values.watchNamespaces";
			List<String> watched = rendering.values().strings("watchNamespaces");
			Scalar name = name(rendering, role, false);
			documents.add(new EachDocument(helm, watched, when, (item) -> roleDocument(rendering, role, name, item)));
			documents.add(new EachDocument(helm, watched, when,
					(item) -> bindingDocument(rendering, name, "Role", item, List.of())));
			return documents;
		}
		boolean installed = INSTALLED.equals(namespace);
		Scalar scalar = (namespace == null) ? null : installed ? rendering.namespace() : new Scalar(namespace, null);
		Scalar name = name(rendering, role, installed);
		documents.add(roleDocument(rendering, role, name, scalar).with(when));
		if (!role.grantedPerNamespace()) {
			documents.add(bindingDocument(rendering, name, (scalar != null) ? "Role" : "ClusterRole", scalar, List.of())
				.with(when));
			return documents;
		}
		Function<Scalar, Document> binding = (item) -> bindingDocument(rendering, name, "ClusterRole", item,
				List.of("Grants the ClusterRole " + role.name() + " in this namespace (values grantedNamespaces)"));
		documents.add(new EachDocument("$.Values.grantedNamespaces", rendering.values().strings("grantedNamespaces"),
				when, binding));
		return documents;
	}

	/**
	 * A role's name: the release's name and the role's suffix ({@code -leader-election}),
	 * as cluster-scoped names have it but in the release's namespace.
	 */
	private static Scalar name(Rendering rendering, Role role, boolean inReleaseNamespace) {
		String suffix = role.name().substring(rendering.name().length());
		return inReleaseNamespace ? rendering.named(suffix) : rendering.clusterNamed(suffix);
	}

	private static Document roleDocument(Rendering rendering, Role role, Scalar name, @Nullable Scalar namespace) {
		DeployModel model = rendering.model();
		SequenceBuilder rules = Template.seq();
		for (PolicyRule rule : role.rules()) {
			Template.MappingBuilder item = Template.map()
				.put("apiGroups", Template.flow(List.of(rule.apiGroup())))
				.put("resources", Template.flow(List.of(rule.resource())));
			if (rule.resourceNames().equals(List.of(model.leaseName())) && !model.leaseNamed()) {
				// the Lease follows the release, as the Deployment's environment names it
				item.put("resourceNames", Template.flow(WorkloadTemplates.leaseName(rendering)));
			}
			else if (!rule.resourceNames().isEmpty()) {
				item.put("resourceNames", Template.flow(rule.resourceNames()));
			}
			item.put("verbs", Template.flow(rule.verbs()));
			rules.comment(new TreeSet<>(rule.reasons()).toArray(String[]::new)).add(item.build());
		}
		Mapping object = rendering
			.object(RBAC_API, (namespace != null) ? "Role" : "ClusterRole", rendering.metadata(name, namespace, null))
			.put("rules", rules.build())
			.build();
		List<String> comments = role.grantedPerNamespace()
				? List
					.of("Not bound cluster-wide: granted namespace by namespace, by a RoleBinding of this ClusterRole "
							+ "to the ServiceAccount in each namespace that needs it (values grantedNamespaces)")
				: List.of();
		return new Document(comments, object, Cond.ALWAYS);
	}

	private static Document bindingDocument(Rendering rendering, Scalar roleName, String roleKind,
			@Nullable Scalar namespace, List<String> comments) {
		Mapping subject = Template.map()
			.put("kind", "ServiceAccount")
			.put("name", rendering.serviceAccountName())
			.put("namespace", rendering.namespace())
			.build();
		Mapping object = rendering
			.object(RBAC_API, (namespace != null) ? "RoleBinding" : "ClusterRoleBinding",
					rendering.metadata(roleName, namespace, null))
			.put("roleRef",
					Template.map()
						.put("apiGroup", "rbac.authorization.k8s.io")
						.put("kind", roleKind)
						.put("name", roleName)
						.build())
			.put("subjects", Template.seq().add(subject).build())
			.build();
		return new Document(comments, object, Cond.ALWAYS);
	}

	/**
	 * What each member cluster of the operator's fleet must grant the identity of its
	 * kubeconfig, to apply there: the operator's namespace and those of the roles, a
	 * ServiceAccount of the operator's name, the roles of the fleet controllers'
	 * permissions bound to it, and a Secret holding a long-lived token of it for the
	 * member's kubeconfig. Not part of the chart, which installs into the home cluster.
	 * @return the file, {@code null} without a fleet
	 */
	static @Nullable String members(Rendering rendering, List<String> header) {
		List<Permission> permissions = rendering.model().memberPermissions();
		if (permissions.isEmpty()) {
			return null;
		}
		String namespace = rendering.settings().namespace();
		String account = String.valueOf(rendering.serviceAccountName().plain());
		List<String> lines = new ArrayList<>(header);
		lines.add("");
		lines.add("Apply to every member cluster of the fleet (kubectl --context <member> apply -f member-rbac.yaml),");
		lines.add("then build the member's kubeconfig (its Secret in the home cluster, say) from the token of "
				+ account + "-token.");
		Set<String> namespaces = new TreeSet<>();
		namespaces.add(namespace);
		for (Role role : RbacManifest.roles(rendering.name() + "-member", PolicyRules.of(permissions))) {
			if (role.namespace() != null) {
				namespaces.add(role.namespace());
			}
		}
		StringBuilder namespaceDocuments = new StringBuilder();
		for (String name : namespaces) {
			namespaceDocuments.append("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ")
				.append(name)
				.append("\n---\n");
		}
		String roles = RbacManifest.builder(rendering.name() + "-member")
			.header(lines.toArray(String[]::new))
			.serviceAccount(namespace, account)
			.render(PolicyRules.of(permissions));
		int body = roles.indexOf("apiVersion:");
		String token = "---\n# A long-lived token of the ServiceAccount, for the member's kubeconfig\napiVersion: v1\n"
				+ "kind: Secret\nmetadata:\n  name: " + account + "-token\n  namespace: " + namespace
				+ "\n  annotations:\n    kubernetes.io/service-account.name: " + account
				+ "\ntype: kubernetes.io/service-account-token\n";
		return roles.substring(0, body) + namespaceDocuments + roles.substring(body) + token;
	}

	/**
	 * For every CRD of the operator, the ClusterRoles that let people work with its
	 * objects, aggregated into Kubernetes' own {@code admin}, {@code edit} and
	 * {@code view}, as kubebuilder scaffolds them: whoever may edit a namespace may edit
	 * the kind's objects there.
	 */
	private static List<Object> helpers(Rendering rendering) {
		Cond enabled = rendering.values().isTrue("rbacHelpers.enabled");
		List<Object> documents = new ArrayList<>();
		for (String yaml : rendering.model().crds()) {
			for (Object loaded : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(yaml)) {
				if (!(loaded instanceof Map<?, ?> crd)) {
					continue;
				}
				// a CRD is named <plural>.<group>
				String name = String.valueOf(WebhookTemplates.get(crd, "metadata", "name"));
				String plural = name.substring(0, name.indexOf('.'));
				String group = name.substring(name.indexOf('.') + 1);
				for (String[] helper : HELPERS) {
					Mapping labels = Template.map()
						.put("rbac.authorization.k8s.io/aggregate-to-" + helper[1], "true")
						.build();
					Mapping metadata = rendering.metadata(rendering.clusterNamed("-" + plural + "-" + helper[0]), null,
							null);
					Mapping object = rendering.object(RBAC_API, "ClusterRole", merged(metadata, labels))
						.put("rules",
								Template.seq()
									.add(Template.map()
										.put("apiGroups", Template.flow(List.of(group)))
										.put("resources", Template.flow(List.of(plural)))
										.put("verbs", Template.flow(List.of(helper[2].split(","))))
										.build())
									.add(Template.map()
										.put("apiGroups", Template.flow(List.of(group)))
										.put("resources", Template.flow(List.of(plural + "/status")))
										.put("verbs", Template.flow(List.of("get")))
										.build())
									.build())
						.build();
					documents.add(
							new Document(
									List.of("Lets " + helper[3] + " " + plural + "." + group + " where Kubernetes' "
											+ helper[1] + " role is bound (values rbacHelpers.enabled)"),
									object, enabled));
				}
			}
		}
		return documents;
	}

	/**
	 * Metadata with more labels.
	 */
	private static Mapping merged(Mapping metadata, Mapping labels) {
		Template.MappingBuilder merged = Template.map();
		for (Template.Entry entry : metadata.entries()) {
			if (entry.key().equals("labels")) {
				List<Template.Entry> all = new ArrayList<>(((Mapping) entry.value()).entries());
				all.addAll(labels.entries());
				merged.put("labels", new Mapping(all));
			}
			else {
				merged.put(entry.key(), entry.value());
			}
		}
		return merged.build();
	}

}
