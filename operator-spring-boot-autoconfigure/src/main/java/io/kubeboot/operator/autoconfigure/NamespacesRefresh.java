package io.kubeboot.operator.autoconfigure;

import java.util.Collection;
import java.util.List;
import java.util.Locale;

import io.kubeboot.operator.cache.WatchedNamespaces;
import io.kubeboot.operator.config.InvalidConfigException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.event.GenericApplicationListener;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;

/**
 * Applies {@code operator.namespace} and {@code operator.namespaces} to the running
 * manager when Spring Cloud refreshes the environment: its
 * {@code EnvironmentChangeEvent}, which {@code /actuator/refresh}, a
 * {@code ContextRefresher}, Spring Cloud Bus and Spring Cloud Kubernetes' reloads publish
 * once the environment holds the new values. The event is told by its class name and its
 * keys read through its {@code getKeys()}, so this starter compiles and runs without
 * Spring Cloud; the auto-configuration registers this listener only when Spring Cloud
 * Context is on the class path.
 * <p>
 * A refresh acts only when its keys name one of the two properties (indexed forms such as
 * {@code operator.namespaces[1]} and environment variables included), and only when their
 * value differs from the one last applied from them: a refresh of another key, or one
 * that leaves them as they were, never touches the set, so namespaces added or removed
 * through {@link WatchedNamespaces} stay. A refresh that changes them replaces the whole
 * set with what they name. The values are checked by the rules that start-up applies: a
 * value those reject, or a change between all namespaces and a set (fixed while the
 * manager runs), is logged as an ERROR naming the property, and the manager keeps the
 * namespaces it has: a refresh never stops an operator.
 */
final class NamespacesRefresh implements GenericApplicationListener {

	/** The event Spring Cloud Context publishes after it changed the environment. */
	static final String ENVIRONMENT_CHANGE_EVENT = "org.springframework.cloud.context.environment.EnvironmentChangeEvent";

	private static final ConfigurationPropertyName NAMESPACE = ConfigurationPropertyName.of("operator.namespace");

	private static final ConfigurationPropertyName NAMESPACES = ConfigurationPropertyName.of("operator.namespaces");

	private static final Logger logger = LoggerFactory.getLogger(NamespacesRefresh.class);

	private final WatchedNamespaces namespaces;

	private final Environment environment;

	private final String eventType;

	/** What the properties named when last applied: the manager's start first. */
	private List<String> applied;

	/**
	 * Creates the listener.
	 * @param namespaces the manager's namespaces
	 * @param environment the environment the properties are bound from
	 * @param eventType the name of the event class that tells of a refresh
	 * @param applied the namespaces the manager was built with from the properties
	 */
	NamespacesRefresh(WatchedNamespaces namespaces, Environment environment, String eventType, List<String> applied) {
		this.namespaces = namespaces;
		this.environment = environment;
		this.eventType = eventType;
		this.applied = List.copyOf(applied);
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
		Collection<?> keys = keys(event);
		if (keys == null || keys.stream().anyMatch((key) -> namesTheNamespaces(String.valueOf(key)))) {
			apply();
		}
	}

	/**
	 * Returns the keys a refresh changed, as its {@code getKeys()} tells them.
	 * @return the keys, {@code null} if the event does not tell them
	 */
	private static @Nullable Collection<?> keys(ApplicationEvent event) {
		try {
			return (event.getClass().getMethod("getKeys").invoke(event) instanceof Collection<?> keys) ? keys : null;
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			logger.debug("The refresh event does not tell its keys, the namespaces are bound again: event={}",
					event.getClass().getName(), ex);
			return null;
		}
	}

	/**
	 * Whether a changed key is one of the namespace properties, as written in a file
	 * ({@code operator.namespaces[0]}) or as an environment variable
	 * ({@code OPERATOR_NAMESPACES_0}).
	 * @param key the key
	 * @return {@code true} for {@code operator.namespace}, {@code operator.namespaces}
	 * and its entries
	 */
	static boolean namesTheNamespaces(String key) {
		String dotted = ConfigurationPropertyName.isValid(key) ? key : key.toLowerCase(Locale.ROOT).replace('_', '.');
		ConfigurationPropertyName name = ConfigurationPropertyName.ofIfValid(dotted);
		return name != null && (NAMESPACE.equals(name) || NAMESPACES.equals(name) || NAMESPACES.isAncestorOf(name));
	}

	/**
	 * Binds the properties again and applies them if they changed since last applied.
	 * @return {@code true} if the manager watches what they name now (or did not have to
	 * change), {@code false} if it kept its namespaces because of a problem
	 */
	synchronized boolean apply() {
		Binder binder = Binder.get(this.environment);
		String namespace = binder.bind("operator.namespace", String.class).orElse(null);
		List<String> listed = binder.bind("operator.namespaces", Bindable.listOf(String.class)).orElse(List.of());
		PropertyProblems problems = new PropertyProblems(ConfigurationPropertySources.get(this.environment));
		NamespaceSettings.checkNotBoth(problems, namespace, listed);
		List<String> wanted = NamespaceSettings.from(namespace, listed);
		if (problems.isEmpty() && wanted.equals(this.applied)) {
			// unchanged: whatever changed the set since, through the API, stays
			return true;
		}
		String property = (listed.isEmpty() && namespace != null) ? "operator.namespace" : "operator.namespaces";
		if (this.namespaces.watchesAll() && !wanted.isEmpty()) {
			problems.add(property, String.join(",", wanted), "cannot restrict an operator that watches all "
					+ "namespaces while it runs: restart it with the namespaces to watch");
		}
		else if (!this.namespaces.watchesAll() && wanted.isEmpty()) {
			problems.add("operator.namespaces", null, "cannot be emptied while the operator runs: empty watches "
					+ "all namespaces, which an operator that watches a set cannot start doing without a restart");
		}
		try {
			problems.throwIfAny(OperatorPropertiesFailureAnalyzer.ACTION);
			this.namespaces.set(wanted);
			this.applied = wanted;
			logger.info("Watched namespaces replaced by the refreshed properties: namespaces={}",
					this.namespaces.current());
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
