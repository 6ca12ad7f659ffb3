package io.kubeboot.operator.autoconfigure;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.kubeboot.operator.annotation.PeriodicTrigger;
import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.source.IntervalTrigger;
import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.core.env.Environment;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;

/**
 * Finds {@link PeriodicTrigger @PeriodicTrigger} classes and methods as beans are
 * initialized (the way {@code @Scheduled} methods are found) and, once the controllers
 * exist, turns each into an {@link IntervalTrigger} source of its controller (a runnable
 * of the manager for {@code leaderOnly = false}). Every mistake fails start-up with a
 * message naming the bean.
 */
final class PeriodicTriggerBeans implements BeanPostProcessor {

	private final Set<Class<?>> classesWithoutTriggers = ConcurrentHashMap.newKeySet();

	private final List<Found> found = new ArrayList<>();

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
		Class<?> type = AopUtils.getTargetClass(bean);
		if (this.classesWithoutTriggers.contains(type)
				|| !AnnotationUtils.isCandidateClass(type, PeriodicTrigger.class)) {
			return bean;
		}
		PeriodicTrigger onType = AnnotatedElementUtils.findMergedAnnotation(type, PeriodicTrigger.class);
		Map<Method, PeriodicTrigger> methods = MethodIntrospector.selectMethods(type,
				(MethodIntrospector.MetadataLookup<PeriodicTrigger>) (method) -> AnnotatedElementUtils
					.findMergedAnnotation(method, PeriodicTrigger.class));
		if (onType == null && methods.isEmpty()) {
			this.classesWithoutTriggers.add(type);
			return bean;
		}
		synchronized (this.found) {
			if (onType != null) {
				this.found.add(new Found(beanName, bean, null, onType));
			}
			methods.forEach((method, trigger) -> this.found.add(new Found(beanName, bean, method, trigger)));
		}
		return bean;
	}

	void registerAll(Manager manager, ReconcilerBeans reconcilers, ConfigurableListableBeanFactory beanFactory,
			Environment environment) {
		List<Found> all;
		synchronized (this.found) {
			all = new ArrayList<>(this.found);
		}
		for (Found trigger : all) {
			String where = "@PeriodicTrigger on bean '" + trigger.beanName + "'"
					+ ((trigger.method != null) ? " method " + trigger.method.getName() + "()" : "");
			try {
				Controller controller = controller(manager, reconcilers, beanFactory, environment, trigger);
				Duration interval = duration(environment, trigger.annotation.interval(), "interval");
				Duration initialDelay = StringUtils.hasText(trigger.annotation.initialDelay())
						? duration(environment, trigger.annotation.initialDelay(), "initialDelay") : interval;
				Supplier<? extends Collection<Request>> requests = (trigger.method != null)
						? invoker(trigger.bean, trigger.method) : controller::cachedRequests;
				String name = "trigger-" + trigger.beanName
						+ ((trigger.method != null) ? "-" + trigger.method.getName() : "");
				IntervalTrigger source = new IntervalTrigger(name, interval, initialDelay, trigger.annotation.jitter(),
						requests);
				if (trigger.annotation.leaderOnly()) {
					controller.watch(source);
				}
				else {
					manager.add(name, controller.onEveryReplica(source));
				}
			}
			catch (RuntimeException ex) {
				throw new InvalidOperatorBeanException(where + " is invalid: " + ex.getMessage(), ex);
			}
		}
	}

	private static Controller controller(Manager manager, ReconcilerBeans reconcilers,
			ConfigurableListableBeanFactory beanFactory, Environment environment, Found trigger) {
		if (StringUtils.hasText(trigger.annotation.controller())) {
			return Controller.named(manager, environment.resolveRequiredPlaceholders(trigger.annotation.controller()));
		}
		if (trigger.annotation.kind() != KubernetesObject.class) {
			return Controller.forKind(manager, trigger.annotation.kind());
		}
		Reconciles reconciler = beanFactory.findAnnotationOnBean(trigger.beanName, Reconciles.class);
		if (reconciler == null) {
			throw new IllegalStateException("name the controller to reconcile with: @PeriodicTrigger(kind = ...) "
					+ "or @PeriodicTrigger(controller = ...)");
		}
		return Controller.named(manager, reconcilers.controllerName(reconciler));
	}

	private static Duration duration(Environment environment, String value, String attribute) {
		String resolved = environment.resolveRequiredPlaceholders(value).trim();
		try {
			return DurationStyle.detectAndParse(resolved);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException(
					attribute + " '" + resolved + "' is not a duration (use forms such as 30s, 5m or PT1M)", ex);
		}
	}

	private static Supplier<Collection<Request>> invoker(Object bean, Method declared) {
		Class<?> returnType = declared.getReturnType();
		if (declared.getParameterCount() != 0 || Modifier.isStatic(declared.getModifiers())
				|| !(returnType == Request.class || Collection.class.isAssignableFrom(returnType)
						|| Stream.class.isAssignableFrom(returnType))) {
			throw new IllegalStateException(
					"the method must take no parameters and return Request, Collection<Request> or Stream<Request>");
		}
		Method method = AopUtils.selectInvocableMethod(declared, bean.getClass());
		ReflectionUtils.makeAccessible(method);
		return () -> ReconcilerBeans.toRequests(ReflectionUtils.invokeMethod(method, bean));
	}

	private record Found(String beanName, Object bean, @Nullable Method method, PeriodicTrigger annotation) {
	}

}
