package io.kubeboot.operator.autoconfigure;

/**
 * Thrown at start-up when a {@code @Reconciler}, {@code @Watches} or
 * {@code @PeriodicTrigger} bean cannot be turned into what it asks for. The message names
 * the bean and the mistake.
 */
public class InvalidOperatorBeanException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	InvalidOperatorBeanException(String message, Throwable cause) {
		super(message, cause);
	}

}
