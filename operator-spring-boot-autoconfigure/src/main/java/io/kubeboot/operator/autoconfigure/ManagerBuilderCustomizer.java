package io.kubeboot.operator.autoconfigure;

import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerBuilder;

/**
 * Customizes the auto-configured {@link Manager} before it is built, for settings that
 * have no property (metrics, a rate limiter of your own). Customizer beans are applied in
 * their {@code @Order}, after the properties.
 */
@FunctionalInterface
public interface ManagerBuilderCustomizer {

	/**
	 * Customizes the builder.
	 * @param builder the builder
	 */
	void customize(ManagerBuilder builder);

}
