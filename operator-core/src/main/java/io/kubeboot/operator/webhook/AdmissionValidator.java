package io.kubeboot.operator.webhook;

import java.util.List;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Validates the objects of a kind before the API server stores them (validating
 * admission), the counterpart of controller-runtime's {@code admission.Validator}. Each
 * method returns warnings, which {@code kubectl} prints, and refuses the operation by
 * throwing: {@link AdmissionDeniedException} (or any exception) becomes a denial carrying
 * its message, which {@code kubectl apply} shows as
 * {@code admission webhook "..." denied the request: <message>}. Every method allows by
 * default.
 * <p>
 * Validators run on the webhook server's threads with a deadline, must be thread-safe and
 * should not call the API server: the API server waits for the answer.
 *
 * @param <T> the model type of the kind
 */
public interface AdmissionValidator<T extends KubernetesObject> {

	/**
	 * Validates an object about to be created.
	 * @param object the object
	 * @return warnings for the user, empty for none
	 * @throws Exception to refuse the creation
	 */
	default List<String> validateCreate(T object) throws Exception {
		return List.of();
	}

	/**
	 * Validates a change of an object.
	 * @param oldObject the object as stored
	 * @param object the object as it would be stored
	 * @return warnings for the user, empty for none
	 * @throws Exception to refuse the change
	 */
	default List<String> validateUpdate(T oldObject, T object) throws Exception {
		return List.of();
	}

	/**
	 * Validates the deletion of an object (the webhook configuration must list the
	 * {@code DELETE} operation for it to be called).
	 * @param object the object as stored
	 * @return warnings for the user, empty for none
	 * @throws Exception to refuse the deletion
	 */
	default List<String> validateDelete(T object) throws Exception {
		return List.of();
	}

}
