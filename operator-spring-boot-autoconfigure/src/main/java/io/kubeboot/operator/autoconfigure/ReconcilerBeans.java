package io.kubeboot.operator.autoconfigure;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import io.kubeboot.operator.annotation.RbacRule;
import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.annotation.Watches;
import io.kubeboot.operator.autoconfigure.InvalidOperatorPropertyException.Problem;
import io.kubeboot.operator.client.internal.KindResolver;
import io.kubeboot.operator.cluster.Fleet;
import io.kubeboot.operator.cluster.FleetControllerBuilder;
import io.kubeboot.operator.cluster.FleetReconciler;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.controller.ControllerBuilder;
import io.kubeboot.operator.handler.MapFunction;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.model.PartialObjectMetadata;
import io.kubeboot.operator.predicate.EventFilter;
import io.kubeboot.operator.predicate.EventFilters;
import io.kubeboot.operator.rbac.Permission;
import io.kubeboot.operator.reconcile.Cleaner;
import io.kubeboot.operator.reconcile.ReconcileContext;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.sharding.ShardRing;
import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.origin.Origin;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.Environment;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;

/**
 * Turns {@link Reconciles @Reconciles} beans into controllers of the manager. Every
 * mistake (no reconcile method, a class that is no Kubernetes kind, a malformed
 * {@link Watches @Watches} method) fails start-up with a message naming the bean, and
 * {@code operator.controllers.<name>.*} naming no such controller with a message naming
 * the property.
 */
final class ReconcilerBeans {

	private static final Logger logger = LoggerFactory.getLogger(ReconcilerBeans.class);

	private final ConfigurableListableBeanFactory beanFactory;

	private final Environment environment;

	private final OperatorProperties properties;

	private final OperatorShardingProperties sharding;

	private final OperatorLeaderElectionProperties election;

	private final @Nullable ShardRing ring;

	private final List<String> registered = new ArrayList<>();

	/** The names of the fleet controllers among {@code registered}. */
	private final List<String> fleetControllers = new ArrayList<>();

	ReconcilerBeans(ConfigurableListableBeanFactory beanFactory, Environment environment, OperatorProperties properties,
			OperatorShardingProperties sharding, OperatorLeaderElectionProperties election, @Nullable ShardRing ring) {
		this.beanFactory = beanFactory;
		this.environment = environment;
		this.properties = properties;
		this.sharding = sharding;
		this.election = election;
		this.ring = ring;
	}

