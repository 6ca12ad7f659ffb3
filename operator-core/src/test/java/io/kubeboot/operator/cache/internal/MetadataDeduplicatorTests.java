package io.kubeboot.operator.cache.internal;

import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link MetadataDeduplicator}, on objects parsed the way informers parse them.
 */
class MetadataDeduplicatorTests {

	private static final String JSON_TEMPLATE = """
			{"apiVersion": "v1", "kind": "ConfigMap",
			 "metadata": {"name": "%s", "namespace": "team-a", "uid": "%s",
			   "labels": {"app.kubernetes.io/name": "shop", "tier": "web", "zone": "z1"},
			   "annotations": {"note": "%s"},
			   "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "shop", "uid": "u"}]},
			 "data": {"k": "v"}}
			""";

	private final JSON json = new JSON();

	private final MetadataDeduplicator deduplicator = new MetadataDeduplicator();

	@Test
	void repeatingMetadataStringsOfTwoObjectsAreTheSameInstances() {
		V1ConfigMap first = this.deduplicator.deduplicate(parse("a", "uid-a", "first"));
		V1ConfigMap second = this.deduplicator.deduplicate(parse("b", "uid-b", "second"));
		assertThat(second.getApiVersion()).isSameAs(first.getApiVersion());
		assertThat(second.getKind()).isSameAs(first.getKind());
		assertThat(second.getMetadata().getNamespace()).isSameAs(first.getMetadata().getNamespace());
		List<String> firstKeys = List.copyOf(first.getMetadata().getLabels().keySet());
		List<String> secondKeys = List.copyOf(second.getMetadata().getLabels().keySet());
		for (int i = 0; i < firstKeys.size(); i++) {
			assertThat(secondKeys.get(i)).isSameAs(firstKeys.get(i));
			assertThat(second.getMetadata().getLabels().get(secondKeys.get(i)))
				.isSameAs(first.getMetadata().getLabels().get(firstKeys.get(i)));
		}
		assertThat(second.getMetadata().getAnnotations().keySet().iterator().next())
			.isSameAs(first.getMetadata().getAnnotations().keySet().iterator().next());
		assertThat(second.getMetadata().getOwnerReferences().get(0).getKind())
			.isSameAs(first.getMetadata().getOwnerReferences().get(0).getKind());
	}

	@Test
	void objectsStayEqualToWhatWasParsedWithLabelOrderKept() {
		V1ConfigMap deduplicated = this.deduplicator.deduplicate(parse("a", "uid-a", "first"));
		assertThat(deduplicated).isEqualTo(parse("a", "uid-a", "first"));
		assertThat(deduplicated.getMetadata().getLabels()).containsExactly(Map.entry("app.kubernetes.io/name", "shop"),
				Map.entry("tier", "web"), Map.entry("zone", "z1"));
		// still a mutable map, as parsed
		deduplicated.getMetadata().getLabels().put("added", "x");
		assertThat(deduplicated.getMetadata().getLabels()).containsEntry("added", "x");
	}

	@Test
	void immutableLabelMapsAndNullMetadataAreLeftAlone() {
		V1ConfigMap built = new V1ConfigMap();
		assertThat(this.deduplicator.deduplicate(built)).isSameAs(built);
		built.metadata(new V1ObjectMeta().labels(Map.of("a", "b")));
		assertThat(this.deduplicator.deduplicate(built).getMetadata().getLabels()).isEqualTo(Map.of("a", "b"));
	}

	@Test
	void longStringsAreNotPooled() {
		String longValue = "x".repeat(300);
		String copy = new String(longValue);
		assertThat(this.deduplicator.shared(longValue)).isSameAs(longValue);
		assertThat(this.deduplicator.shared(copy)).isSameAs(copy);
		String shortValue = "team-a";
		assertThat(this.deduplicator.shared(new String(shortValue))).isNotSameAs(shortValue);
		assertThat(this.deduplicator.shared(shortValue)).isNotSameAs(shortValue).isEqualTo(shortValue);
	}

	private V1ConfigMap parse(String name, String uid, String note) {
		return this.json.deserialize(JSON_TEMPLATE.formatted(name, uid, note), V1ConfigMap.class);
	}

}
