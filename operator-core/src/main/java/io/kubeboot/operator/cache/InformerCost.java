package io.kubeboot.operator.cache;

import java.util.Objects;
import java.util.OptionalInt;
import java.util.OptionalLong;

import org.jspecify.annotations.Nullable;

/**
 * What an informer's cache costs: how many objects it holds, an estimate of the heap they
 * take, and how they stand against its object budget ({@link ObjectBudgets}). Returned by
 * {@link Informer#cost()}; the metrics {@code operator_informer_objects},
 * {@code operator_informer_estimated_heap_bytes} and {@code /actuator/operator} show the
 * same figures. The count is exact; the heap is estimated from a sample of the objects,
 * taken again from time to time: how, and how close it comes, is documented under "What
 * the cache costs". Immutable.
 */
public final class InformerCost {

	private final int objects;

	/** The estimated bytes, below zero for none. */
	private final long estimatedBytes;

	/** The budget, {@code 0} for none. */
	private final int objectBudget;

	private final long budgetCrossings;

	private InformerCost(int objects, long estimatedBytes, int objectBudget, long budgetCrossings) {
		this.objects = objects;
		this.estimatedBytes = estimatedBytes;
		this.objectBudget = objectBudget;
		this.budgetCrossings = budgetCrossings;
	}

	/**
	 * Returns the cost of an informer that counts its objects, without an estimate of
	 * their heap or an object budget.
	 * @param objects the objects it holds
	 * @return the cost
	 */
	public static InformerCost counted(int objects) {
		return new InformerCost(objects, -1, 0, 0);
	}

	/**
	 * Returns the cost of an informer.
	 * @param objects the objects it holds
	 * @param estimatedBytes the estimated heap they take, below zero for no estimate
	 * @param objectBudget its object budget, {@code 0} for none
	 * @param budgetCrossings how often it went over its object budget
	 * @return the cost
	 */
	public static InformerCost of(int objects, long estimatedBytes, int objectBudget, long budgetCrossings) {
		return new InformerCost(objects, Math.max(-1, estimatedBytes), Math.max(0, objectBudget), budgetCrossings);
	}

	/**
	 * Returns how many objects the informer holds.
	 * @return the objects, none before the informer started and while it is paused
	 */
	public int objects() {
		return this.objects;
	}

	/**
	 * Returns the estimated heap the informer's objects take, the informer's own map
	 * entries included and its indexes left out.
	 * @return the bytes, {@code 0} when it holds no object; empty if the informer
	 * estimates nothing, or has no estimate yet
	 */
	public OptionalLong estimatedBytes() {
		return (this.estimatedBytes >= 0) ? OptionalLong.of(this.estimatedBytes) : OptionalLong.empty();
	}

	/**
	 * Returns the most objects the informer should hold.
	 * @return the budget, empty for none
	 */
	public OptionalInt objectBudget() {
		return (this.objectBudget > 0) ? OptionalInt.of(this.objectBudget) : OptionalInt.empty();
	}

	/**
	 * Tells whether the informer holds more objects than its budget now. It keeps holding
	 * them all: a budget is reported, never enforced.
	 * @return {@code true} if it has a budget and holds more objects than that
	 */
	public boolean overBudget() {
		return this.objectBudget > 0 && this.objects > this.objectBudget;
	}

	/**
	 * Returns how many times the informer went over its budget: each time counts once,
	 * until it is back well within it.
	 * @return the crossings, {@code 0} without a budget
	 */
	public long budgetCrossings() {
		return this.budgetCrossings;
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return other instanceof InformerCost cost && this.objects == cost.objects
				&& this.estimatedBytes == cost.estimatedBytes && this.objectBudget == cost.objectBudget
				&& this.budgetCrossings == cost.budgetCrossings;
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.objects, this.estimatedBytes, this.objectBudget, this.budgetCrossings);
	}

	@Override
	public String toString() {
		return "InformerCost[objects=" + this.objects + ", estimatedBytes="
				+ ((this.estimatedBytes >= 0) ? this.estimatedBytes : "none") + ", objectBudget="
				+ ((this.objectBudget > 0) ? this.objectBudget : "none") + ", budgetCrossings=" + this.budgetCrossings
				+ "]";
	}

}
