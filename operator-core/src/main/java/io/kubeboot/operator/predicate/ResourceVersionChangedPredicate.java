package io.kubeboot.operator.predicate;

import java.util.Objects;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Passes an update when {@code metadata.resourceVersion} changed: drops only the periodic
 * resync, where the object did not change; creations and deletions pass. The counterpart
 * of controller-runtime's {@code ResourceVersionChangedPredicate}.
 */
public final class ResourceVersionChangedPredicate implements EventFilter<KubernetesObject> {

	/** The instance to use; the class is stateless. */
	public static final ResourceVersionChangedPredicate INSTANCE = new ResourceVersionChangedPredicate();

	/**
	 * Creates the predicate; prefer {@link #INSTANCE}.
	 */
	public ResourceVersionChangedPredicate() {
	}

	/**
	 * Passes the update if the resource version changed.
	 */
	@Override
	public boolean update(KubernetesObject oldObject, KubernetesObject newObject) {
		return oldObject.getMetadata() == null || newObject.getMetadata() == null || !Objects
			.equals(oldObject.getMetadata().getResourceVersion(), newObject.getMetadata().getResourceVersion());
	}

	@Override
	public String toString() {
		return "resourceVersionChanged";
	}

}
