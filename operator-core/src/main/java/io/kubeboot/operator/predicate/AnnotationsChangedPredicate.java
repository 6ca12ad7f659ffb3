package io.kubeboot.operator.predicate;

import java.util.HashMap;
import java.util.Map;

import io.kubeboot.operator.tracing.TraceContextAnnotation;
import io.kubernetes.client.common.KubernetesObject;

/**
 * Passes an update when {@code metadata.annotations} changed; creations and deletions
 * pass. The counterpart of controller-runtime's {@code AnnotationChangedPredicate}. The
 * trace context a write leaves ({@link TraceContextAnnotation}) does not count: it
 * changes with every traced write.
 */
public final class AnnotationsChangedPredicate implements EventFilter<KubernetesObject> {

	/** The instance to use; the class is stateless. */
	public static final AnnotationsChangedPredicate INSTANCE = new AnnotationsChangedPredicate();

	/**
	 * Creates the predicate; prefer {@link #INSTANCE}.
	 */
	public AnnotationsChangedPredicate() {
	}

	/**
	 * Passes the update if the annotations changed (absent and empty are the same).
	 */
	@Override
	public boolean update(KubernetesObject oldObject, KubernetesObject newObject) {
		return !annotations(oldObject).equals(annotations(newObject));
	}

	private static Map<String, String> annotations(KubernetesObject object) {
		Map<String, String> annotations = (object.getMetadata() != null) ? object.getMetadata().getAnnotations() : null;
		if (annotations == null) {
			return Map.of();
		}
		if (!annotations.containsKey(TraceContextAnnotation.NAME)) {
			return annotations;
		}
		Map<String, String> others = new HashMap<>(annotations);
		others.remove(TraceContextAnnotation.NAME);
		return others;
	}

	@Override
	public String toString() {
		return "annotationsChanged";
	}

}
