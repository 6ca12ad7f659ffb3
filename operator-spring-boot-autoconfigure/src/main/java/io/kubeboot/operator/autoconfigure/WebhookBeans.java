package io.kubeboot.operator.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.metrics.WebhookMetrics;
import io.kubeboot.operator.webhook.AdmissionValidator;
import io.kubeboot.operator.webhook.AdmissionWebhook;
import io.kubeboot.operator.webhook.CertificateMetrics;
import io.kubeboot.operator.webhook.Conversion;
import io.kubeboot.operator.webhook.ConversionWebhook;
import io.kubeboot.operator.webhook.Defaulter;
import io.kubeboot.operator.webhook.ServingCertificate;
import io.kubeboot.operator.webhook.WebhookServer;
import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Turns the application's {@link AdmissionValidator} and {@link Defaulter} beans into
 * admission webhooks of the manager's {@link WebhookServer}: the kind of each comes from
 * its type argument ({@code AdmissionValidator<StorageBucket>}), one validator and one
 * defaulter per kind. Its {@link Conversion} beans become the conversion webhook, one per
 * kind.
 */
final class WebhookBeans {

	private static final Logger logger = LoggerFactory.getLogger(WebhookBeans.class);

	/**
	 * The property below {@code operator.webhook} of each setting of
	 * {@link ServingCertificate} that is not named alike.
	 */
	private static final Map<String, String> CERTIFICATE_PROPERTIES = Map.of("checkInterval", "cert-check-interval",
			"hosts", "self-signed-hosts");

	private WebhookBeans() {
	}

	/**
	 * Creates the serving certificate the properties describe.
	 * @param properties the {@code operator.webhook.*} properties
	 * @param metrics the certificate watcher's metrics
	 * @param environment the environment, for where the properties were set
	 * @return the certificate
	 * @throws InvalidOperatorPropertyException naming the property if the certificate
	 * refuses its hosts or check interval
	 * @throws IllegalStateException naming the property if the files cannot be used
	 */
	static ServingCertificate certificate(OperatorWebhookProperties properties, CertificateMetrics metrics,
			Environment environment) {
		try {
			return certificate(properties, metrics);
		}
		catch (InvalidConfigException ex) {
			// the certificate checks its hosts and check interval when it is made: only
			// an application with webhooks has one
			PropertyProblems problems = new PropertyProblems(ConfigurationPropertySources.get(environment));
			problems.add("operator.webhook", CERTIFICATE_PROPERTIES, ex);
			throw problems.exception(OperatorPropertiesFailureAnalyzer.ACTION);
		}
	}

	private static ServingCertificate certificate(OperatorWebhookProperties properties, CertificateMetrics metrics) {
		if (properties.isSelfSigned()) {
			ServingCertificate certificate = ServingCertificate.selfSigned(properties.getSelfSignedHosts());
			logger.info(
					"Webhook server uses a self-signed certificate (operator.webhook.self-signed=true): hosts={} "
							+ "caBundle={}",
					properties.getSelfSignedHosts(), Base64.getEncoder()
						.encodeToString(certificate.caBundlePem().orElse("").getBytes(StandardCharsets.US_ASCII)));
			return certificate;
		}
		Path directory = Path.of(properties.getCertDir());
		if (TrainingRun.isActive() && !Files.isRegularFile(directory.resolve(properties.getCertName()))) {
			// nothing is served: the run halts before the webhook server starts
			logger.info(
					"Training run (spring.context.exit=onRefresh): the webhook certificate files are not "
							+ "mounted, a self-signed certificate stands in for them: operator.webhook.cert-dir={}",
					directory);
			return ServingCertificate.selfSigned(List.of("localhost"));
		}
		try {
			return ServingCertificate.fromFiles(directory.resolve(properties.getCertName()),
					directory.resolve(properties.getKeyName()), properties.getCertCheckInterval(), metrics);
		}
		catch (InvalidConfigException ex) {
			// named as the property it came from by the caller
			throw ex;
		}
		catch (IllegalArgumentException ex) {
			throw new WebhookCertificateException("operator.webhook.cert-dir (" + directory + "): " + ex.getMessage()
					+ ". Set operator.webhook.self-signed=true to run locally without a certificate.", ex);
		}
	}

