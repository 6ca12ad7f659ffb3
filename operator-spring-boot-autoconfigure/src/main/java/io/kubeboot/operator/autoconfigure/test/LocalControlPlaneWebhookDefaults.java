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
 * command line sets wins. None is added when {@code operator.webhook.self-signed} is
 * {@code false}, or {@code operator.webhook.cert-dir} is set without it, for then the
 * application asked for its certificate files. {@code self-signed=true} in
 * {@code application.yaml} (for a run on the developer's machine) keeps them: its
 * contexts still need a free port.
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
	 * {@code operator.webhook.self-signed} to anything but {@code true}, or
	 * {@code operator.webhook.cert-dir} without {@code self-signed}, or has them already.
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
		// the value beyond "true": the binding of the properties does that
		String selfSigned = binder.bind("operator.webhook.self-signed", String.class).orElse(null);
		if (selfSigned != null && !"true".equalsIgnoreCase(selfSigned.trim())) {
			logger.debug("Webhook defaults of a local control plane not applied: operator.webhook.self-signed is {}",
					selfSigned);
			return false;
		}
		if (selfSigned == null && binder.bind("operator.webhook.cert-dir", String.class).isBound()) {
			logger.debug("Webhook defaults of a local control plane not applied: operator.webhook.cert-dir is set");
			return false;
		}
		sources.addLast(new MapPropertySource(NAME, DEFAULTS));
		logger.debug("Webhook defaults of a local control plane applied: {}", DEFAULTS);
		return true;
	}

}
