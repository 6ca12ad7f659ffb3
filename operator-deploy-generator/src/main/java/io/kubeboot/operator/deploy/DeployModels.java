package io.kubeboot.operator.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import io.kubeboot.operator.autoconfigure.KubernetesConnectionDetails;
import io.kubeboot.operator.autoconfigure.OperatorLeaderElectionProperties;
import io.kubeboot.operator.autoconfigure.OperatorMetricsAuthProperties;
import io.kubeboot.operator.autoconfigure.OperatorProperties;
import io.kubeboot.operator.autoconfigure.OperatorWebhookProperties;
import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.cluster.Fleet;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.model.KubernetesKind;
import io.kubeboot.operator.rbac.internal.DeclaredNames;
import io.kubeboot.operator.rbac.internal.KindNames;
import io.kubeboot.operator.webhook.AdmissionValidator;
import io.kubeboot.operator.webhook.Conversion;
import io.kubeboot.operator.webhook.Defaulter;
import io.kubeboot.operator.webhook.Webhook;
import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.mock.web.MockServletContext;
import org.springframework.util.ClassUtils;
import org.springframework.web.context.support.GenericWebApplicationContext;
import org.springframework.web.context.support.StandardServletEnvironment;

/**
 * Reads what an operator's manifests need from its application: the {@link DeployModel}
 * that {@link DeployManifests} renders. From the environment:
 * {@code spring.application.name}, {@code server.port}, {@code management.server.port},
 * {@code operator.namespaces} (or {@code operator.namespace}), leader election,
 * {@code operator.metrics.auth.enabled}, {@code operator.webhook.*} and
 * {@code operator.graceful-shutdown-timeout}; from the beans: the probes
 * ({@code /healthz} and {@code /readyz} where the starter serves them, else Actuator's
 * probe groups), the Prometheus endpoint's path, every {@link AdmissionValidator},
 * {@link Defaulter} (with its {@link Webhook @Webhook}) and {@link Conversion}, and the
 * RBAC the {@link Manager} needs (and, with a {@link Fleet}, what each member cluster
 * must grant); from the application's own classes: the CRDs and admission policies
 * {@code operator-crd-generator} wrote.
 * <p>
 * {@link #of(Class)} builds the application's context as the operator runs it, but not
 * started and apart from the machine that builds it:
 *
 * <pre class="code">
 * DeployModel model = DeployModels.of(ShopOperatorApplication.class);
 * </pre>
 */
public final class DeployModels {

	private static final Logger logger = LoggerFactory.getLogger(DeployModels.class);

	private static final String CRDS = "META-INF/kubeboot/crds/";

	private static final String POLICIES = "META-INF/kubeboot/policies/";

	/**
	 * What the context of a generation is built with: a manager that never starts, a
	 * webhook certificate that needs no files.
	 */
	private static final Map<String, Object> GENERATION = Map.of("operator.auto-startup", "false",
			"operator.webhook.self-signed", "true", "spring.main.banner-mode", "off", "spring.main.log-startup-info",
			"false");

	/** A client that the manager is built with and never uses. */
	private static final String KUBECONFIG = """
			apiVersion: v1
			kind: Config
			clusters: [{name: none, cluster: {server: "https://127.0.0.1:1"}}]
			users: [{name: none, user: {token: none}}]
			contexts: [{name: none, context: {cluster: none, user: none}}]
			current-context: none
			""";

	private DeployModels() {
	}