	void registerAll(Manager manager, @Nullable Fleet fleet) {
		for (String beanName : this.beanFactory.getBeanNamesForAnnotation(Reconciles.class)) {
			Reconciles annotation = this.beanFactory.findAnnotationOnBean(beanName, Reconciles.class);
			if (annotation != null) {
				register(manager, fleet, beanName, annotation);
			}
		}
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private void register(Manager manager, @Nullable Fleet fleet, String beanName, Reconciles annotation) {
		try {
			KindResolver.declaredKind(annotation.value());
			Object bean = this.beanFactory.getBean(beanName);
			String name = controllerName(annotation);
			if (bean instanceof FleetReconciler reconciler) {
				registerInFleet(fleet, bean, beanName, annotation, reconciler);
				this.registered.add(name);
				this.fleetControllers.add(name);
				return;
			}
			ControllerBuilder<?> builder = Controller.builder(manager, annotation.value());
			configuration(bean, beanName, annotation, false).forEach((step) -> step.accept(builder));
			List<String> sharded = this.sharding.getControllers();
			if (this.ring != null && (sharded.isEmpty() || sharded.contains(name))) {
				builder.gatedBy(this.ring);
			}
			builder.complete(reconcilerOf(bean, beanName));
			this.registered.add(name);
		}
		catch (RuntimeException ex) {
			throw new InvalidOperatorBeanException("@Reconciles bean '" + beanName + "' is invalid: " + ex.getMessage(),
					ex);
		}
	}

	/**
	 * Adds a fleet controller: the same configuration, applied in every engaged cluster,
	 * and the {@code @Watches(home = true)} methods' kinds watched in the home cluster.
	 */
	@SuppressWarnings({ "unchecked", "rawtypes" })
	private void registerInFleet(@Nullable Fleet fleet, Object bean, String beanName, Reconciles annotation,
			FleetReconciler reconciler) {
		if (fleet == null) {
			throw new IllegalStateException("it is a FleetReconciler, which runs in the clusters of a fleet, and "
					+ "operator.clusters.enabled is not true; set it and name the clusters (operator.clusters.*)");
		}
		if (StringUtils.hasText(annotation.finalizer())) {
			throw new IllegalStateException("it is a FleetReconciler and declares a finalizer, which fleet "
					+ "controllers do not manage; add and remove it with the cluster's client in the reconciler");
		}
		List<Consumer<ControllerBuilder<?>>> configuration = configuration(bean, beanName, annotation, true);
		FleetControllerBuilder builder = fleet.controller(annotation.value())
			.named(controllerName(annotation))
			.configure((member) -> configuration.forEach((step) -> step.accept((ControllerBuilder<?>) member)));
		for (Map.Entry<Method, Watches> watch : watchMethods(bean).entrySet()) {
			if (watch.getValue().home()) {
				Watches home = watch.getValue();
				if (StringUtils.hasText(home.fieldSelector()) || home.eventFilters().length > 0) {
					throw new IllegalStateException("@Watches(" + home.value().getSimpleName()
							+ ", home = true) method " + watch.getKey().getName()
							+ " sets a field selector or event filters, which the home "
							+ "kinds of a fleet do not support; narrow it with namespace and labelSelector");
				}
				builder.watchesHome(home.value(), resolve(home.namespace()), resolve(home.labelSelector()),
						mapFunction(bean, watch.getKey(), home));
			}
		}
		builder.complete(reconciler);
	}

	/**
	 * What a {@code @Reconciles} bean sets on its controller's builder, every value
	 * resolved and checked now: a fleet controller's is applied later, once per cluster.
	 */
	@SuppressWarnings({ "unchecked", "rawtypes" })
	private List<Consumer<ControllerBuilder<?>>> configuration(Object bean, String beanName, Reconciles annotation,
			boolean fleet) {
		List<Consumer<ControllerBuilder<?>>> steps = new ArrayList<>();
		String namespace = resolve(annotation.namespace());
		String labelSelector = resolve(annotation.labelSelector());
		String fieldSelector = resolve(annotation.fieldSelector());
		steps.add((builder) -> builder.namespace(namespace).labelSelector(labelSelector).fieldSelector(fieldSelector));
		if (StringUtils.hasText(annotation.name())) {
			String name = resolve(annotation.name());
			steps.add((builder) -> builder.named(name));
		}
		EventFilter<KubernetesObject> ownedFilter = eventFilter(annotation.ownsEventFilters());
		String ownsLabelSelector = resolve(annotation.ownsLabelSelector());
		String ownsFieldSelector = resolve(annotation.ownsFieldSelector());
		for (Class<? extends KubernetesObject> owned : annotation.owns()) {
			KindResolver.declaredKind(owned);
			steps.add((builder) -> builder.owns(owned, ownsLabelSelector, ownsFieldSelector, ownedFilter));
		}
		for (Class<? extends KubernetesObject> owned : annotation.ownsMetadataOnly()) {
			if (Arrays.asList(annotation.owns()).contains(owned)) {
				throw new IllegalStateException(owned.getSimpleName() + " is listed in both owns and "
						+ "ownsMetadataOnly; keep it in one of them");
			}
			KindResolver.declaredKind(owned);
			steps.add((builder) -> builder.ownsMetadataOnly(owned, ownsLabelSelector, ownsFieldSelector, ownedFilter));
		}
		for (Map.Entry<Method, Watches> watch : watchMethods(bean).entrySet()) {
			if (watch.getValue().home() && !fleet) {
				throw new IllegalStateException("@Watches(" + watch.getValue().value().getSimpleName()
						+ ", home = true) method " + watch.getKey().getName()
						+ " watches the home cluster of a fleet, and the bean is no FleetReconciler");
			}
			if (!watch.getValue().home()) {
				steps.add(watchStep(bean, watch.getKey(), watch.getValue()));
			}
		}
		int workers = annotation.maxConcurrentReconciles();
		steps.add((builder) -> builder.maxConcurrentReconciles(workers));
		if (StringUtils.hasText(annotation.reconcileTimeout())) {
			Duration timeout = reconcileTimeout(resolve(annotation.reconcileTimeout()));
			steps.add((builder) -> builder.reconcileTimeout(timeout));
		}
		EventFilter filter = eventFilter(annotation.eventFilters());
		steps.add((builder) -> builder.withEventFilter(filter));
		if (StringUtils.hasText(annotation.finalizer())) {
			String finalizer = resolve(annotation.finalizer());
			Cleaner cleaner = cleanerOf(bean, finalizer);
			steps.add((builder) -> builder.withFinalizer(finalizer, cleaner));
		}
		for (RbacRule rule : this.beanFactory.findAllAnnotationsOnBean(beanName, RbacRule.class, true)) {
			Permission permission = permission(rule, annotation.value());
			steps.add((builder) -> builder.requires(permission));
		}
		OperatorProperties.ControllerOverrides overrides = this.properties.getControllers()
			.get(controllerName(annotation));
		if (overrides != null && overrides.getMaxConcurrentReconciles() != null) {
			int overridden = overrides.getMaxConcurrentReconciles();
			steps.add((builder) -> builder.maxConcurrentReconciles(overridden));
		}
		if (overrides != null && overrides.getPriorityQueue() != null) {
			boolean priorityQueue = overrides.getPriorityQueue();
			steps.add((builder) -> builder.priorityQueue(priorityQueue));
		}
		if (overrides != null && overrides.getReconcileTimeout() != null) {
			Duration timeout = overrides.getReconcileTimeout();
			steps.add((builder) -> builder.reconcileTimeout(timeout));
		}
		return steps;
	}

	private static Duration reconcileTimeout(String value) {
		Duration timeout;
		try {
			timeout = DurationStyle.detectAndParse(value);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalStateException("reconcileTimeout '" + value + "' is not a duration, such as 30s or 2m",
					ex);
		}
		if (timeout.isNegative()) {
			throw new IllegalStateException("reconcileTimeout '" + value + "' must not be negative; 0 for no limit");
		}
		return timeout;
	}

	/**
	 * The permission an {@link RbacRule @RbacRule} declares; its kind defaults to the
	 * reconciled kind.
	 */
	private static Permission permission(RbacRule rule, Class<? extends KubernetesObject> reconciled) {
		Permission permission;
		if (StringUtils.hasText(rule.resource())) {
			permission = Permission.of(rule.group(), rule.resource(), rule.verbs());
		}
		else {
			permission = Permission.of((rule.kind() != KubernetesObject.class) ? rule.kind() : reconciled,
					rule.verbs());
		}
		if (StringUtils.hasText(rule.subresource())) {
			permission = permission.subresource(rule.subresource());
		}
		if (rule.resourceNames().length > 0) {
			permission = permission.resourceNames(rule.resourceNames());
		}
		if (StringUtils.hasText(rule.role())) {
			permission = permission.inRole(rule.role());
		}
		if (rule.grantedPerNamespace()) {
			if (!StringUtils.hasText(rule.role())) {
				throw new IllegalStateException("@RbacRule(grantedPerNamespace = true) needs a role of its own: "
						+ "set role, such as role = \"connections\"");
			}
			permission = permission.grantedPerNamespace();
		}
		return permission.because(rule.reason());
	}

	/**
	 * Fails if {@code operator.controllers.<name>.*} names a controller that was not
	 * registered from a {@code @Reconciles} bean, which would leave the settings unused.
	 * @param manager the manager the controllers were registered with
	 * @throws InvalidOperatorPropertyException naming each such property and the
	 * controllers there are
	 */
	void checkControllerProperties(Manager manager) {
		List<String> unknown = this.properties.getControllers()
			.keySet()
			.stream()
			.filter((name) -> !this.registered.contains(name))
			.toList();
		if (unknown.isEmpty()) {
			return;
		}
		List<String> ofManager = Controller.of(manager).stream().map(Controller::name).toList();
		String controllers = String.join(", ", this.registered);
		List<Problem> problems = new ArrayList<>();
		List<String> reasons = new ArrayList<>();
		for (String name : unknown) {
			String key = "operator." + OperatorProperties.controllerKey(name);
			String reason;
			if (ofManager.contains(name)) {
				reason = key + " names a controller built in code, which properties do not configure (call "
						+ "maxConcurrentReconciles, priorityQueue or reconcileTimeout on its ControllerBuilder); the "
						+ "controllers of @Reconciles beans are: " + (this.registered.isEmpty() ? "none" : controllers);
			}
			else {
				reason = key + " names no controller; " + (this.registered.isEmpty()
						? "the application has no @Reconciles beans" : "the controllers are: " + controllers);
			}
			reasons.add(reason);
			Map<ConfigurationPropertyName, ConfigurationProperty> set = propertiesOf(name);
			if (set.isEmpty()) {
				problems.add(new Problem(key, null, null, reason));
			}
			set.forEach((property, value) -> problems
				.add(new Problem(key + below(property, 3), value.getValue(), Origin.from(value), reason)));
		}
		throw new InvalidOperatorPropertyException(String.join("\n", reasons), problems,
				"Use the name of a controller in operator.controllers.<name>.*: the lower-cased kind it reconciles, "
						+ "or the name given in @Reconciles(name = ...); or remove the properties.");
	}

	/**
	 * Fails if {@code operator.sharding.controllers} names a controller that was not
	 * registered from a {@code @Reconciles} bean, and warns when sharding leaves
	 * controllers unsharded without leader election, which then run on every replica.
	 * @param manager the manager the controllers were registered with
	 * @throws InvalidOperatorPropertyException naming each such name and the controllers
	 * there are
	 */
	void checkShardedControllers(Manager manager) {
		if (this.ring == null) {
			return;
		}
		List<String> named = this.sharding.getControllers();
		List<Problem> problems = new ArrayList<>();
		for (int i = 0; i < named.size(); i++) {
			if (this.fleetControllers.contains(named.get(i))) {
				String key = "operator.sharding.controllers[" + i + "]";
				problems.add(new Problem(key, named.get(i), origin(ConfigurationPropertyName.of(key)),
						key + " names the fleet controller " + named.get(i)
								+ ", whose objects sharding does not share: with sharding on, the fleet shares its "
								+ "clusters over the ring instead, and the controller runs in each cluster on the "
								+ "replica the ring gives it to"));
			}
			else if (!this.registered.contains(named.get(i))) {
				String key = "operator.sharding.controllers[" + i + "]";
				String reason = key + " names no controller of a @Reconciles bean; " + (this.registered.isEmpty()
						? "the application has none" : "the controllers are: " + String.join(", ", this.registered));
				problems.add(new Problem(key, named.get(i), origin(ConfigurationPropertyName.of(key)), reason));
			}
		}
		if (!problems.isEmpty()) {
			throw new InvalidOperatorPropertyException(
					String.join("\n", problems.stream().map(Problem::reason).toList()), problems,
					"Name the controllers to shard in operator.sharding.controllers: the lower-cased kind they "
							+ "reconcile, or the name given in @Reconciles(name = ...); or leave it empty to shard "
							+ "them all.");
		}
		List<String> unsharded = Controller.of(manager)
			.stream()
			.filter((controller) -> controller.needsLeaderElection())
			.map(Controller::name)
			.toList();
		if (!unsharded.isEmpty() && !this.election.isEnabled()) {
			logger.warn(
					"Controllers not sharded run on every replica, as leader election is off: controllers={} "
							+ "(set operator.leader-election.enabled=true to run them on one replica at a time)",
					unsharded);
		}
	}

	private @Nullable Origin origin(ConfigurationPropertyName name) {
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(this.environment)) {
			ConfigurationProperty property = source.getConfigurationProperty(name);
			if (property != null) {
				return Origin.from(property);
			}
		}
		return null;
	}

