package io.kubeboot.operator.autoconfigure;

import java.lang.reflect.ParameterizedType;
import java.util.LinkedHashMap;
import java.util.Map;

import io.kubeboot.operator.cache.CacheTransform;
import io.kubeboot.operator.manager.ManagerBuilder;
import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.core.ResolvableType;

/**
 * Registers the application's {@link CacheTransform} beans with the manager: a bean of
 * type {@code CacheTransform<V1ConfigMap>} transforms the cached ConfigMaps, one of type
 * {@code CacheTransform<KubernetesObject>} every kind without a transform of its own. The
 * kind is read from the bean's declared type, the return type of its {@code @Bean} method
 * or the class implementing the interface.
 */
final class CacheTransformBeans {

	private CacheTransformBeans() {
	}

	/**
	 * Finds the transform beans and adds them to the builder.
	 * @param beanFactory the bean factory
	 * @param builder the manager's builder
	 * @throws InvalidOperatorBeanException naming the bean if its kind cannot be told or
	 * two beans transform the same kind
	 */
	@SuppressWarnings({ "unchecked", "rawtypes" })
	static void registerAll(ConfigurableListableBeanFactory beanFactory, ManagerBuilder builder) {
		Map<Class<?>, String> registered = new LinkedHashMap<>();
		for (String name : beanFactory.getBeanNamesForType(CacheTransform.class)) {
			CacheTransform<?> transform = beanFactory.getBean(name, CacheTransform.class);
			Class<?> kind = kindOf(beanFactory, name, transform);
			if (kind == null) {
				throw new InvalidOperatorBeanException("CacheTransform bean '" + name + "' is invalid: its type does "
						+ "not say which kind it transforms; declare it as CacheTransform<V1ConfigMap> (for example "
						+ "as the return type of its @Bean method), or CacheTransform<KubernetesObject> for every kind",
						null);
			}
			String other = registered.putIfAbsent(kind, name);
			if (other != null) {
				throw new InvalidOperatorBeanException("CacheTransform beans '" + other + "' and '" + name
						+ "' both transform " + kind.getSimpleName() + "; combine them into one bean", null);
			}
			try {
				if (kind == KubernetesObject.class) {
					builder.defaultCacheTransform((CacheTransform<KubernetesObject>) transform);
				}
				else {
					builder.cacheTransform((Class) kind, (CacheTransform) transform);
				}
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidOperatorBeanException(
						"CacheTransform bean '" + name + "' is invalid: " + ex.getMessage(), ex);
			}
		}
	}

	/**
	 * The kind a transform bean declares, {@code null} if its type leaves it open.
	 */
	private static @Nullable Class<?> kindOf(ConfigurableListableBeanFactory beanFactory, String name,
			CacheTransform<?> transform) {
		if (beanFactory.containsBeanDefinition(name)) {
			// the @Bean method's return type: the only place a lambda's kind is written
			BeanDefinition definition = beanFactory.getMergedBeanDefinition(name);
			Class<?> kind = resolve((definition instanceof RootBeanDefinition root) ? root.getResolvableType()
					: definition.getResolvableType());
			if (kind != null) {
				return kind;
			}
		}
		return resolve(ResolvableType.forInstance(transform));
	}

	/**
	 * The kind a type gives {@code CacheTransform}'s parameter, {@code null} if it leaves
	 * it open (a raw type, a wildcard or a type variable, which would resolve to their
	 * bound).
	 */
	private static @Nullable Class<?> resolve(ResolvableType type) {
		ResolvableType generic = type.as(CacheTransform.class).getGeneric(0);
		if (!(generic.getType() instanceof Class<?>) && !(generic.getType() instanceof ParameterizedType)) {
			return null;
		}
		Class<?> kind = generic.resolve();
		return (kind != null && KubernetesObject.class.isAssignableFrom(kind)) ? kind : null;
	}

}