	/**
	 * Builds the context of an operator's application, as it runs but not started, reads
	 * its model, and closes it. The context sees what the application ships
	 * ({@code application.yaml}, its profiles, the defaults of the starter), never the
	 * environment variables nor the system properties of the machine that builds it, so
	 * that {@code OPERATOR_NAMESPACE} or {@code SPRING_PROFILES_ACTIVE} exported in a
	 * developer's shell neither fails the comparison with {@code deploy/} nor ends up in
	 * it. Nothing talks to a cluster: the manager is built with a client it never uses. A
	 * servlet application is built on a mock servlet context, so no server starts.
	 * @param application the {@code @SpringBootApplication} class
	 * @return the model
	 * @throws IllegalStateException naming the property or bean at fault
	 */
	public static DeployModel of(Class<?> application) {
		SpringApplication spring = new SpringApplication(application);
		boolean servlet = spring.getWebApplicationType() == WebApplicationType.SERVLET;
		if (!servlet) {
			logger.warn(
					"Generating the manifests of a {} application: the web server's ports and probes are read "
							+ "from servlet applications only, so the Deployment gets neither: application={}",
					spring.getWebApplicationType(), application.getName());
		}
		ConfigurableEnvironment environment = servlet ? Servlet.environment() : new StandardEnvironment();
		MutablePropertySources sources = environment.getPropertySources();
		sources.remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
		sources.remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
		sources.addFirst(new MapPropertySource("operatorDeployGeneration", GENERATION));
		spring.setEnvironment(environment);
		spring.setRegisterShutdownHook(false);
		spring.setApplicationContextFactory(
				(type) -> servlet ? Servlet.context() : new AnnotationConfigApplicationContext());
		spring.addInitializers((context) -> ((GenericApplicationContext) context).registerBean(
				"operatorDeployGenerationConnectionDetails", KubernetesConnectionDetails.class,
				() -> KubernetesConnectionDetails.ofKubeconfig(KUBECONFIG)));
		try (ConfigurableApplicationContext context = spring.run()) {
			return of(context);
		}
	}

	/**
	 * Reads the model of the operator an application context runs. The context is read as
	 * it is, its environment included: {@link #of(Class)} builds one for generation.
	 * @param context the context, built but not started
	 * ({@code operator.auto-startup=false})
	 * @return the model
	 * @throws IllegalStateException naming the property or bean at fault
	 */
	public static DeployModel of(ApplicationContext context) {
		Environment environment = context.getEnvironment();
		String name = environment.getProperty("spring.application.name");
		if (name == null || name.isBlank()) {
			throw new IllegalStateException("spring.application.name is not set: the manifests are named after it");
		}
		Class<?> application = application(context);
		DeployModel.Builder model = DeployModel.builder(name.strip()).source(application.getName());
		web(context, environment, model);
		Set<String> used = new TreeSet<>();
		webhooks(context, model, used);
		OperatorMetricsAuthProperties metricsAuth = context.getBeanProvider(OperatorMetricsAuthProperties.class)
			.getIfAvailable();
		model.metricsAuth(metricsAuth != null && metricsAuth.isEnabled());
		OperatorProperties operator = context.getBean(OperatorProperties.class);
		OperatorLeaderElectionProperties election = context.getBean(OperatorLeaderElectionProperties.class);
		if (operator.getNamespaces() != null && !operator.getNamespaces().isEmpty()) {
			model.watchNamespaces(operator.getNamespaces());
		}
		else {
			model.watchNamespace(operator.getNamespace());
		}
		model.gracefulShutdownTimeout(operator.getGracefulShutdownTimeout())
			.leaderElection(election.isEnabled(), election.getLeaseName(), election.getNamespace())
			.permissions(context.getBean(Manager.class).requiredPermissions());
		Fleet fleet = context.getBeanProvider(Fleet.class).getIfAvailable();
		if (fleet != null) {
			model.memberPermissions(fleet.memberPermissions());
		}
		for (Informer<?> informer : context.getBean(Manager.class).informers()) {
			addCustomKind(used, informer.key().type());
		}
		model.customKinds(used);
		for (String crd : generated(context, application, CRDS, used)) {
			model.crd(crd);
		}
		for (String policy : generated(context, application, POLICIES, used)) {
			model.policy(policy);
		}
		return model.build();
	}

	private static Class<?> application(ApplicationContext context) {
		List<Class<?>> applications = new ArrayList<>();
		for (Object bean : context.getBeansWithAnnotation(SpringBootConfiguration.class).values()) {
			applications.add(ClassUtils.getUserClass(bean));
		}
		if (applications.size() != 1) {
			throw new IllegalStateException(
					"Expected the context of one @SpringBootApplication, found " + applications);
		}
		return applications.get(0);
	}

