package io.kubeboot.operator.predicate;

import java.util.Objects;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Factories of the common {@link EventFilter predicates}: the built-in ones
 * ({@link GenerationChangedPredicate}, {@link LabelsChangedPredicate},
 * {@link AnnotationsChangedPredicate}, {@link ResourceVersionChangedPredicate}), one from
 * a condition on the object (controller-runtime's {@code NewPredicateFuncs}) and
 * combinations.
 */
public final class EventFilters {

	private static final EventFilter<KubernetesObject> ALL = new Named<>("all") {
	};

	private EventFilters() {
	}

	/**
	 * Passes every event.
	 * @return the predicate
	 */
	public static EventFilter<KubernetesObject> all() {
		return ALL;
	}

	/**
	 * Passes an update when the spec changed; see {@link GenerationChangedPredicate}.
	 * @return the predicate
	 */
	public static EventFilter<KubernetesObject> generationChanged() {
		return GenerationChangedPredicate.INSTANCE;
	}

	/**
	 * Passes an update when {@code metadata.labels} changed.
	 * @return the predicate
	 */
	public static EventFilter<KubernetesObject> labelsChanged() {
		return LabelsChangedPredicate.INSTANCE;
	}

	/**
	 * Passes an update when {@code metadata.annotations} changed.
	 * @return the predicate
	 */
	public static EventFilter<KubernetesObject> annotationsChanged() {
		return AnnotationsChangedPredicate.INSTANCE;
	}

	/**
	 * Passes an update when {@code metadata.resourceVersion} changed: drops only the
	 * periodic resync, where the object did not change.
	 * @return the predicate
	 */
	public static EventFilter<KubernetesObject> resourceVersionChanged() {
		return ResourceVersionChangedPredicate.INSTANCE;
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
	public static <T extends KubernetesObject> EventFilter<T> matching(String name,
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
	public static <T extends KubernetesObject> EventFilter<T> not(EventFilter<T> predicate) {
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

	/**
	 * A predicate with a name for logs and the endpoint.
	 */
	private abstract static class Named<T extends KubernetesObject> implements EventFilter<T> {

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
