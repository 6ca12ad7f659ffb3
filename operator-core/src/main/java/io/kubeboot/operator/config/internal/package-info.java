/**
 * Internal: the checks the configuration records share. Not an API: it may change in any
 * release; catch {@link io.kubeboot.operator.config.InvalidConfigException}.
 */
@NullMarked
package io.kubeboot.operator.config.internal;

import org.jspecify.annotations.NullMarked;
