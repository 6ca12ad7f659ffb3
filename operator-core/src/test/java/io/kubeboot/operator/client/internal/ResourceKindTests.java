package io.kubeboot.operator.client.internal;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The REST paths of a kind: every segment escaped, names that would leave their segment
 * refused.
 */
class ResourceKindTests {

	private final ResourceKind<V1ConfigMap> configMaps = new ResourceKind<>(V1ConfigMap.class, V1ConfigMapList.class,
			"", "v1", "ConfigMap", "configmaps", true);

	@Test
	void pathsOfACollectionAndAnObject() {
		assertThat(this.configMaps.collectionPath(null)).isEqualTo("/api/v1/configmaps");
		assertThat(this.configMaps.collectionPath("shop")).isEqualTo("/api/v1/namespaces/shop/configmaps");
		assertThat(this.configMaps.objectPath("shop", "web", true))
			.isEqualTo("/api/v1/namespaces/shop/configmaps/web/status");
	}

	@Test
	void aNameIsEscapedSoThatItStaysOneSegment() {
		assertThat(this.configMaps.objectPath("shop", "a?b#c d:e", false))
			.isEqualTo("/api/v1/namespaces/shop/configmaps/a%3Fb%23c%20d%3Ae");
	}

	@Test
	void aNameOrNamespaceThatWouldLeaveItsSegmentIsRefusedNamingTheKind() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.configMaps.objectPath("shop", "..", false))
			.withMessageEndingWith("(ConfigMap (core/v1)), refused before any request");
		assertThatIllegalArgumentException().isThrownBy(() -> this.configMaps.collectionPath("a/b"))
			.withMessageStartingWith("Invalid namespace \"a/b\"")
			.withMessageEndingWith("(ConfigMap (core/v1)), refused before any request");
	}

}
