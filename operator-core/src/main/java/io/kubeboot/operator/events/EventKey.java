package io.kubeboot.operator.events;

import org.jspecify.annotations.Nullable;

/**
 * What makes two events identical for aggregation: the same involved object, type,
 * reason, action and message (the source is the recorder's own and the same for all its
 * events). The object is identified by its model class and kind (so two kinds sharing a
 * generic model class stay apart), namespace, name and uid; its resource version is left
 * out, since it changes with every update of the object.
 *
 * @param modelType the object's model class
 * @param kind the object's kind, empty if it can only be resolved later
 * @param namespace the object's namespace, {@code null} for a cluster-scoped object
 * @param name the object's name
 * @param uid the object's uid, {@code null} if it has none
 * @param type the event's type
 * @param reason the event's reason
 * @param action what the event tells was done or failed
 * @param message the event's message
 */
record EventKey(Class<?> modelType, String kind, @Nullable String namespace, String name, @Nullable String uid,
		EventType type, String reason, String action, String message) {

	@Override
	public String toString() {
		return this.kind + " " + ((this.namespace != null) ? this.namespace + "/" : "") + this.name + " "
				+ this.type.value() + " " + this.reason;
	}

}
