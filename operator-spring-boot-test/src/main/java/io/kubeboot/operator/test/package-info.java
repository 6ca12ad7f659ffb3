/**
 * A real, local Kubernetes control plane for integration tests, in the spirit of
 * controller-runtime's {@code envtest}.
 * <p>
 * {@link io.kubeboot.operator.test.ControlPlane} starts {@code etcd} and
 * {@code kube-apiserver} (the newest installed version, or the one
 * {@code OPERATOR_TEST_KUBERNETES_VERSION} names) as child processes bound to
 * {@code 127.0.0.1} only, with a throw-away PKI, token authentication for an
 * {@code admin} user and three unprivileged users, and RBAC authorization. No
 * controller-manager and no kubelet run: nothing reconciles built-in resources
 * (namespaces stay {@code Terminating}, pods are never scheduled, no service account
 * tokens are created).
 * <p>
 * {@link io.kubeboot.operator.test.WithControlPlane} registers
 * {@link io.kubeboot.operator.test.ControlPlaneExtension}, which shares one control plane
 * per test JVM and injects it, an admin {@link io.kubernetes.client.openapi.ApiClient}
 * and a fresh {@link io.kubeboot.operator.test.TestNamespace} into test methods; on a
 * {@code @SpringBootTest}, the operator's auto-configuration connects the application to
 * it.
 * <p>
 * The binaries are looked up in {@code $KUBEBUILDER_ASSETS}, then in
 * {@code OPERATOR_CONTROL_PLANE_DIR} (system property, then environment variable), then
 * in {@code ~/.cache/operator-spring-boot/control-plane}; {@code
 * scripts/install-control-plane.sh} installs them there.
 */
package io.kubeboot.operator.test;