	private static void web(ApplicationContext context, Environment environment, DeployModel.Builder model) {
		if (!isServletWebApplication(context)) {
			return;
		}
		int port = environment.getProperty("server.port", Integer.class, 8080);
		model.applicationPort(port);
		Integer management = environment.getProperty("management.server.port", Integer.class);
		boolean ownManagementPort = management != null && management > 0 && management != port;
		if (ownManagementPort) {
			model.managementPort(management);
		}
		String contextPath = environment.getProperty("server.servlet.context-path", "");
		String managementPrefix = ownManagementPort ? environment.getProperty("management.server.base-path", "")
				: contextPath;
		boolean actuator = ClassUtils.isPresent("org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints",
				context.getClassLoader()) && (management == null || management >= 0);
		if (context.containsBean("operatorHealthzServlet")) {
			model.probes(contextPath + "/healthz", contextPath + "/readyz", false);
		}
		else if (actuator && Actuator.path(context, "health") != null) {
			String health = managementPrefix + Actuator.path(context, "health");
			model.probes(health + "/liveness", health + "/readiness", ownManagementPort);
		}
		String prometheus = actuator ? Actuator.path(context, "prometheus") : null;
		if (prometheus != null) {
			model.metricsPath(managementPrefix + prometheus);
		}
	}

	private static boolean isServletWebApplication(ApplicationContext context) {
		return ClassUtils.isPresent("org.springframework.web.context.WebApplicationContext", context.getClassLoader())
				&& context instanceof org.springframework.web.context.WebApplicationContext;
	}

	/**
	 * Adds the CRD name of a custom resource's model class ({@code @KubernetesKind}).
	 */
	private static void addCustomKind(Set<String> used, Class<?> type) {
		if (type.isAnnotationPresent(KubernetesKind.class)) {
			@SuppressWarnings("unchecked")
			KindNames.Name names = DeclaredNames.INSTANCE.resolve((Class<? extends KubernetesObject>) type);
			used.add(names.plural() + "." + names.group());
		}
	}

	@SuppressWarnings("unchecked")
	private static void webhooks(ApplicationContext context, DeployModel.Builder model, Set<String> used) {
		if (!(context instanceof ConfigurableApplicationContext configurable)) {
			throw new IllegalStateException("The context cannot list its bean definitions: " + context);
		}
		var beanFactory = configurable.getBeanFactory();
		Map<Class<?>, String> validators = byKind(beanFactory, AdmissionValidator.class);
		Map<Class<?>, String> defaulters = byKind(beanFactory, Defaulter.class);
		String[] conversions = beanFactory.getBeanNamesForType(Conversion.class, true, false);
		validators.keySet().forEach((kind) -> addCustomKind(used, kind));
		defaulters.keySet().forEach((kind) -> addCustomKind(used, kind));
		if (validators.isEmpty() && defaulters.isEmpty() && conversions.length == 0) {
			return;
		}
		OperatorWebhookProperties properties = context.getBean(OperatorWebhookProperties.class);
		model.webhookServer(properties.getPort(), properties.getCertDir())
			.webhookCertFiles(properties.getCertName(), properties.getKeyName());
		List<WebhookRegistration> webhooks = new ArrayList<>();
		validators.forEach(
				(kind, bean) -> webhooks.add(WebhookRegistration.validating((Class<? extends KubernetesObject>) kind,
						ClassUtils.getUserClass(beanFactory.getType(bean)), declaration(context, bean))));
		defaulters.forEach((kind, bean) -> webhooks
			.add(WebhookRegistration.mutating((Class<? extends KubernetesObject>) kind, declaration(context, bean))));
		long handlerTimeout = properties.getHandlerTimeout().toMillis();
		for (WebhookRegistration webhook : webhooks) {
			if (webhook.timeoutSeconds() * 1000L <= handlerTimeout) {
				throw new IllegalStateException("Webhook " + webhook.name() + " waits " + webhook.timeoutSeconds()
						+ "s (@Webhook timeoutSeconds), not above operator.webhook.handler-timeout ("
						+ ((handlerTimeout % 1000 == 0) ? handlerTimeout / 1000 + "s" : handlerTimeout + "ms")
						+ "): the API server would give up, and "
						+ "apply the failure policy, before the operator answers; raise timeoutSeconds or lower the "
						+ "handler timeout");
			}
		}
		Map<String, List<String>> byResource = new LinkedHashMap<>();
		for (WebhookRegistration webhook : webhooks) {
			byResource.computeIfAbsent(webhook.name(), (name) -> new ArrayList<>()).add(webhook.version());
		}
		byResource.forEach((name, versions) -> {
			if (versions.size() > 1) {
				throw new IllegalStateException("Webhook " + name + " is served for the versions " + versions
						+ " of one kind: keep one " + (name.startsWith("v") ? "validator" : "defaulter")
						+ " per kind, of one version (the API server converts the others to it, matchPolicy "
						+ "Equivalent)");
			}
		});
		webhooks.stream().sorted(Comparator.comparing(WebhookRegistration::name)).forEach(model::webhook);
		for (String conversion : conversions) {
			Conversion<?> bean = context.getBean(conversion, Conversion.class);
			addCustomKind(used, bean.hubType());
			model.conversion(bean);
		}
	}

