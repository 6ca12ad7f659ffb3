package io.kubeboot.operator.cache;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.config.internal.ConfigChecks;

/**
 * How the manager warns of an informer that caches every Secret, ConfigMap, Pod or Event
 * of the cluster, in all namespaces, without a label or field selector and with whole
 * objects: the watch that most often gets operators killed for memory. Such an informer
 * is warned of once, as it starts, naming the runnables that read it and what narrows it;
 * one of a kind with a {@link CacheTransform} is reported at INFO instead, as the
 * transform may drop what makes the objects large; one of an acknowledged kind, intended
 * (an operator that must see every Pod), is not reported. Set with
 * {@code ManagerBuilder.unscopedInformers}; with Spring,
 * {@code operator.cache.acknowledged-unscoped-kinds}.
 *
 * @param acknowledgedKinds the kinds whose informers of every namespace are intended:
 * {@code Secret}, {@code ConfigMap}, {@code Pod}, {@code Event} (of both API groups) or
 * {@code Event.events.k8s.io}, case aside
 * @param advice words what narrows an informer
 */
public record UnscopedInformerPolicy(Set<String> acknowledgedKinds, UnscopedInformerAdvice advice) {

	/** The kinds warned of, as they may be acknowledged. */
	public static final List<String> KINDS = List.of("Secret", "ConfigMap", "Pod", "Event", "Event.events.k8s.io");

	/** Every kind warned of, in the builder's words: the default. */
	public static final UnscopedInformerPolicy DEFAULT = new UnscopedInformerPolicy(Set.of(),
			UnscopedInformerAdvice.BUILDER);

	/**
	 * Creates the policy.
	 * @throws InvalidConfigException naming every acknowledged kind that is not one
	 * warned of
	 */
	public UnscopedInformerPolicy {
		Objects.requireNonNull(acknowledgedKinds, "acknowledgedKinds must not be null");
		Objects.requireNonNull(advice, "advice must not be null");
		ConfigChecks checks = new ConfigChecks();
		Set<String> kinds = new LinkedHashSet<>();
		for (String kind : acknowledgedKinds) {
			if (checks.check(kind != null && KINDS.stream().anyMatch((warned) -> warned.equalsIgnoreCase(kind.trim())),
					"acknowledgedKinds", kind, "must be one of the kinds warned of: " + String.join(", ", KINDS))) {
				kinds.add(kind.trim());
			}
		}
		checks.throwIfAny();
		acknowledgedKinds = Set.copyOf(kinds);
	}

	/**
	 * Tells whether informers of a kind of every namespace are intended.
	 * @param kind the kind, such as {@code Event}
	 * @param group its API group, empty for the core group
	 * @return {@code true} if the kind, or the kind of that group, is acknowledged
	 */
	public boolean acknowledges(String kind, String group) {
		return this.acknowledgedKinds.stream()
			.anyMatch((acknowledged) -> acknowledged.equalsIgnoreCase(kind)
					|| (!group.isEmpty() && acknowledged.equalsIgnoreCase(kind + "." + group)));
	}

}