	/**
	 * Returns the properties under {@code operator.controllers.<name>} the application
	 * sets, each where it takes effect.
	 */
	private Map<ConfigurationPropertyName, ConfigurationProperty> propertiesOf(String controller) {
		ConfigurationPropertyName controllers = ConfigurationPropertyName.of("operator.controllers");
		Map<ConfigurationPropertyName, ConfigurationProperty> found = new LinkedHashMap<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(this.environment)) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				iterable.stream()
					.filter((name) -> controllers.isAncestorOf(name) && name.getNumberOfElements() > 3
							&& name.getElement(2, Form.ORIGINAL).equals(controller))
					.forEach((name) -> {
						ConfigurationProperty property = source.getConfigurationProperty(name);
						if (property != null) {
							found.putIfAbsent(name, property);
						}
					});
			}
		}
		return found;
	}

	/**
	 * Returns the elements of a property name from an index on, as written.
	 */
	private static String below(ConfigurationPropertyName name, int from) {
		StringBuilder below = new StringBuilder();
		for (int i = from; i < name.getNumberOfElements(); i++) {
			below.append('.').append(name.getElement(i, Form.ORIGINAL));
		}
		return below.toString();
	}

	String controllerName(Reconciles annotation) {
		return StringUtils.hasText(annotation.name()) ? resolve(annotation.name())
				: KindResolver.declaredKind(annotation.value()).kind().toLowerCase(Locale.ROOT);
	}

	private @Nullable String resolve(String value) {
		return StringUtils.hasText(value) ? this.environment.resolveRequiredPlaceholders(value) : null;
	}

	private static io.kubeboot.operator.reconcile.Reconciler reconcilerOf(Object bean, String beanName) {
		if (bean instanceof io.kubeboot.operator.reconcile.Reconciler reconciler) {
			return reconciler;
		}
		Method method = singleMethod(bean, "reconcile", io.kubeboot.operator.reconcile.Reconciler.class);
		return (request) -> invoke(method, bean, request);
	}

	private static Cleaner cleanerOf(Object bean, String finalizer) {
		if (bean instanceof Cleaner cleaner) {
			return cleaner;
		}
		try {
			Method method = singleMethod(bean, "cleanup", Cleaner.class);
			return (request) -> invoke(method, bean, request);
		}
		catch (IllegalStateException ex) {
			throw new IllegalStateException(
					"it declares the finalizer '" + finalizer + "' but no cleanup: " + ex.getMessage(), ex);
		}
	}

	/**
	 * The one method {@code Result name(Request)}, or {@code Result name(Request,
	 * ReconcileContext)}, of a bean that does not implement the interface.
	 */
	private static Method singleMethod(Object bean, String name, Class<?> orImplement) {
		Class<?> type = AopUtils.getTargetClass(bean);
		List<Method> candidates = Arrays.stream(ReflectionUtils.getUniqueDeclaredMethods(type))
			.filter((method) -> method.getName().equals(name) && !Modifier.isStatic(method.getModifiers())
					&& method.getReturnType() == Result.class && takesARequest(method))
			.toList();
		if (candidates.size() != 1) {
			throw new IllegalStateException("its class " + type.getName() + " must implement " + orImplement.getName()
					+ " or declare exactly one method 'Result " + name + "(Request)' (or 'Result " + name
					+ "(Request, ReconcileContext)')");
		}
		Method method = AopUtils.selectInvocableMethod(candidates.get(0), bean.getClass());
		ReflectionUtils.makeAccessible(method);
		return method;
	}

	private static boolean takesARequest(Method method) {
		Class<?>[] parameters = method.getParameterTypes();
		return (parameters.length == 1 && parameters[0] == Request.class) || (parameters.length == 2
				&& parameters[0] == Request.class && parameters[1] == ReconcileContext.class);
	}

	private static Result invoke(Method method, Object bean, Request request) throws Exception {
		try {
			if (method.getParameterCount() == 2) {
				// the context of the reconcile running on this worker's thread
				ReconcileContext context = ReconcileContext.current()
					.orElseThrow(() -> new IllegalStateException(
							method.getName() + " of " + bean.getClass().getName() + " called outside a reconcile"));
				return (Result) method.invoke(bean, request, context);
			}
			return (Result) method.invoke(bean, request);
		}
		catch (InvocationTargetException ex) {
			throw rethrow(ex.getTargetException());
		}
	}

	private static Map<Method, Watches> watchMethods(Object bean) {
		return MethodIntrospector.selectMethods(AopUtils.getTargetClass(bean),
				(MethodIntrospector.MetadataLookup<Watches>) (method) -> AnnotatedElementUtils
					.findMergedAnnotation(method, Watches.class));
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private Consumer<ControllerBuilder<?>> watchStep(Object bean, Method declared, Watches watches) {
		Class<? extends KubernetesObject> kind = watches.value();
		MapFunction mapFunction = mapFunction(bean, declared, watches);
		String namespace = resolve(watches.namespace());
		String labelSelector = resolve(watches.labelSelector());
		String fieldSelector = resolve(watches.fieldSelector());
		EventFilter<KubernetesObject> filter = eventFilter(watches.eventFilters());
		if (watches.metadataOnly()) {
			return (builder) -> builder.watchesMetadataOnly(kind, namespace, labelSelector, fieldSelector, mapFunction,
					filter);
		}
		return (builder) -> builder.watches((Class) kind, namespace, labelSelector, fieldSelector, mapFunction, filter);
	}

	@SuppressWarnings("rawtypes")
	private static MapFunction mapFunction(Object bean, Method declared, Watches watches) {
		Class<? extends KubernetesObject> kind = watches.value();
		Class<?> received = watches.metadataOnly() ? PartialObjectMetadata.class : kind;
		if (declared.getParameterCount() != 1 || !declared.getParameterTypes()[0].isAssignableFrom(received)) {
			throw new IllegalStateException("@Watches(" + kind.getSimpleName()
					+ (watches.metadataOnly() ? ", metadataOnly = true" : "") + ") method " + declared.getName()
					+ " must take exactly one parameter of type " + received.getSimpleName());
		}
		if (watches.home() && watches.metadataOnly()) {
			throw new IllegalStateException("@Watches(" + kind.getSimpleName() + ", home = true) method "
					+ declared.getName() + " cannot be metadataOnly: the home kinds of a fleet are cached whole");
		}
		Class<?> returnType = declared.getReturnType();
		if (returnType != Request.class && !Collection.class.isAssignableFrom(returnType)
				&& !Stream.class.isAssignableFrom(returnType)) {
			throw new IllegalStateException("@Watches(" + kind.getSimpleName() + ") method " + declared.getName()
					+ " must return Request, a Collection<Request> or a Stream<Request>");
		}
		Method method = AopUtils.selectInvocableMethod(declared, bean.getClass());
		ReflectionUtils.makeAccessible(method);
		return (object) -> toRequests(ReflectionUtils.invokeMethod(method, bean, object));
	}

	/**
	 * The conjunction of the predicates named in an annotation, each a bean of the
	 * application context if there is one of its type, else created by it.
	 */
	@SuppressWarnings({ "rawtypes", "unchecked" })
	private EventFilter<KubernetesObject> eventFilter(Class<? extends EventFilter>[] types) {
		EventFilter<KubernetesObject> filter = EventFilters.all();
		for (Class<? extends EventFilter> type : types) {
			EventFilter<KubernetesObject> predicate = predicateBean((Class<EventFilter>) type);
			filter = (filter == EventFilters.all()) ? predicate : filter.and(predicate);
		}
		return filter;
	}

	@SuppressWarnings("rawtypes")
	private EventFilter predicateBean(Class<EventFilter> type) {
		return this.beanFactory.getBeanProvider(type).getIfAvailable(() -> this.beanFactory.createBean(type));
	}

	/**
	 * Turns what a user's method returned into requests: {@code null}, a {@link Request},
	 * a {@code Collection<Request>} or a {@code Stream<Request>}.
	 * @param result the returned value
	 * @return the requests
	 */
	@SuppressWarnings("unchecked")
	static Collection<Request> toRequests(@Nullable Object result) {
		if (result == null) {
			return List.of();
		}
		if (result instanceof Request request) {
			return List.of(request);
		}
		if (result instanceof Stream<?> stream) {
			return (List<Request>) stream.toList();
		}
		return (Collection<Request>) result;
	}

	private static Exception rethrow(Throwable ex) {
		if (ex instanceof Error error) {
			throw error;
		}
		return (Exception) ex;
	}

}