	/**
	 * Creates the webhook server the properties describe.
	 * @param certificate the certificate it serves
	 * @param properties the {@code operator.webhook.*} properties
	 * @param metrics the server's metrics
	 * @return the server, not started
	 */
	static WebhookServer server(ServingCertificate certificate, OperatorWebhookProperties properties,
			WebhookMetrics metrics) {
		return WebhookServer.builder(certificate)
			.bindAddress(properties.getBindAddress())
			.port(properties.getPort())
			.handlerTimeout(properties.getHandlerTimeout())
			.metrics(metrics)
			.build();
	}

	/**
	 * Registers every validator, defaulter and conversion bean on the server.
	 * @param beanFactory the bean factory
	 * @param server the server
	 * @throws InvalidOperatorBeanException naming the beans if a kind has two validators,
	 * two defaulters or two conversions, or a bean does not say its kind
	 */
	@SuppressWarnings({ "unchecked", "rawtypes" })
	static void registerAll(ConfigurableListableBeanFactory beanFactory, WebhookServer server) {
		Map<Class<?>, String> validators = byKind(beanFactory, AdmissionValidator.class, "validate", "validator");
		Map<Class<?>, String> defaulters = byKind(beanFactory, Defaulter.class, "default", "defaulter");
		Map<Class<?>, Boolean> kinds = new LinkedHashMap<>();
		validators.keySet().forEach((kind) -> kinds.put(kind, true));
		defaulters.keySet().forEach((kind) -> kinds.put(kind, true));
		for (Class<?> kind : kinds.keySet()) {
			AdmissionWebhook webhook = AdmissionWebhook.forKind(server, (Class<KubernetesObject>) kind);
			if (validators.containsKey(kind)) {
				webhook.withValidator(beanFactory.getBean(validators.get(kind), AdmissionValidator.class));
			}
			if (defaulters.containsKey(kind)) {
				webhook.withDefaulter(beanFactory.getBean(defaulters.get(kind), Defaulter.class));
			}
			AdmissionWebhook.Paths paths = webhook.complete();
			logger.info("Admission webhooks registered: kind={} validating={} mutating={}", kind.getSimpleName(),
					paths.validating(), paths.mutating());
		}
		for (String name : beanFactory.getBeanNamesForType(Conversion.class, true, false)) {
			Conversion<?> conversion = beanFactory.getBean(name, Conversion.class);
			try {
				String path = ConversionWebhook.register(server, conversion);
				logger.info("Conversion webhook registered: path={} conversion={}", path, conversion);
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidOperatorBeanException("Conversion bean '" + name + "': " + ex.getMessage(), ex);
			}
		}
	}

	private static Map<Class<?>, String> byKind(ConfigurableListableBeanFactory beanFactory, Class<?> type, String verb,
			String noun) {
		Map<Class<?>, String> byKind = new LinkedHashMap<>();
		for (String name : beanFactory.getBeanNamesForType(type, true, false)) {
			Class<?> kind = kind(beanFactory, name, type);
			if (kind == null) {
				throw new InvalidOperatorBeanException(type.getSimpleName() + " bean '" + name
						+ "' does not say which kind it is for: implement " + type.getSimpleName()
						+ "<YourKind> in a class, or declare the @Bean method's return type as " + type.getSimpleName()
						+ "<YourKind>", null);
			}
			String other = byKind.putIfAbsent(kind, name);
			if (other != null) {
				throw new InvalidOperatorBeanException(
						type.getSimpleName() + " beans '" + other + "' and '" + name + "' both " + verb + " "
								+ kind.getSimpleName() + ": a kind has one " + noun + "; combine them into one",
						null);
			}
		}
		return byKind;
	}

	private static @Nullable Class<?> kind(ConfigurableListableBeanFactory beanFactory, String name, Class<?> type) {
		ResolvableType declared = beanFactory.getMergedBeanDefinition(name).getResolvableType();
		Class<?> kind = declared.as(type).getGeneric(0).resolve();
		if (kind == null || kind == KubernetesObject.class) {
			Class<?> actual = beanFactory.getType(name);
			kind = (actual != null) ? ResolvableType.forClass(actual).as(type).getGeneric(0).resolve() : null;
		}
		return (kind == null || kind == KubernetesObject.class) ? null : kind;
	}

	/**
	 * Matches when the application has a {@link AdmissionValidator}, {@link Defaulter} or
	 * {@link Conversion} bean.
	 */
	static final class OnWebhookBeans implements Condition {

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
			return beanFactory != null
					&& (beanFactory.getBeanNamesForType(AdmissionValidator.class, true, false).length > 0
							|| beanFactory.getBeanNamesForType(Defaulter.class, true, false).length > 0
							|| beanFactory.getBeanNamesForType(Conversion.class, true, false).length > 0);
		}

	}

}
