/**
 * Configuration values and their rules: the records that configure the core's parts check
 * every value in their constructors and throw an
 * {@link io.kubeboot.operator.config.InvalidConfigException} that names each setting at
 * fault, so that a caller (the Spring Boot starter, say) can name it its own way.
 */
@NullMarked
package io.kubeboot.operator.config;

import org.jspecify.annotations.NullMarked;
