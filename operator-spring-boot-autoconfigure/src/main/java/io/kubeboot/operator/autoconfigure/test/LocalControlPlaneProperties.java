package io.kubeboot.operator.autoconfigure.test;

import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The local control plane (etcd and kube-apiserver of operator-spring-boot-test) that
 * tests annotated with {@code @WithControlPlane} and the development loop run the
 * operator against, under {@code operator.local-control-plane}. Only the test support
 * reads these properties, with {@link LocalControlPlaneCrds}; a deployed operator ignores
 * them.
 */
@ConfigurationProperties(prefix = LocalControlPlaneProperties.PREFIX, ignoreUnknownFields = false)
final class LocalControlPlaneProperties {

	static final String PREFIX = "operator.local-control-plane";

	/**
	 * Where the CRD generator writes the CRDs of the application's
	 * {@code @KubernetesKind} models.
	 */
	static final String GENERATED_CRDS = "classpath*:META-INF/kubeboot/crds/*.yaml";

	/**
	 * The CustomResourceDefinitions applied to the local control plane before the manager
	 * starts: Spring resource locations of YAML files holding CRDs only, such as
	 * file:deploy/crd.yaml; a pattern may match no file, a location prefixed with
	 * optional: may not exist.
	 */
	private List<String> crdLocations = new ArrayList<>(List.of(GENERATED_CRDS));

	public List<String> getCrdLocations() {
		return this.crdLocations;
	}

	public void setCrdLocations(List<String> crdLocations) {
		this.crdLocations = crdLocations;
	}

}
