package io.kubeboot.operator.predicate;

import java.util.List;
import java.util.Objects;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/**
 * Passes an update when {@code metadata.generation} changed, that is when the spec
 * changed: status-only and metadata-only updates (a status write, a label, the periodic
 * resync) are dropped. An update that sets the deletion timestamp or changes the
 * finalizers always passes, as does every update of a kind without a generation (most
 * built-in kinds without a spec, such as ConfigMap and Secret). Creations and deletions
 * pass. The counterpart of controller-runtime's {@code GenerationChangedPredicate}, and
 * the default event filter of a controller's reconciled kind.
 */
public final class GenerationChangedPredicate implements EventFilter<KubernetesObject> {

	/** The instance to use; the class is stateless. */
	public static final GenerationChangedPredicate INSTANCE = new GenerationChangedPredicate();

	/**
	 * Creates the predicate; prefer {@link #INSTANCE}.
	 */
	public GenerationChangedPredicate() {
	}

	/**
	 * Passes the update if the generation, the deletion timestamp or the finalizers
	 * changed, or if the kind has no generation.
	 */
	@Override
	public boolean update(KubernetesObject oldObject, KubernetesObject newObject) {
		V1ObjectMeta before = oldObject.getMetadata();
		V1ObjectMeta after = newObject.getMetadata();
		if (before == null || after == null || before.getGeneration() == null || after.getGeneration() == null) {
			return true; // a kind without generation: every update may matter
		}
		return !before.getGeneration().equals(after.getGeneration())
				|| !Objects.equals(before.getDeletionTimestamp(), after.getDeletionTimestamp())
				|| !Objects.equals(finalizers(before), finalizers(after));
	}

	private static List<String> finalizers(V1ObjectMeta metadata) {
		return (metadata.getFinalizers() != null) ? metadata.getFinalizers() : List.of();
	}

	@Override
	public String toString() {
		return "generationChanged";
	}

}
