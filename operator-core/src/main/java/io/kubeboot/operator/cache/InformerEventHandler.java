package io.kubeboot.operator.cache;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;

/**
 * An event handler that also learns whether an add comes from an informer's initial list,
 * client-go's {@code OnAdd(obj, isInInitialList)}: the objects of the informer's first
 * list, and the cached objects an informer replays to a handler added after it started
 * (the watchdog's fresh informer included). Such adds tell of objects that already
 * existed, not of a change; controllers queue them at a low priority. Adds of a later
 * relist, after a watch failed, are changes the watch missed and are not initial.
 * <p>
 * An {@link Informer} calls {@link #onAdd(Object, boolean)}; code that knows nothing of
 * initial lists calls {@link #onAdd(KubernetesObject)}, which passes {@code false}. The
 * informer tells the initial adds apart by counting: in the rare case that an object of
 * the first list is deleted and created again before its add reached the handler, the new
 * add may count as initial and the list's last one as not.
 *
 * @param <T> the model type
 */
public interface InformerEventHandler<T extends KubernetesObject> extends ResourceEventHandler<T> {

	/**
	 * Called when an object is added to the informer's store.
	 * @param object the object
	 * @param inInitialList whether the add comes from an initial list rather than from a
	 * change
	 */
	void onAdd(T object, boolean inInitialList);

	/**
	 * Called with an add not known to come from an initial list.
	 * @param object the object
	 */
	@Override
	default void onAdd(T object) {
		onAdd(object, false);
	}

}
