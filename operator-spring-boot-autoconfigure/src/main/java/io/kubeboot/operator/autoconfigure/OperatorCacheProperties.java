package io.kubeboot.operator.autoconfigure;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.cache.ObjectBudgets;
import io.kubeboot.operator.cache.UnscopedInformerAdvice;
import io.kubeboot.operator.cache.UnscopedInformerPolicy;
import io.kubeboot.operator.manager.Manager;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.Environment;

/**
 * What the manager's caches may hold: object budgets per informer, by default none, and
 * the kinds whose informers of every namespace are intended. An informer that holds more
 * objects than its budget logs a WARN each time it goes over and counts it in
 * {@code operator_informer_object_budget_exceeded_total}; it keeps every object. The
 * values follow the rules of {@link ObjectBudgets} and {@link UnscopedInformerPolicy}.
 * How the caches list, watch and sync stays with the manager's other timings at the top
 * level ({@code operator.cache-sync-timeout}, {@code operator.watch-timeout},
 * {@code operator.sync-period}, {@code operator.list-page-size}): they time the manager's
 * start and its informers' requests, while this group says what the caches hold.
 */
@ConfigurationProperties(prefix = "operator.cache", ignoreUnknownFields = false)
public class OperatorCacheProperties {

	/**
	 * Most objects each informer is expected to hold, unless its kind has a budget of its
	 * own under object-budgets; past it, a WARN and a metric, never a dropped object. 0
	 * for no budget.
	 */
	private int objectBudget = 0;

	/**
	 * Most objects each informer of a kind is expected to hold, by kind as in the
	 * metrics' kind label (Secret, ConfigMap, StorageBucket), case aside, or by kind and
	 * API group in brackets ([Event.events.k8s.io]), which wins over the bare kind;
	 * overrides object-budget. 0 for no budget. A kind that no informer caches fails
	 * start-up.
	 */
	private final Map<String, Integer> objectBudgets = new LinkedHashMap<>();

	/**
	 * Kinds whose informers of every namespace, without a selector, are intended, such as
	 * Pod for an operator that must see every Pod: no start-up WARN for them. One of
	 * Secret, ConfigMap, Pod, Event (of both API groups) and Event.events.k8s.io.
	 */
	private final Set<String> acknowledgedUnscopedKinds = new LinkedHashSet<>();

	public int getObjectBudget() {
		return this.objectBudget;
	}

	public void setObjectBudget(int objectBudget) {
		this.objectBudget = objectBudget;
	}

	public Map<String, Integer> getObjectBudgets() {
		return this.objectBudgets;
	}

	public Set<String> getAcknowledgedUnscopedKinds() {
		return this.acknowledgedUnscopedKinds;
	}

	/**
	 * Returns the budgets, as the core takes them.
	 * @return the budgets
	 * @throws io.kubeboot.operator.config.InvalidConfigException if a budget is negative
	 * or a kind blank or named twice
	 */
	ObjectBudgets toObjectBudgets() {
		return new ObjectBudgets(this.objectBudget, this.objectBudgets);
	}

	/**
	 * Returns how informers of every Secret, ConfigMap, Pod or Event of the cluster are
	 * warned of, as the core takes it.
	 * @param advice words what narrows an informer
	 * @return the policy
	 * @throws io.kubeboot.operator.config.InvalidConfigException if a kind acknowledged
	 * is not one warned of
	 */
	UnscopedInformerPolicy toUnscopedInformerPolicy(UnscopedInformerAdvice advice) {
		return new UnscopedInformerPolicy(this.acknowledgedUnscopedKinds, advice);
	}

	/**
	 * Fails if {@code operator.cache.object-budgets} names a kind that no informer of the
	 * manager caches, once the controllers of the application registered theirs.
	 * @param manager the manager
	 * @param environment where the properties are set
	 * @throws InvalidOperatorPropertyException naming each such property and the kinds
	 * the informers cache
	 */
	void checkBudgetKinds(Manager manager, Environment environment) {
		List<InformerKey> informers = manager.informers().stream().map(Informer::key).toList();
		PropertyProblems problems = new PropertyProblems(ConfigurationPropertySources.get(environment));
		problems.check("operator.cache", propertiesBySetting(), () -> toObjectBudgets().requireKindsOf(informers));
		problems.throwIfAny(OperatorPropertiesFailureAnalyzer.ACTION);
	}

	/**
	 * Returns the property below {@code operator.cache} of each setting of
	 * {@link ObjectBudgets} these properties set.
	 * @return the properties by setting
	 */
	Map<String, String> propertiesBySetting() {
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("perInformer", "object-budget");
		properties.put("acknowledgedKinds", "acknowledged-unscoped-kinds");
		this.objectBudgets.keySet()
			.forEach((kind) -> properties.put("perKind." + kind,
					"object-budgets" + (kind.contains(".") ? "[" + kind + "]" : "." + kind)));
		return properties;
	}

}
