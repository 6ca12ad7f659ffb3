package io.kubeboot.operator.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import io.kubeboot.operator.autoconfigure.InvalidOperatorPropertyException.Problem;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * The {@link KubernetesConnectionDetails} beans that
 * {@code operator.clusters.connection-details} names as member clusters of the fleet,
 * told apart from the home cluster's.
 */
final class MemberConnectionDetails {

	private static final String PREFIX = "operator.clusters.connection-details";

	private MemberConnectionDetails() {
	}

	/**
	 * Returns the home cluster's connection details: the only bean of the type that no
	 * member cluster names, or, among several, the primary one.
	 * @return the connection details, {@code null} if there are none
	 */
	static @Nullable KubernetesConnectionDetails home(ObjectProvider<KubernetesConnectionDetails> all,
			ListableBeanFactory beans, Environment environment) {
		Set<String> members = Set.copyOf(Binder.get(environment)
			.bind(PREFIX, Bindable.mapOf(String.class, String.class))
			.orElse(Map.of())
			.values());
		if (members.isEmpty()) {
			return all.getIfAvailable();
		}
		List<String> home = new ArrayList<>();
		for (String name : BeanFactoryUtils.beanNamesForTypeIncludingAncestors(beans,
				KubernetesConnectionDetails.class)) {
			if (!members.contains(name)) {
				home.add(name);
			}
		}
		if (home.isEmpty()) {
			return null;
		}
		return (home.size() == 1) ? beans.getBean(home.get(0), KubernetesConnectionDetails.class)
				: all.getIfAvailable();
	}

	/**
	 * Returns the kubeconfig of each member cluster the properties name, read from its
	 * bean when the fleet engages it.
	 * @throws InvalidOperatorPropertyException naming each property whose bean is missing
	 */
	static Map<String, Supplier<String>> kubeconfigs(OperatorClustersProperties clusters, ListableBeanFactory beans) {
		Map<String, Supplier<String>> kubeconfigs = new LinkedHashMap<>();
		List<Problem> problems = new ArrayList<>();
		clusters.getConnectionDetails().forEach((cluster, bean) -> {
			if (beans.containsBean(bean) && beans.isTypeMatch(bean, KubernetesConnectionDetails.class)) {
				KubernetesConnectionDetails details = beans.getBean(bean, KubernetesConnectionDetails.class);
				kubeconfigs.put(cluster, details::kubeconfig);
			}
			else {
				String property = PREFIX + "." + cluster;
				problems.add(new Problem(property, bean, null,
						property + " names no KubernetesConnectionDetails bean: there is none named " + bean));
			}
		});
		if (!problems.isEmpty()) {
			throw new InvalidOperatorPropertyException(
					String.join("\n", problems.stream().map(Problem::reason).toList()), problems,
					"Name a KubernetesConnectionDetails bean of the application for each cluster of " + PREFIX
							+ ", or declare the bean.");
		}
		return kubeconfigs;
	}

}
