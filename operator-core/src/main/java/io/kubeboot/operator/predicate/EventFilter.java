package io.kubeboot.operator.predicate;

import java.util.Objects;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Decides which changes of a watched kind reach a controller, the counterpart of
 * controller-runtime's {@code predicate.Predicate}. A change the predicate rejects is
 * dropped before it becomes a request; every method passes by default, so a predicate
 * overrides only the events it filters. {@link EventFilters} has the common ones.
 * <p>
 * Called on the informer's event thread for every event: a predicate must be fast, must
 * not block and must not call the API server. One that throws is logged and the event
 * passes, so a broken filter costs a reconcile, never a lost change. When a controller
 * starts it reconciles every cached object that passes {@link #create}.
 *
 * @param <T> the model type
 */
public interface EventFilter<T extends KubernetesObject> {

	/**
	 * Whether an object that appeared (created, or listed when the cache or the
	 * controller started) is reconciled.
	 * @param object the object
	 * @return {@code true} to reconcile it
	 */
	default boolean create(T object) {
		return true;
	}

	/**
	 * Whether a change of an object is reconciled, including the periodic resync where
	 * both objects are the same.
	 * @param oldObject the object before the change
	 * @param newObject the object after it
	 * @return {@code true} to reconcile it
	 */
	default boolean update(T oldObject, T newObject) {
		return true;
	}

	/**
	 * Whether the deletion of an object is reconciled.
	 * @param object the last known state of the object
	 * @return {@code true} to reconcile it
	 */
	default boolean delete(T object) {
		return true;
	}

	/**
	 * Returns a predicate that passes an event only if this one and the other pass it.
	 * @param other the other predicate
	 * @return the conjunction
	 */
	default EventFilter<T> and(EventFilter<? super T> other) {
		Objects.requireNonNull(other, "other must not be null");
		EventFilter<T> self = this;
		return new EventFilter<>() {

			@Override
			public boolean create(T object) {
				return self.create(object) && other.create(object);
			}

			@Override
			public boolean update(T oldObject, T newObject) {
				return self.update(oldObject, newObject) && other.update(oldObject, newObject);
			}

			@Override
			public boolean delete(T object) {
				return self.delete(object) && other.delete(object);
			}

			@Override
			public String toString() {
				return "and(" + self + ", " + other + ")";
			}

		};
	}

	/**
	 * Returns a predicate that passes an event if this one or the other passes it.
	 * @param other the other predicate
	 * @return the disjunction
	 */
	default EventFilter<T> or(EventFilter<? super T> other) {
		Objects.requireNonNull(other, "other must not be null");
		EventFilter<T> self = this;
		return new EventFilter<>() {

			@Override
			public boolean create(T object) {
				return self.create(object) || other.create(object);
			}

			@Override
			public boolean update(T oldObject, T newObject) {
				return self.update(oldObject, newObject) || other.update(oldObject, newObject);
			}

			@Override
			public boolean delete(T object) {
				return self.delete(object) || other.delete(object);
			}

			@Override
			public String toString() {
				return "or(" + self + ", " + other + ")";
			}

		};
	}

}
