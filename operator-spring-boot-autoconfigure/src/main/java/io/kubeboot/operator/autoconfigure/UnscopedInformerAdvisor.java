package io.kubeboot.operator.autoconfigure;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.annotation.Watches;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.cache.UnscopedInformerAdvice;
import io.kubeboot.operator.client.internal.KindResolver;
import io.kubeboot.operator.controller.Controller;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

/**
 * Words what narrows an informer of every Secret, ConfigMap, Pod or Event of the cluster
 * in the starter's terms: for each {@code @Reconciles} bean whose controller reads it,
 * the annotation attribute that created it ({@code @Reconciles(owns = ...)}, a
 * {@code @Watches} method) and the attributes that narrow it there, then the property
 * that acknowledges an intended one, {@code operator.cache.acknowledged-unscoped-kinds}.
 * Read as the informer starts, once every bean exists.
 */
final class UnscopedInformerAdvisor implements UnscopedInformerAdvice {

	private final ConfigurableListableBeanFactory beanFactory;

	private final Environment environment;

	UnscopedInformerAdvisor(ConfigurableListableBeanFactory beanFactory, Environment environment) {
		this.beanFactory = beanFactory;
		this.environment = environment;
	}

	@Override
	public String advise(InformerKey informer, List<String> readers, @Nullable String fieldSelector) {
		List<String> ways = new ArrayList<>();
		for (String reader : readers) {
			if (reader.startsWith(Controller.RUNNABLE_PREFIX)) {
				ways.addAll(declarations(reader.substring(Controller.RUNNABLE_PREFIX.length()), informer.type(),
						fieldSelector));
			}
		}
		if (ways.isEmpty()) {
			ways.add("a namespace (operator.namespace), a label selector"
					+ ((fieldSelector != null) ? ", a field selector such as " + fieldSelector : "")
					+ " or the metadata-only form where the informer is declared");
		}
		ways.add("or a CacheTransform bean dropping what no reconciler reads; if intended, set "
				+ "operator.cache.acknowledged-unscoped-kinds=" + KindResolver.declaredKind(informer.type()).kind());
		return String.join("; ", ways);
	}

	private List<String> declarations(String controller, Class<?> type, @Nullable String fieldSelector) {
		List<String> ways = new ArrayList<>();
		String kind = type.getSimpleName() + ".class";
		String field = (fieldSelector != null) ? "fieldSelector = \"" + fieldSelector + "\", " : "";
		String ownsField = (fieldSelector != null) ? "ownsFieldSelector = \"" + fieldSelector + "\", " : "";
		for (String beanName : this.beanFactory.getBeanNamesForAnnotation(Reconciles.class)) {
			Reconciles reconciles = this.beanFactory.findAnnotationOnBean(beanName, Reconciles.class);
			if (reconciles == null || !controller.equals(controllerName(reconciles))) {
				continue;
			}
			String bean = " on bean '" + beanName + "'";
			if (reconciles.value() == type) {
				ways.add("@Reconciles(" + kind + ")" + bean + ": set its " + field + "labelSelector or namespace, or "
						+ "operator.namespace");
			}
			if (Arrays.asList(reconciles.owns()).contains(type)) {
				ways.add("@Reconciles(owns = " + kind + ")" + bean + ": set its " + ownsField
						+ "ownsLabelSelector, or list " + kind + " in ownsMetadataOnly instead");
			}
			Class<?> beanType = this.beanFactory.getType(beanName);
			if (beanType != null) {
				watches(ClassUtils.getUserClass(beanType)).forEach((method, watches) -> {
					if (watches.value() == type && !watches.metadataOnly()) {
						ways.add("@Watches(" + kind + ") on " + ClassUtils.getUserClass(beanType).getSimpleName() + "."
								+ method.getName() + ": set its " + field + "labelSelector or namespace, or "
								+ "metadataOnly = true");
					}
				});
			}
		}
		return ways;
	}

	private String controllerName(Reconciles reconciles) {
		return StringUtils.hasText(reconciles.name()) ? this.environment.resolvePlaceholders(reconciles.name())
				: KindResolver.declaredKind(reconciles.value()).kind().toLowerCase(Locale.ROOT);
	}

	private static Map<Method, Watches> watches(Class<?> type) {
		return MethodIntrospector.selectMethods(type,
				(MethodIntrospector.MetadataLookup<Watches>) (method) -> AnnotatedElementUtils
					.findMergedAnnotation(method, Watches.class));
	}

}
