package io.kubeboot.operator.cache;

import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

import io.kubeboot.operator.client.internal.KindResolver;
import io.kubeboot.operator.client.internal.KindResolver.DeclaredKind;
import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.config.internal.ConfigChecks;
import org.jspecify.annotations.Nullable;

/**
 * How many objects each informer is expected to hold at most: a budget per informer, and
 * budgets by kind that override it. An informer that holds more than its budget is
 * reported, once each time it goes over: a WARN naming it, its objects and its budget,
 * and the metric {@code operator_informer_object_budget_exceeded_total}. It never drops
 * an object: a cache that left objects out would have controllers act on a partial view
 * of the cluster. Set with {@code ManagerBuilder.objectBudgets}; with Spring,
 * {@code operator.cache.object-budget} and {@code operator.cache.object-budgets.<kind>}.
 * <p>
 * A kind is named as its objects' {@code kind} (as in the metrics' {@code kind} label),
 * such as {@code Secret}, case aside, which applies to the kind of every API group; or as
 * {@code kind.group}, such as {@code Event.events.k8s.io}, which applies to that group's
 * only and wins over the bare kind. A budget applies to each informer of the kind on its
 * own (one per namespace, selector and form). The manager fails to start if a kind named
 * matches no informer it runs ({@link #requireKindsOf}): a plural such as {@code secrets}
 * or a typo would otherwise be a budget that never applies.
 *
 * @param perInformer the budget of every informer of a kind without a budget of its own,
 * {@code 0} for none; not negative
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
		// in the order given, so that errors name the kinds as they were written
		perKind = Collections.unmodifiableMap(byKind);
	}

	/**
	 * Returns the budget of an informer.
	 * @param informer the informer's key
	 * @return the budget of its kind and group if it has one, else of its kind, else the
	 * budget per informer; {@code 0} for none
	 */
	public int budgetOf(InformerKey informer) {
		DeclaredKind kind = KindResolver.declaredKind(informer.type());
		String group = groupOf(kind);
		Integer budget = group.isEmpty() ? null : find(kind.kind() + "." + group);
		if (budget == null) {
			budget = find(kind.kind());
		}
		return (budget != null) ? budget : this.perInformer;
	}

	/**
	 * Checks that every kind given a budget is the kind of one of the informers.
	 * @param informers the informers the manager runs
	 * @throws InvalidConfigException naming every kind that no informer caches
	 */
	public void requireKindsOf(Collection<InformerKey> informers) {
		Set<String> names = new HashSet<>();
		Set<String> cached = new TreeSet<>();
		for (InformerKey informer : informers) {
			DeclaredKind kind = KindResolver.declaredKind(informer.type());
			String group = groupOf(kind);
			names.add(kind.kind().toLowerCase(Locale.ROOT));
			names.add((kind.kind() + "." + group).toLowerCase(Locale.ROOT));
			cached.add(group.isEmpty() ? kind.kind() : kind.kind() + "." + group);
		}
		ConfigChecks checks = new ConfigChecks();
		this.perKind.forEach((kind, budget) -> checks.check(names.contains(kind.toLowerCase(Locale.ROOT)),
				"perKind." + kind, budget,
				"names no kind an informer caches (" + (cached.isEmpty() ? "there is none" : String.join(", ", cached))
						+ "): name a kind as the metrics' kind label does, such as Secret, or as kind.group for "
						+ "one API group's, such as Event.events.k8s.io"));
		checks.throwIfAny();
	}

	private static String groupOf(DeclaredKind kind) {
		return (kind.group() != null) ? kind.group() : "";
	}

	private @Nullable Integer find(String kind) {
		for (Map.Entry<String, Integer> budget : this.perKind.entrySet()) {
			if (budget.getKey().equalsIgnoreCase(kind)) {
				return budget.getValue();
			}
		}
		return null;
	}

}
