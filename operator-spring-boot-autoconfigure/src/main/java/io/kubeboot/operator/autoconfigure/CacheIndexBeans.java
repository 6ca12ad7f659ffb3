package io.kubeboot.operator.autoconfigure;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.cache.CacheIndex;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;

/**
 * Declares the application's {@link CacheIndex} beans to the manager's cache: a bean
 * {@code CacheIndex.of(App.class, "secretRef", ...)} indexes the cached Apps, for lookups
 * with {@code cache.list(App.class, namespace, index.matching(key))}. The kind is the
 * index's own, so the bean's declared type does not matter.
 */
final class CacheIndexBeans {

	private CacheIndexBeans() {
	}

	/**
	 * Finds the index beans and declares them to the cache.
	 * @param beanFactory the bean factory
	 * @param cache the manager's cache
	 * @throws InvalidOperatorBeanException naming the beans if two index a kind under one
	 * name, or the bean if the kind has another index of its name
	 */
	static void registerAll(ConfigurableListableBeanFactory beanFactory, Cache cache) {
		Map<List<Object>, String> registered = new HashMap<>();
		for (String name : beanFactory.getBeanNamesForType(CacheIndex.class)) {
			CacheIndex<?> index = beanFactory.getBean(name, CacheIndex.class);
			String other = registered.putIfAbsent(List.of(index.type(), index.name()), name);
			if (other != null && beanFactory.getBean(other) != index) {
				throw new InvalidOperatorBeanException("CacheIndex beans '" + other + "' and '" + name + "' both index "
						+ index.type().getSimpleName() + " as '" + index.name() + "'; give one of them another name",
						null);
			}
			try {
				cache.addIndex(index);
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidOperatorBeanException("CacheIndex bean '" + name + "' is invalid: " + ex.getMessage(),
						ex);
			}
		}
	}

}
