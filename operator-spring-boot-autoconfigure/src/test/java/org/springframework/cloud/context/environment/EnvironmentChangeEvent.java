package org.springframework.cloud.context.environment;

import java.util.Set;

import org.springframework.context.ApplicationEvent;

/**
 * A stand-in for Spring Cloud Context's event of the same name, which this build does not
 * depend on: the same name and shape, so that the tests publish what Spring Cloud's
 * {@code ContextRefresher} publishes once it changed the environment, and the
 * auto-configuration finds the class it is conditional on. Delete it if
 * {@code spring-cloud-context} becomes a test dependency.
 */
public class EnvironmentChangeEvent extends ApplicationEvent {

	private static final long serialVersionUID = 1L;

	private final Set<String> keys;

	public EnvironmentChangeEvent(Object context, Set<String> keys) {
		super(context);
		this.keys = keys;
	}

	public Set<String> getKeys() {
		return this.keys;
	}

}
