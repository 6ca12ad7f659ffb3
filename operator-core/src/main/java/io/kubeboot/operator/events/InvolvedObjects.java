package io.kubeboot.operator.events;

import io.kubeboot.operator.client.internal.KindResolver;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code involvedObject} of an Event and its kind discovery. When an event is
 * recorded, the reference is built without any I/O from what the object carries and what
 * its model class tells ({@link ModelKinds}); objects read from a list carry no kind or
 * apiVersion. Before the Event is created, the writer fills in what is still missing: the
 * kind its class declares, and the apiVersion from the {@link EventSink} (which may ask
 * the API server's discovery).
 */
final class InvolvedObjects {

	// the recorder's logger: the log lines and their configuration stay as they were
	private static final Logger logger = LoggerFactory.getLogger(KubernetesEventRecorder.class);

	private InvolvedObjects() {
	}

	/**
	 * Returns a reference to an object: apiVersion, kind, name, namespace, uid and
	 * resourceVersion, each left out if empty. Never blocks.
	 * @param object the object
	 * @return the reference, or {@code null} if the object has no name to refer to it by
	 */
	static @Nullable V1ObjectReference referenceTo(@Nullable KubernetesObject object) {
		V1ObjectMeta metadata = (object != null) ? object.getMetadata() : null;
		String name = (metadata != null) ? metadata.getName() : null;
		if (object == null || metadata == null || name == null || name.isEmpty()) {
			return null;
		}
		String kind = ModelKinds.kindOf(object.getClass());
		if (kind.isEmpty() && object.getKind() != null) {
			kind = object.getKind();
		}
		return new V1ObjectReference().apiVersion(emptyToNull(object.getApiVersion()))
			.kind(emptyToNull(kind))
			.name(name)
			.namespace(emptyToNull(metadata.getNamespace()))
			.uid(emptyToNull(metadata.getUid()))
			.resourceVersion(emptyToNull(metadata.getResourceVersion()));
	}

	/**
	 * Fills in the kind and apiVersion a reference lacks. An apiVersion that cannot be
	 * told is left out (logged at debug level).
	 * @param reference the reference, modified
	 * @param key the event, whose model class tells the kind
	 * @param sink where to ask for the apiVersion
	 * @throws ApiException if the API server's discovery had to be asked and failed
	 * @throws IllegalArgumentException if the model class declares no kind
	 */
	static void complete(V1ObjectReference reference, EventKey key, EventSink sink) throws ApiException {
		if (reference.getKind() == null) {
			reference.setKind(KindResolver.declaredKind(key.modelType()).kind());
		}
		if (reference.getApiVersion() == null) {
			reference.setApiVersion(apiVersionOf(key, sink));
		}
	}

	private static @Nullable String apiVersionOf(EventKey key, EventSink sink) throws ApiException {
		try {
			@SuppressWarnings("unchecked")
			Class<? extends KubernetesObject> type = (Class<? extends KubernetesObject>) key.modelType();
			return sink.apiVersionOf(type);
		}
		catch (RuntimeException ex) {
			logger.debug("Cannot tell the apiVersion of the object, leaving it out: event={} error={}", key,
					ex.getMessage());
			return null;
		}
	}

	private static @Nullable String emptyToNull(@Nullable String value) {
		return (value == null || value.isEmpty()) ? null : value;
	}

}
