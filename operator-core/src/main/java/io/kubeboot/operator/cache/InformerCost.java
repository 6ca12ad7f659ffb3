package io.kubeboot.operator.cache;

/**
 * What an informer's cache costs: how many objects it holds, an estimate of the heap they
 * take, and how they stand against its object budget ({@link ObjectBudgets}). Read with
 * {@link Informer#cost()}; the metrics {@code operator_informer_objects},
 * {@code operator_informer_estimated_heap_bytes} and {@code /actuator/operator} show the
 * same figures.
 * <p>
 * The estimate is the average heap of the objects sampled, times the objects held: every
 * object while the informer holds no more than 512, else a sample of 512 spread over its
 * namespaces, taken again when the figures are read and the sample is 30 seconds old, or
 * a second old while the number of objects moved by more than a tenth. An object's heap
 * is estimated from the JVM's object layout, field by field, and includes the informer's
 * map entry for it; the strings the cache shares between objects count in none. The
 * indexes of the cache ({@link CacheIndex}) are not included.
 *
 * @param objects the objects the informer holds now
 * @param estimatedBytes the estimated heap those objects take, in bytes; {@code 0} when
 * it holds none
 * @param sampledObjects how many objects the estimate was taken from
 * @param objectBudget the most objects the informer should hold, {@code 0} for no budget
 * @param budgetExceeded how often the informer went over its budget
 */
public record InformerCost(int objects, long estimatedBytes, int sampledObjects, int objectBudget,
		long budgetExceeded) {

	/**
	 * Whether the informer holds more objects than its budget now. It keeps holding them
	 * all: a budget is reported, never enforced.
	 * @return {@code true} if it has a budget and holds more objects than that
	 */
	public boolean overBudget() {
		return this.objectBudget > 0 && this.objects > this.objectBudget;
	}

}
