package io.kubeboot.operator.client;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Writes the status subresource of objects, the counterpart of controller-runtime's
 * {@code client.Status()}. Writes to the status never change the spec and the other way
 * round, so a reconciler's status write cannot overwrite a user's concurrent spec change.
 * Every method blocks until the API server answered (bounded by the client's timeout) and
 * returns the object as stored, with its new resource version.
 */
public interface StatusWriter {

	/**
	 * Replaces the status, failing if the object changed since it was read (optimistic
	 * lock on {@code metadata.resourceVersion}).
	 * @param <T> the model type
	 * @param object the object with the new status
	 * @return the stored object
	 * @throws ApiServerException.ConflictException if the object changed meanwhile
	 * @throws ApiServerException.NotFoundException if it was deleted
	 */
	<T extends KubernetesObject> T update(T object);

	/**
	 * Patches the status.
	 * @param <T> the model type
	 * @param object the object (its kind, namespace and name are used)
	 * @param patch the patch of the status, such as
	 * {@code Patch.mergeFrom(original, changed)}
	 * @return the stored object
	 * @throws ApiServerException.NotFoundException if the object does not exist
	 */
	<T extends KubernetesObject> T patch(T object, Patch patch);

	/**
	 * Applies the status with server-side apply under the client's field manager: the
	 * status fields given are owned by this manager afterwards, ones it owned before and
	 * left out are removed.
	 * @param <T> the model type
	 * @param object the object with only the status fields this operator owns
	 * @param options {@link Client.ApplyOption#FORCE} to take over fields another manager
	 * owns
	 * @return the stored object
	 * @throws ApiServerException.ConflictException if another manager owns a field and
	 * the apply was not forced
	 */
	<T extends KubernetesObject> T apply(T object, Client.ApplyOption... options);

}
