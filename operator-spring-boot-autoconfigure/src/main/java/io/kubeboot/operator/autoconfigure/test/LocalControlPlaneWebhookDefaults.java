package io.kubeboot.operator.autoconfigure.test;

import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;

/**
 * Serves webhooks with a self-signed certificate on a free port of 127.0.0.1 when an
 * application runs against a local control plane: a {@code @SpringBootTest} annotated
 * with {@code @WithControlPlane}, or {@link LocalControlPlaneConfiguration}. Without it
 * the first validator, defaulter or conversion bean of a project fails every test context
 * of the project, for want of the certificate files that cert-manager mounts in a
 * cluster, or for port 9443 that two cached contexts cannot share.
 * <p>
 * The defaults are a property source of the lowest precedence, added after the
 * configuration classes are read (so that their {@code @PropertySource}s count too) and
 * before any property is bound: every property a test, {@code application.yaml} or the
 * command line sets wins. None is added when {@code operator.webhook.self-signed} or
 * {@code operator.webhook.cert-dir} is set, for then the application asked for its
 * certificate.
 */
final class LocalControlPlaneWebhookDefaults implements BeanFactoryPostProcessor {

	/** The name of the property source. */
	static final String NAME = "operatorLocalControlPlaneWebhookDefaults";

	private static final Map<String, Object> DEFAULTS = Map.of("operator.webhook.self-signed", "true",
			"operator.webhook.port", "0", "operator.webhook.bind-address", "127.0.0.1");

	private static final Logger logger = LoggerFactory.getLogger(LocalControlPlaneWebhookDefaults.class);

	private final ConfigurableEnvironment environment;

	LocalControlPlaneWebhookDefaults(ConfigurableEnvironment environment) {
		this.environment = environment;
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		add(this.environment);
	}

	/**
	 * Adds the defaults to an environment, unless it sets
	 * {@code operator.webhook.self-signed} or {@code operator.webhook.cert-dir} or has
	 * them already.
	 * @param environment the environment
	 * @return whether they were added
	 */
	static boolean add(ConfigurableEnvironment environment) {
		MutablePropertySources sources = environment.getPropertySources();
		if (sources.contains(NAME)) {
			return false;
		}
		Binder binder = Binder.get(environment);
		// bound as text, in any relaxed form (OPERATOR_WEBHOOK_CERTDIR), without judging
		// the value: the binding of the properties does that
		for (String chosen : new String[] { "operator.webhook.self-signed", "operator.webhook.cert-dir" }) {
			if (binder.bind(chosen, String.class).isBound()) {
				logger.debug("Webhook defaults of a local control plane not applied: {} is set", chosen);
				return false;
			}
		}
		sources.addLast(new MapPropertySource(NAME, DEFAULTS));
		logger.debug("Webhook defaults of a local control plane applied: {}", DEFAULTS);
		return true;
	}

}
