package io.kubeboot.operator.model;

import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * Keeps a status's list of {@link Condition}s as the Kubernetes API conventions ask, with
 * the semantics of Go's {@code meta.SetStatusCondition}: one condition per type, and
 * {@code lastTransitionTime} moved only when the status changes.
 *
 * <pre class="code">
 * List&lt;Condition&gt; conditions = new ArrayList&lt;&gt;(current.getConditions());
 * boolean changed = Conditions.set(conditions,
 *         Condition.of("Ready", Condition.TRUE, "ConfigMapUpToDate", "3 entries")
 *             .observedGeneration(resource.getMetadata().getGeneration()));
 * </pre>
 *
 * The list passed in changes; the conditions in it never do (a changed one is replaced by
 * a new instance), so a copy of a list read from the cache may be passed.
 */
public final class Conditions {

	private static final Set<String> STATUSES = Set.of(Condition.TRUE, Condition.FALSE, Condition.UNKNOWN);

	private Conditions() {
	}

	/**
	 * Sets a condition: adds it if there is none of its type, else updates the one there.
	 * Its {@code lastTransitionTime} is the condition's own if it has one, else now; an
	 * update keeps the time there unless the status changes. A {@code null} message is
	 * written as an empty one, which the API server requires.
	 * @param conditions the status's conditions, a mutable list
	 * @param condition the condition as observed now
	 * @return whether the list changed: the status is worth writing
	 * @throws IllegalArgumentException if the type or reason is blank or the status not
	 * {@code True}, {@code False} or {@code Unknown}: the API server would refuse the
	 * status
	 */
	public static boolean set(List<Condition> conditions, Condition condition) {
		return set(conditions, condition, Clock.systemUTC());
	}

	/**
	 * Sets a condition as {@link #set(List, Condition)} does, with the time of a clock.
	 * @param conditions the status's conditions, a mutable list
	 * @param condition the condition as observed now
	 * @param clock the clock that tells the transition time
	 * @return whether the list changed
	 */
	public static boolean set(List<Condition> conditions, Condition condition, Clock clock) {
		Objects.requireNonNull(conditions, "conditions must not be null");
		Objects.requireNonNull(condition, "condition must not be null");
		Objects.requireNonNull(clock, "clock must not be null");
		String type = validated(condition);
		String message = (condition.getMessage() != null) ? condition.getMessage() : "";
		int index = indexOf(conditions, type);
		if (index < 0) {
			OffsetDateTime since = (condition.getLastTransitionTime() != null) ? condition.getLastTransitionTime()
					: now(clock);
			conditions.add(condition.copy().message(message).lastTransitionTime(since));
			return true;
		}
		Condition existing = conditions.get(index);
		Condition updated = existing.copy();
		if (!Objects.equals(existing.getStatus(), condition.getStatus())) {
			updated.status(condition.getStatus())
				.lastTransitionTime(
						(condition.getLastTransitionTime() != null) ? condition.getLastTransitionTime() : now(clock));
		}
		updated.reason(condition.getReason()).message(message).observedGeneration(condition.getObservedGeneration());
		if (updated.equals(existing)) {
			return false;
		}
		conditions.set(index, updated);
		return true;
	}

	/**
	 * Removes the condition of a type.
	 * @param conditions the status's conditions, a mutable list
	 * @param type the condition type
	 * @return whether there was one
	 */
	public static boolean remove(List<Condition> conditions, String type) {
		Objects.requireNonNull(conditions, "conditions must not be null");
		int index = indexOf(conditions, type);
		if (index < 0) {
			return false;
		}
		conditions.remove(index);
		return true;
	}

	/**
	 * Returns the condition of a type.
	 * @param conditions the status's conditions, or {@code null} for none
	 * @param type the condition type
	 * @return the condition, or empty if there is none of that type
	 */
	public static Optional<Condition> find(@Nullable List<Condition> conditions, String type) {
		if (conditions == null) {
			return Optional.empty();
		}
		int index = indexOf(conditions, type);
		return (index >= 0) ? Optional.of(conditions.get(index)) : Optional.empty();
	}

	/**
	 * Returns whether the condition of a type is there with status {@code True}.
	 * @param conditions the status's conditions, or {@code null} for none
	 * @param type the condition type
	 * @return whether it holds
	 */
	public static boolean isTrue(@Nullable List<Condition> conditions, String type) {
		return find(conditions, type).map(Condition::isTrue).orElse(false);
	}

	/**
	 * Returns whether the condition of a type is there with status {@code False}.
	 * @param conditions the status's conditions, or {@code null} for none
	 * @param type the condition type
	 * @return whether it is known not to hold
	 */
	public static boolean isFalse(@Nullable List<Condition> conditions, String type) {
		return find(conditions, type).map((condition) -> Condition.FALSE.equals(condition.getStatus())).orElse(false);
	}

	private static int indexOf(List<Condition> conditions, String type) {
		Objects.requireNonNull(type, "type must not be null");
		for (int i = 0; i < conditions.size(); i++) {
			Condition condition = conditions.get(i);
			if (condition != null && type.equals(condition.getType())) {
				return i;
			}
		}
		return -1;
	}

	private static String validated(Condition condition) {
		String type = condition.getType();
		if (type == null || type.isBlank()) {
			throw new IllegalArgumentException("A condition needs a type, such as Ready: " + condition);
		}
		if (!STATUSES.contains(condition.getStatus())) {
			throw new IllegalArgumentException(
					"Condition " + type + " needs the status True, False or Unknown, not " + condition.getStatus());
		}
		if (condition.getReason() == null || condition.getReason().isBlank()) {
			throw new IllegalArgumentException(
					"Condition " + type + " needs a reason, one UpperCamelCase word such as ConfigMapUpToDate");
		}
		return type;
	}

	/**
	 * Whole seconds: the API server stores no more, so a time read back compares equal.
	 */
	private static OffsetDateTime now(Clock clock) {
		return OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS);
	}

}
