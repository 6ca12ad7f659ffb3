package io.kubeboot.operator.cache;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import io.kubeboot.operator.client.internal.KindResolver;
import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.config.internal.ConfigChecks;
import org.jspecify.annotations.Nullable;

/**
 * How many objects each informer is expected to hold at most: a budget per informer,
 * and budgets by kind that override it. An informer that holds more than its budget is
 * reported, once each time it goes over: a WARN naming it, its objects and its budget,
 * and the metric {@code operator_informer_object_budget_exceeded_total}. It never drops
 * an object: a cache that left objects out would have controllers act on a partial view
 * of the cluster. Set with {@code ManagerBuilder.objectBudgets}; with Spring,
 * {@code operator.cache.object-budget} and {@code operator.cache.object-budgets.<kind>}.
 * <p>
 * A kind is named as its objects' {@code kind} (as in the metrics' {@code kind} label),
 * such as {@code Secret}, case aside; a budget applies to each informer of the kind on
 * its own (one per namespace, selector and form).
 *
 * @param perInformer the budget of every informer of a kind without a budget of its
 * own, {@code 0} for none; not negative
 * @param perKind the budgets by kind, {@code 0} for none; not negative
 */
public record ObjectBudgets(int perInformer, Map<String, Integer> perKind) {

	/** No budget: the default. */
	public static final ObjectBudgets NONE = new ObjectBudgets(0, Map.of());

	/**
	 * Creates the budgets.
	 * @throws InvalidConfigException naming every budget that is negative, every kind
	 * that is blank and every kind named twice
	 */
	public ObjectBudgets {
		ConfigChecks checks = new ConfigChecks();
		checks.atLeast("perInformer", perInformer, 0);
		Objects.requireNonNull(perKind, "perKind must not be null");
		Map<String, Integer> byKind = new LinkedHashMap<>();
		Map<String, String> named = new LinkedHashMap<>();
		for (Map.Entry<String, Integer> entry : perKind.entrySet()) {
			String kind = entry.getKey();
			Integer budget = entry.getValue();
			String setting = "perKind." + kind;
			if (checks.notBlank(setting, kind) && checks.notNull(setting, budget)
					&& checks.atLeast(setting, budget, 0)) {
				String earlier = named.putIfAbsent(kind.trim().toLowerCase(Locale.ROOT), kind);
				if (checks.compare(earlier == null, setting, budget, "names the same kind, case aside, as",
						"perKind." + earlier, (earlier != null) ? perKind.get(earlier) : null)) {
					byKind.put(kind.trim(), budget);
				}
			}
		}
		checks.throwIfAny();
		perKind = Map.copyOf(byKind);
	}

	/**
	 * Returns the budget of an informer.
	 * @param informer the informer's key
	 * @return the budget of its kind if it has one, else the budget per informer;
	 * {@code 0} for none
	 */
	public int of(InformerKey informer) {
		return of(KindResolver.declaredKind(informer.type()).kind());
	}

	/**
	 * Returns the budget of an informer of a kind.
	 * @param kind the kind, such as {@code Secret}
	 * @return the budget of the kind if it has one, else the budget per informer;
	 * {@code 0} for none
	 */
	public int of(String kind) {
		Integer budget = budgetOf(kind);
		return (budget != null) ? budget : this.perInformer;
	}

	private @Nullable Integer budgetOf(String kind) {
		Integer exact = this.perKind.get(kind);
		if (exact != null) {
			return exact;
		}
		String lower = kind.toLowerCase(Locale.ROOT);
		for (Map.Entry<String, Integer> budget : this.perKind.entrySet()) {
			if (budget.getKey().toLowerCase(Locale.ROOT).equals(lower)) {
				return budget.getValue();
			}
		}
		return null;
	}

}
