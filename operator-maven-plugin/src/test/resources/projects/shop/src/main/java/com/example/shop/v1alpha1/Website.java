package com.example.shop.v1alpha1;

import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;
import io.kubeboot.operator.model.PrinterColumn;

/**
 * Key-value pairs that the operator keeps in a ConfigMap of the same name.
 * <p>
 * The custom resource {@code websites.shop.example.com}. The whole model is this annotated class
 * and its spec and status classes: {@link CustomResource} supplies {@code metadata},
 * {@code spec} and {@code status}, and {@link KubernetesKind} tells the framework which
 * kind it is.
 * <p>
 * Its CustomResourceDefinition, {@code deploy/crd.yaml}, is generated from these classes
 * when they compile (operator-crd-generator, on the compiler's processor path in
 * {@code pom.xml}): the first paragraph of their javadoc becomes the schema's
 * descriptions, their Jakarta Validation constraints its validation, and the
 * {@link PrinterColumn}s below the columns of {@code kubectl get}. Change the model,
 * build, and copy the generated file to {@code deploy/} ({@code GeneratedCrdTests} fails
 * the build until you do).
 */
@KubernetesKind(group = Website.GROUP, version = Website.VERSION, kind = Website.KIND, plural = Website.PLURAL)
@PrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status")
@PrinterColumn(name = "Age", type = PrinterColumn.Type.DATE, jsonPath = ".metadata.creationTimestamp")
// only with kubectl get -o wide
@PrinterColumn(name = "Reason", jsonPath = ".status.conditions[?(@.type==\"Ready\")].reason", priority = 1)
public class Website extends CustomResource<WebsiteSpec, WebsiteStatus> {

	/**
	 * The API group.
	 */
	public static final String GROUP = "shop.example.com";

	/**
	 * The API version within the group.
	 */
	public static final String VERSION = "v1alpha1";

	/**
	 * The kind.
	 */
	public static final String KIND = "Website";

	/**
	 * The plural resource name, as in URLs, RBAC rules and {@code kubectl get}.
	 */
	public static final String PLURAL = "websites";

}
