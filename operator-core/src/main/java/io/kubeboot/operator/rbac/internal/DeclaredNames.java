package io.kubeboot.operator.rbac.internal;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

import io.kubeboot.operator.client.internal.KindResolver;
import io.kubeboot.operator.model.KubernetesKind;
import io.kubernetes.client.common.KubernetesObject;

/**
 * Names kinds without asking the API server, for rendering RBAC at build time: a
 * {@link KubernetesKind} class by its group and its declared plural (else the plural
 * Kubernetes tools make from the kind: {@code StorageBucket} to {@code storagebuckets},
 * {@code NetworkPolicy} to {@code networkpolicies}, {@code Ingress} to {@code ingresses})
 * and its declared scope; a client-java model class by the group and scope its kind has
 * in Kubernetes. The API server's discovery, which the manager asks at start-up, is the
 * authority: a custom resource's plural or scope that differs from these is reported by
 * the start-up self-check.
 */
public final class DeclaredNames implements KindNames {

	/** The one instance. */
	public static final DeclaredNames INSTANCE = new DeclaredNames();

	/** Kind to group and scope for the built-in kinds client-java has models of. */
	private static final Map<String, Name> BUILT_IN = new HashMap<>();

	static {
		add("", true, "Pod Service ConfigMap Secret ServiceAccount PersistentVolumeClaim Endpoints LimitRange "
				+ "ResourceQuota ReplicationController PodTemplate Event");
		add("", false, "Namespace Node PersistentVolume ComponentStatus");
		add("apps", true, "Deployment StatefulSet DaemonSet ReplicaSet ControllerRevision");
		add("batch", true, "Job CronJob");
		add("autoscaling", true, "HorizontalPodAutoscaler");
		add("policy", true, "PodDisruptionBudget");
		add("coordination.k8s.io", true, "Lease LeaseCandidate");
		add("networking.k8s.io", true, "Ingress NetworkPolicy");
		add("networking.k8s.io", false, "IngressClass IPAddress ServiceCIDR");
		add("discovery.k8s.io", true, "EndpointSlice");
		add("rbac.authorization.k8s.io", true, "Role RoleBinding");
		add("rbac.authorization.k8s.io", false, "ClusterRole ClusterRoleBinding");
		add("storage.k8s.io", true, "CSIStorageCapacity");
		add("storage.k8s.io", false, "StorageClass CSIDriver CSINode VolumeAttachment VolumeAttributesClass");
		add("apiextensions.k8s.io", false, "CustomResourceDefinition");
		add("apiregistration.k8s.io", false, "APIService");
		add("admissionregistration.k8s.io", false,
				"MutatingWebhookConfiguration ValidatingWebhookConfiguration ValidatingAdmissionPolicy "
						+ "ValidatingAdmissionPolicyBinding MutatingAdmissionPolicy MutatingAdmissionPolicyBinding");
		add("scheduling.k8s.io", false, "PriorityClass");
		add("node.k8s.io", false, "RuntimeClass");
		add("certificates.k8s.io", true, "PodCertificateRequest");
		add("certificates.k8s.io", false, "CertificateSigningRequest ClusterTrustBundle");
		add("flowcontrol.apiserver.k8s.io", false, "FlowSchema PriorityLevelConfiguration");
		add("resource.k8s.io", true, "ResourceClaim ResourceClaimTemplate");
		add("resource.k8s.io", false, "DeviceClass ResourceSlice DeviceTaintRule");
		add("internal.apiserver.k8s.io", false, "StorageVersion");
		add("storagemigration.k8s.io", false, "StorageVersionMigration");
	}

	private DeclaredNames() {
	}

	private static void add(String group, boolean namespaced, String kinds) {
		for (String kind : kinds.split(" ")) {
			BUILT_IN.put(kind, new Name(group, plural(kind), namespaced));
		}
	}

	@Override
	public Name resolve(Class<? extends KubernetesObject> kind) {
		KubernetesKind annotation = kind.getAnnotation(KubernetesKind.class);
		if (annotation != null) {
			String plural = annotation.plural().isEmpty() ? plural(annotation.kind()) : annotation.plural();
			return new Name(annotation.group(), plural, annotation.scope() == KubernetesKind.Scope.NAMESPACED);
		}
		KindResolver.DeclaredKind declared = KindResolver.declaredKind(kind);
		Name builtIn = BUILT_IN.get(declared.kind());
		if (declared.group() != null) {
			// a class named with its group (EventsV1Event) or registered with
			// client-java's ModelMapper
			String plural = declared.plural().isEmpty() ? plural(declared.kind()) : declared.plural();
			return new Name(declared.group(), plural, builtIn == null || builtIn.namespaced());
		}
		if (builtIn == null) {
			throw new IllegalArgumentException("Cannot tell the API group of " + kind.getName()
					+ " without the API server: name its resource with Permission.of(group, resource, verbs), "
					+ "or resolve the permissions against the API server");
		}
		return builtIn;
	}

	/**
	 * Returns the plural resource name Kubernetes tools make from a kind: lower case,
	 * then {@code es} after s, x, z, ch and sh, {@code ies} for a consonant and y,
	 * {@code s} otherwise; {@code Endpoints} stays as it is.
	 * @param kind the kind, such as {@code NetworkPolicy}
	 * @return the plural, such as {@code networkpolicies}
	 */
	static String plural(String kind) {
		String lower = kind.toLowerCase(Locale.ROOT);
		if (lower.equals("endpoints")) {
			return lower;
		}
		if (lower.endsWith("s") || lower.endsWith("x") || lower.endsWith("z") || lower.endsWith("ch")
				|| lower.endsWith("sh")) {
			return lower + "es";
		}
		if (lower.endsWith("y") && lower.length() > 1 && "aeiou".indexOf(lower.charAt(lower.length() - 2)) < 0) {
			return lower.substring(0, lower.length() - 1) + "ies";
		}
		return lower + "s";
	}

}
