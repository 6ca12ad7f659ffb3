package io.kubeboot.operator.autoconfigure;

import java.util.List;

import io.kubeboot.operator.cache.WatchedNamespaces;
import io.kubeboot.operator.config.InvalidConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.event.GenericApplicationListener;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;

/**
 * Applies {@code operator.namespace} and {@code operator.namespaces} to the running
 * manager when Spring Cloud refreshes the environment: its {@code EnvironmentChangeEvent},
 * which {@code /actuator/refresh}, a {@code ContextRefresher} and Spring Cloud Bus publish
 * once the environment holds the new values. The event is told by its class name, so
 * this starter compiles and runs without Spring Cloud; the auto-configuration registers
 * this listener only when Spring Cloud Context is on the class path.
 * <p>
 * The properties are bound again from the environment (whichever keys changed: setting
 * the same namespaces changes nothing) and checked by the rules that start-up applies. A
 * value those reject, or a change between all namespaces and a set (fixed while the
 * manager runs), is logged as an ERROR naming the property, and the manager keeps the
 * namespaces it has: a refresh never stops an operator.
 */
final class NamespacesRefresh implements GenericApplicationListener {

	/** The event Spring Cloud Context publishes after it changed the environment. */
	static final String ENVIRONMENT_CHANGE_EVENT = "org.springframework.cloud.context.environment.EnvironmentChangeEvent";

	private static final Logger logger = LoggerFactory.getLogger(NamespacesRefresh.class);

	private final WatchedNamespaces namespaces;

	private final Environment environment;

	private final String eventType;

	/**
	 * Creates the listener.
	 * @param namespaces the manager's namespaces
	 * @param environment the environment the properties are bound from
	 * @param eventType the name of the event class that tells of a refresh
	 */
	NamespacesRefresh(WatchedNamespaces namespaces, Environment environment, String eventType) {
		this.namespaces = namespaces;
		this.environment = environment;
		this.eventType = eventType;
	}

	@Override
	public boolean supportsEventType(ResolvableType eventType) {
		for (Class<?> type = eventType.resolve(); type != null; type = type.getSuperclass()) {
			if (type.getName().equals(this.eventType)) {
				return true;
			}
		}
		return false;
	}

	@Override
	public void onApplicationEvent(ApplicationEvent event) {
		apply();
	}

	/**
	 * Binds the properties again and applies them.
	 * @return {@code true} if the manager watches what they name now
	 */
	boolean apply() {
		Binder binder = Binder.get(this.environment);
		String namespace = binder.bind("operator.namespace", String.class).orElse(null);
		List<String> listed = binder.bind("operator.namespaces", Bindable.listOf(String.class)).orElse(List.of());
		PropertyProblems problems = new PropertyProblems(ConfigurationPropertySources.get(this.environment));
		NamespaceSettings.checkNotBoth(problems, namespace, listed);
		List<String> wanted = NamespaceSettings.from(namespace, listed);
		String property = (listed.isEmpty() && namespace != null) ? "operator.namespace" : "operator.namespaces";
		if (this.namespaces.all() && !wanted.isEmpty()) {
			problems.add(property, String.join(",", wanted), "cannot restrict an operator that watches all "
					+ "namespaces while it runs: restart it with the namespaces to watch");
		}
		else if (!this.namespaces.all() && wanted.isEmpty()) {
			problems.add("operator.namespaces", null, "cannot be emptied while the operator runs: empty watches "
					+ "all namespaces, which an operator that watches a set cannot start doing without a restart");
		}
		try {
			problems.throwIfAny(OperatorPropertiesFailureAnalyzer.ACTION);
			this.namespaces.set(wanted);
			return true;
		}
		catch (InvalidConfigException ex) {
			problems.add("operator", NamespaceSettings.properties(namespace, listed), ex);
			log(problems);
		}
		catch (InvalidOperatorPropertyException ex) {
			logger.error("Watched namespaces not changed by the refreshed properties, the operator keeps {}: {}",
					this.namespaces.current(), ex.getMessage());
		}
		catch (IllegalStateException ex) {
			logger.error("Watched namespaces not changed by the refreshed properties: {}", ex.getMessage());
		}
		return false;
	}

	private void log(PropertyProblems problems) {
		logger.error("Watched namespaces not changed by the refreshed properties, the operator keeps {}: {}",
				this.namespaces.current(), problems.exception(OperatorPropertiesFailureAnalyzer.ACTION).getMessage());
	}

}
