package io.kubeboot.operator.autoconfigure;

import org.jspecify.annotations.Nullable;

/**
 * Thrown at start-up when a {@code @Reconciles}, {@code @Watches},
 * {@code @PeriodicTrigger} or {@code CacheTransform} bean cannot be turned into what it
 * asks for. The message names the bean and the mistake.
 */
public class InvalidOperatorBeanException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	InvalidOperatorBeanException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
