package ${package}.v1alpha1;

import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;

/**
 * A ${kind}, the custom resource {@code ${plural}.${group}} ({@code deploy/crd.yaml}): the
 * key-value pairs of its spec are kept in a ConfigMap of the same name, owned by it.
 * <p>
 * The whole model is this annotated class and its spec and status classes:
 * {@link CustomResource} supplies {@code metadata}, {@code spec} and {@code status}, and
 * {@link KubernetesKind} tells the framework which kind it is.
 */
@KubernetesKind(group = ${kind}.GROUP, version = ${kind}.VERSION, kind = ${kind}.KIND)
public class ${kind} extends CustomResource<${kind}Spec, ${kind}Status> {

	/**
	 * The API group.
	 */
	public static final String GROUP = "${group}";

	/**
	 * The API version within the group.
	 */
	public static final String VERSION = "v1alpha1";

	/**
	 * The kind.
	 */
	public static final String KIND = "${kind}";

	/**
	 * The plural resource name, as in URLs, RBAC rules and {@code kubectl get}.
	 */
	public static final String PLURAL = "${plural}";

}
