package io.kubeboot.operator.autoconfigure;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import io.kubeboot.operator.autoconfigure.InvalidOperatorPropertyException.Problem;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * The {@link KubernetesConnectionDetails} beans that
 * {@code operator.clusters.connection-details} names as member clusters of the fleet,
 * told apart from the home cluster's.
 */
final class MemberConnectionDetails {

	private static final Logger logger = LoggerFactory.getLogger(MemberConnectionDetails.class);

	private static final String PREFIX = "operator.clusters.connection-details";

	private MemberConnectionDetails() {
	}

	/**
	 * Returns the home cluster's connection details: all there are when no member cluster
	 * names any; else the only bean of the type that no member cluster names (by its name
	 * or an alias), or, among several, the primary one.
	 * @return the connection details, {@code null} if no bean is left for the home
	 * cluster
	 * @throws IllegalStateException if several are left and none of them is primary
	 */
	static @Nullable KubernetesConnectionDetails home(ObjectProvider<KubernetesConnectionDetails> all,
			ListableBeanFactory beans, Environment environment) {
		Collection<String> named = Binder.get(environment)
			.bind(PREFIX, Bindable.mapOf(String.class, String.class))
			.orElse(Map.of())
			.values();
		if (named.isEmpty()) {
			return all.getIfAvailable();
		}
		Set<String> members = new HashSet<>();
		for (String bean : named) {
			members.add(bean);
			if (beans.containsBean(bean)) {
				members.addAll(Arrays.asList(beans.getAliases(bean)));
			}
		}
		List<String> home = new ArrayList<>();
		for (String name : BeanFactoryUtils.beanNamesForTypeIncludingAncestors(beans,
				KubernetesConnectionDetails.class)) {
			if (!members.contains(name)) {
				home.add(name);
			}
		}
		if (home.isEmpty()) {
			logger.warn("Every KubernetesConnectionDetails bean is a member cluster's ({}): the home cluster's client "
					+ "comes from KUBECONFIG, ~/.kube/config or the in-cluster service account", PREFIX);
			return null;
		}
		List<String> chosen = (home.size() == 1) ? home
				: home.stream().filter((name) -> isPrimary(beans, name)).toList();
		if (chosen.size() != 1) {
			throw new IllegalStateException(
					"Several KubernetesConnectionDetails beans could reach the home cluster: " + String.join(", ", home)
							+ ". Mark the home cluster's @Primary, or name the others in " + PREFIX + ".<cluster>");
		}
		return beans.getBean(chosen.get(0), KubernetesConnectionDetails.class);
	}

	private static boolean isPrimary(ListableBeanFactory beans, String name) {
		return beans instanceof ConfigurableListableBeanFactory configurable
				&& configurable.containsBeanDefinition(name) && configurable.getBeanDefinition(name).isPrimary();
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