	/**
	 * The beans of a webhook type by the kind of their type argument, as the starter
	 * resolves them when it registers them (which refuses two of a kind, or one that does
	 * not say its kind, before this runs).
	 */
	private static Map<Class<?>, String> byKind(ConfigurableListableBeanFactory beanFactory, Class<?> type) {
		Map<Class<?>, String> byKind = new LinkedHashMap<>();
		for (String name : beanFactory.getBeanNamesForType(type, true, false)) {
			ResolvableType declared = beanFactory.getMergedBeanDefinition(name).getResolvableType();
			Class<?> kind = declared.as(type).getGeneric(0).resolve();
			if (kind == null || kind == KubernetesObject.class) {
				Class<?> actual = beanFactory.getType(name);
				kind = (actual != null) ? ResolvableType.forClass(actual).as(type).getGeneric(0).resolve() : null;
			}
			if (kind == null || kind == KubernetesObject.class) {
				throw new IllegalStateException(type.getSimpleName() + " bean '" + name + "' does not say its kind");
			}
			byKind.put(kind, name);
		}
		return byKind;
	}

	private static @Nullable Webhook declaration(ApplicationContext context, String bean) {
		return context.findAnnotationOnBean(bean, Webhook.class);
	}

	/**
	 * The files {@code operator-crd-generator} wrote, by name: those of the application's
	 * own classes, and those of the kinds the operator uses wherever they are on the
	 * class path (the model classes of a multi-module project live in a jar of their
	 * own). A dependency's files of other kinds stay out.
	 */
	private static List<String> generated(ApplicationContext context, Class<?> application, String directory,
			Set<String> used) {
		CodeSource source = application.getProtectionDomain().getCodeSource();
		String location = (source != null) ? source.getLocation().toString() : "";
		try {
			Resource[] resources = new PathMatchingResourcePatternResolver(context.getClassLoader())
				.getResources("classpath*:" + directory + "*.yaml");
			Map<String, Resource> byName = new TreeMap<>();
			for (Resource resource : resources) {
				String url = resource.getURL().toString();
				boolean own = url.startsWith(location) || url.startsWith("jar:" + location);
				String name = String.valueOf(resource.getFilename()).replaceFirst("\\.yaml$", "");
				if (own || used.contains(name)) {
					// the application's own first, as the class path orders them
					byName.putIfAbsent(name, resource);
				}
			}
			List<String> files = new ArrayList<>();
			for (Resource resource : byName.values()) {
				files.add(resource.getContentAsString(StandardCharsets.UTF_8));
			}
			return files;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read " + directory + " of " + location, ex);
		}
	}

	/**
	 * A servlet application's environment and context, apart so that the class loads
	 * without the servlet API.
	 */
	private static final class Servlet {

		static ConfigurableEnvironment environment() {
			return new StandardServletEnvironment();
		}

		static ConfigurableApplicationContext context() {
			return new GenericWebApplicationContext(new MockServletContext());
		}

	}

	/**
	 * Actuator's web endpoints, apart so that the class loads without Actuator.
	 */
	private static final class Actuator {

		static @Nullable String path(ApplicationContext context, String endpoint) {
			PathMappedEndpoints endpoints = context.getBeanProvider(PathMappedEndpoints.class).getIfAvailable();
			return (endpoints != null) ? endpoints.getPath(EndpointId.of(endpoint)) : null;
		}

	}

}
