package io.kubeboot.operator.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.kubernetes.client.apimachinery.GroupVersionKind;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;

/**
 * Sets owner references, the counterpart of controller-runtime's
 * {@code controllerutil.SetControllerReference} and {@code SetOwnerReference}. An owned
 * object is deleted by the garbage collector with its owner, and a controller that
 * {@code owns} its kind reconciles the owner when it changes.
 * <p>
 * The methods change the given object only (call them on a copy you are about to write,
 * never on an object from the cache) and are idempotent: a reference to the same owner
 * (same uid) is replaced, not added twice.
 */
public final class OwnerReferences {

	private OwnerReferences() {
	}

	/**
	 * Makes an owner the controller of an object: an owner reference with
	 * {@code controller: true} and {@code blockOwnerDeletion: true}.
	 * @param <T> the object's type
	 * @param client resolves the owner's API version and kind
	 * @param owner the owner, as read from the API server (it needs its uid)
	 * @param object the object to own
	 * @return the object
	 * @throws IllegalArgumentException if the owner has no uid, if it is namespaced and
	 * the object lives in another namespace or none, or if the object already has another
	 * controller
	 */
	public static <T extends KubernetesObject> T setController(Client client, KubernetesObject owner, T object) {
		V1OwnerReference reference = reference(client, owner, object).controller(true).blockOwnerDeletion(true);
		for (V1OwnerReference existing : references(object)) {
			if (Boolean.TRUE.equals(existing.getController()) && !existing.getUid().equals(reference.getUid())) {
				throw new IllegalArgumentException(describe(object) + " is already controlled by " + existing.getKind()
						+ " " + existing.getName() + " (uid " + existing.getUid() + "): an object has at most one "
						+ "controller; use setOwner for a second owner");
			}
		}
		return put(object, reference);
	}

	/**
	 * Adds an owner of an object that is not its controller.
	 * @param <T> the object's type
	 * @param client resolves the owner's API version and kind
	 * @param owner the owner, as read from the API server
	 * @param object the object to own
	 * @return the object
	 * @throws IllegalArgumentException if the owner has no uid, or if it is namespaced
	 * and the object lives in another namespace or none
	 */
	public static <T extends KubernetesObject> T setOwner(Client client, KubernetesObject owner, T object) {
		return put(object, reference(client, owner, object));
	}

	/**
	 * Whether an object is controlled by an owner.
	 * @param owner the owner
	 * @param object the object
	 * @return {@code true} if the object has a controller reference with the owner's uid
	 */
	public static boolean isControlledBy(KubernetesObject owner, KubernetesObject object) {
		String uid = (owner.getMetadata() != null) ? owner.getMetadata().getUid() : null;
		return uid != null && references(object).stream()
			.anyMatch((reference) -> Boolean.TRUE.equals(reference.getController()) && uid.equals(reference.getUid()));
	}

	private static V1OwnerReference reference(Client client, KubernetesObject owner, KubernetesObject object) {
		V1ObjectMeta ownerMetadata = Objects.requireNonNull(owner.getMetadata(), "owner has no metadata");
		if (ownerMetadata.getUid() == null || ownerMetadata.getName() == null) {
			throw new IllegalArgumentException(
					"the owner " + describe(owner) + " has no uid: use the object as read from the API server");
		}
		if (client.isNamespaced(owner.getClass())) {
			String objectNamespace = (object.getMetadata() != null) ? object.getMetadata().getNamespace() : null;
			if (!Objects.equals(ownerMetadata.getNamespace(), objectNamespace)) {
				throw new IllegalArgumentException("cross-namespace owner references are not allowed: owner "
						+ describe(owner) + " is in namespace " + ownerMetadata.getNamespace() + ", the owned "
						+ describe(object) + " in " + ((objectNamespace != null) ? objectNamespace : "none"));
			}
		}
		GroupVersionKind kind = client.groupVersionKind(owner.getClass());
		String apiVersion = kind.getGroup().isEmpty() ? kind.getVersion() : kind.getGroup() + "/" + kind.getVersion();
		return new V1OwnerReference().apiVersion(apiVersion)
			.kind(kind.getKind())
			.name(ownerMetadata.getName())
			.uid(ownerMetadata.getUid());
	}

	private static <T extends KubernetesObject> T put(T object, V1OwnerReference reference) {
		V1ObjectMeta metadata = Objects.requireNonNull(object.getMetadata(), "object has no metadata");
		List<V1OwnerReference> references = new ArrayList<>(references(object));
		references.removeIf((existing) -> reference.getUid().equals(existing.getUid()));
		references.add(reference);
		metadata.setOwnerReferences(references);
		return object;
	}

	private static List<V1OwnerReference> references(KubernetesObject object) {
		List<V1OwnerReference> references = (object.getMetadata() != null) ? object.getMetadata().getOwnerReferences()
				: null;
		return (references != null) ? references : List.of();
	}

	private static String describe(KubernetesObject object) {
		V1ObjectMeta metadata = object.getMetadata();
		return object.getClass().getSimpleName() + " " + ((metadata != null)
				? ((metadata.getNamespace() != null) ? metadata.getNamespace() + "/" : "") + metadata.getName() : "?");
	}

}
