package io.kubeboot.operator.predicate;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EventFiltersTests {

	private final EventFilter<KubernetesObject> generation = EventFilters.generationChanged();

	@Test
	void generationChangedDropsStatusAndMetadataOnlyUpdates() {
		V1Deployment before = deployment(3L, "1");
		V1Deployment statusWritten = deployment(3L, "2");
		V1Deployment labelled = deployment(3L, "3");
		labelled.getMetadata().putLabelsItem("team", "a");
		assertThat(this.generation.update(before, statusWritten)).isFalse();
		assertThat(this.generation.update(before, labelled)).isFalse();
		assertThat(this.generation.update(before, before)).isFalse(); // the resync
	}

	@Test
	void generationChangedPassesSpecChangesCreationsAndDeletions() {
		V1Deployment before = deployment(3L, "1");
		assertThat(this.generation.update(before, deployment(4L, "2"))).isTrue();
		assertThat(this.generation.create(before)).isTrue();
		assertThat(this.generation.delete(before)).isTrue();
	}

	@Test
	void generationChangedPassesDeletionTimestampsAndFinalizerChanges() {
		V1Deployment before = deployment(3L, "1");
		V1Deployment deleting = deployment(3L, "2");
		deleting.getMetadata().deletionTimestamp(OffsetDateTime.parse("2026-11-22T10:00:00Z"));
		V1Deployment finalized = deployment(3L, "3");
		finalized.getMetadata().finalizers(List.of("example.com/cleanup"));
		assertThat(this.generation.update(before, deleting)).isTrue();
		assertThat(this.generation.update(before, finalized)).isTrue();
		assertThat(this.generation.update(finalized, before)).isTrue();
	}

	@Test
	void generationChangedPassesEveryUpdateOfAKindWithoutGeneration() {
		V1ConfigMap before = new V1ConfigMap().metadata(new V1ObjectMeta().name("a").resourceVersion("1"));
		V1ConfigMap after = new V1ConfigMap().metadata(new V1ObjectMeta().name("a").resourceVersion("2"))
			.data(Map.of("k", "v"));
		assertThat(this.generation.update(before, after)).isTrue();
	}

	@Test
	void labelsAndAnnotationsChangedCompareOnlyTheirMaps() {
		V1Deployment before = deployment(3L, "1");
		V1Deployment labelled = deployment(3L, "2");
		labelled.getMetadata().putLabelsItem("team", "a");
		V1Deployment annotated = deployment(3L, "3");
		annotated.getMetadata().putAnnotationsItem("note", "x");
		V1Deployment emptyLabels = deployment(4L, "4");
		emptyLabels.getMetadata().labels(Map.of());
		assertThat(EventFilters.labelsChanged().update(before, labelled)).isTrue();
		assertThat(EventFilters.labelsChanged().update(before, annotated)).isFalse();
		assertThat(EventFilters.labelsChanged().update(before, emptyLabels)).isFalse();
		assertThat(EventFilters.annotationsChanged().update(before, annotated)).isTrue();
		assertThat(EventFilters.annotationsChanged().update(before, labelled)).isFalse();
	}

	@Test
	void resourceVersionChangedDropsOnlyTheResync() {
		V1Deployment before = deployment(3L, "1");
		assertThat(EventFilters.resourceVersionChanged().update(before, before)).isFalse();
		assertThat(EventFilters.resourceVersionChanged().update(before, deployment(3L, "2"))).isTrue();
	}

	@Test
	void combinationsFollowBooleanLogic() {
		V1Deployment before = deployment(3L, "1");
		V1Deployment labelled = deployment(3L, "2");
		labelled.getMetadata().putLabelsItem("team", "a");
		EventFilter<KubernetesObject> specOrLabels = this.generation.or(EventFilters.labelsChanged());
		assertThat(specOrLabels.update(before, labelled)).isTrue();
		assertThat(specOrLabels.update(before, deployment(3L, "3"))).isFalse();
		assertThat(this.generation.and(EventFilters.labelsChanged()).update(before, labelled)).isFalse();
		assertThat(EventFilters.not(this.generation).update(before, labelled)).isTrue();
		assertThat(EventFilters.not(this.generation).create(before)).isFalse();
		assertThat(specOrLabels).hasToString("or(generationChanged, labelsChanged)");
	}

	@Test
	void matchingLooksAtTheNewObjectOfAnUpdate() {
		EventFilter<V1Deployment> team = EventFilters.matching("team-a",
				(deployment) -> "a".equals(deployment.getMetadata().getLabels().get("team")));
		V1Deployment inTeam = deployment(3L, "1");
		inTeam.getMetadata().putLabelsItem("team", "a");
		V1Deployment otherTeam = deployment(3L, "2");
		otherTeam.getMetadata().putLabelsItem("team", "b");
		assertThat(team.create(inTeam)).isTrue();
		assertThat(team.create(otherTeam)).isFalse();
		assertThat(team.update(otherTeam, inTeam)).isTrue();
		assertThat(team.update(inTeam, otherTeam)).isFalse();
		assertThat(team.delete(otherTeam)).isFalse();
	}

	private static V1Deployment deployment(long generation, String resourceVersion) {
		return new V1Deployment().metadata(new V1ObjectMeta().name("web")
			.namespace("ns")
			.generation(generation)
			.resourceVersion(resourceVersion)
			.labels(new java.util.HashMap<>()));
	}

}
