package io.kubeboot.operator.webhook;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Sets defaults on the objects of a kind before the API server stores them (mutating
 * admission), the counterpart of controller-runtime's {@code admission.Defaulter}: it
 * changes the object it is given, and the framework answers the API server with the JSON
 * patch of those changes. Throwing refuses the operation with the exception's message.
 * <p>
 * Defaulters run on the webhook server's threads with a deadline, must be thread-safe and
 * should be idempotent: the API server may call them again.
 *
 * @param <T> the model type of the kind
 */
@FunctionalInterface
public interface Defaulter<T extends KubernetesObject> {

	/**
	 * Sets the defaults of an object being created or updated.
	 * @param object the object, to change in place
	 * @throws Exception to refuse the operation
	 */
	void applyDefaults(T object) throws Exception;

}
