package io.kubeboot.operator.predicate;

import java.util.Map;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Passes an update when {@code metadata.labels} changed; creations and deletions pass.
 * The counterpart of controller-runtime's {@code LabelChangedPredicate}.
 */
public final class LabelsChangedPredicate implements EventFilter<KubernetesObject> {

	/** The instance to use; the class is stateless. */
	public static final LabelsChangedPredicate INSTANCE = new LabelsChangedPredicate();

	/**
	 * Creates the predicate; prefer {@link #INSTANCE}.
	 */
	public LabelsChangedPredicate() {
	}

	/**
	 * Passes the update if the labels changed (absent and empty are the same).
	 */
	@Override
	public boolean update(KubernetesObject oldObject, KubernetesObject newObject) {
		return !labels(oldObject).equals(labels(newObject));
	}

	private static Map<String, String> labels(KubernetesObject object) {
		Map<String, String> labels = (object.getMetadata() != null) ? object.getMetadata().getLabels() : null;
		return (labels != null) ? labels : Map.of();
	}

	@Override
	public String toString() {
		return "labelsChanged";
	}

}
