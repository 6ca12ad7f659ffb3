package io.kubeboot.operator.predicate;

import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/**
 * The common {@link Predicate predicates}, the counterparts of controller-runtime's
 * {@code GenerationChangedPredicate}, {@code LabelChangedPredicate},
 * {@code AnnotationChangedPredicate}, {@code ResourceVersionChangedPredicate} and
 * {@code NewPredicateFuncs}. Each passes creations and deletions and filters updates
 * only, unless said otherwise.
 */
public final class Predicates {

	private static final Predicate<KubernetesObject> ALL = new Named<>("all") {
	};

	private static final Predicate<KubernetesObject> GENERATION_CHANGED = new Named<>("generationChanged") {

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

	};

	private static final Predicate<KubernetesObject> LABELS_CHANGED = new Named<>("labelsChanged") {

		@Override
		public boolean update(KubernetesObject oldObject, KubernetesObject newObject) {
			return !Objects.equals(labels(oldObject), labels(newObject));
		}

	};

	private static final Predicate<KubernetesObject> ANNOTATIONS_CHANGED = new Named<>("annotationsChanged") {

		@Override
		public boolean update(KubernetesObject oldObject, KubernetesObject newObject) {
			return !Objects.equals(annotations(oldObject), annotations(newObject));
		}

	};

	private static final Predicate<KubernetesObject> RESOURCE_VERSION_CHANGED = new Named<>("resourceVersionChanged") {

		@Override
		public boolean update(KubernetesObject oldObject, KubernetesObject newObject) {
			return oldObject.getMetadata() == null || newObject.getMetadata() == null || !Objects
				.equals(oldObject.getMetadata().getResourceVersion(), newObject.getMetadata().getResourceVersion());
		}

	};

	private Predicates() {
	}

	/**
	 * Passes every event.
	 * @return the predicate
	 */
	public static Predicate<KubernetesObject> all() {
		return ALL;
	}

	/**
	 * Passes an update when {@code metadata.generation} changed, that is when the spec
	 * changed: status-only and metadata-only updates (a status write, a label, the
	 * periodic resync) are dropped. An update that sets the deletion timestamp or changes
	 * the finalizers always passes, as does every update of a kind without a generation
	 * (most built-in kinds without a spec, such as ConfigMap and Secret).
	 * @return the predicate
	 */
	public static Predicate<KubernetesObject> generationChanged() {
		return GENERATION_CHANGED;
	}

	/**
	 * Passes an update when {@code metadata.labels} changed.
	 * @return the predicate
	 */
	public static Predicate<KubernetesObject> labelsChanged() {
		return LABELS_CHANGED;
	}

	/**
	 * Passes an update when {@code metadata.annotations} changed.
	 * @return the predicate
	 */
	public static Predicate<KubernetesObject> annotationsChanged() {
		return ANNOTATIONS_CHANGED;
	}

	/**
	 * Passes an update when {@code metadata.resourceVersion} changed: drops only the
	 * periodic resync, where the object did not change.
	 * @return the predicate
	 */
	public static Predicate<KubernetesObject> resourceVersionChanged() {
		return RESOURCE_VERSION_CHANGED;
	}

	/**
	 * Passes the events whose object matches a condition: the new object for an update
	 * (so an object that stops matching is no longer reconciled, and one that starts
	 * matching is).
	 * @param <T> the model type
	 * @param name a name for logs
	 * @param condition the condition; fast and non-blocking
	 * @return the predicate
	 */
	public static <T extends KubernetesObject> Predicate<T> matching(String name,
			java.util.function.Predicate<? super T> condition) {
		Objects.requireNonNull(condition, "condition must not be null");
		return new Named<>(name) {

			@Override
			public boolean create(T object) {
				return condition.test(object);
			}

			@Override
			public boolean update(T oldObject, T newObject) {
				return condition.test(newObject);
			}

			@Override
			public boolean delete(T object) {
				return condition.test(object);
			}

		};
	}

	/**
	 * Passes an event if the predicate rejects it, for creations, updates and deletions
	 * alike.
	 * @param <T> the model type
	 * @param predicate the predicate
	 * @return the negation
	 */
	public static <T extends KubernetesObject> Predicate<T> not(Predicate<T> predicate) {
		Objects.requireNonNull(predicate, "predicate must not be null");
		return new Named<>("not(" + predicate + ")") {

			@Override
			public boolean create(T object) {
				return !predicate.create(object);
			}

			@Override
			public boolean update(T oldObject, T newObject) {
				return !predicate.update(oldObject, newObject);
			}

			@Override
			public boolean delete(T object) {
				return !predicate.delete(object);
			}

		};
	}

	private static List<String> finalizers(V1ObjectMeta metadata) {
		return (metadata.getFinalizers() != null) ? metadata.getFinalizers() : List.of();
	}

	// absent and empty are the same to a reader of the object
	private static Map<String, String> labels(KubernetesObject object) {
		Map<String, String> labels = (object.getMetadata() != null) ? object.getMetadata().getLabels() : null;
		return (labels != null) ? labels : Map.of();
	}

	private static Map<String, String> annotations(KubernetesObject object) {
		Map<String, String> annotations = (object.getMetadata() != null) ? object.getMetadata().getAnnotations() : null;
		return (annotations != null) ? annotations : Map.of();
	}

	/**
	 * A predicate with a name for logs and the endpoint.
	 */
	private abstract static class Named<T extends KubernetesObject> implements Predicate<T> {

		private final String name;

		Named(String name) {
			this.name = name;
		}

		@Override
		public String toString() {
			return this.name;
		}

	}

}
