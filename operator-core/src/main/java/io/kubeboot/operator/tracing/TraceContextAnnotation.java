package io.kubeboot.operator.tracing;

import java.util.List;
import java.util.Map;
import java.util.Objects;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;

/**
 * The annotation that carries a trace from the operator that writes an object to the one
 * that reconciles it: {@value #NAME}, a W3C {@code traceparent}
 * ({@code 00-<trace id>-<span id>-<flags>}). With
 * {@code operator.tracing.annotate-objects} (off by default) the manager's client writes
 * the trace context of each create into it, in the same write; the reconcile of the
 * created object continues that trace. Updates, patches and applies never carry it:
 * whether they change anything only the API server knows, and a fresh value would turn a
 * no-op into a write, or conflict with another field manager under server-side apply.
 * <p>
 * A change of the annotation alone never triggers a reconcile: a controller drops an
 * update whose only difference is this annotation (and the resourceVersion and managed
 * fields that come with any write), whatever its event filters, and
 * {@code AnnotationsChangedPredicate} does not count it.
 */
public final class TraceContextAnnotation {

	/** The annotation's name. */
	public static final String NAME = "tracing.kubeboot.io/traceparent";

	/** Whether the client writes the annotation unless configured: no. */
	public static final boolean DEFAULT_WRITTEN = false;

	private static final Gson gson = new JSON().getGson();

	private TraceContextAnnotation() {
	}

	/**
	 * Returns the annotation of an object.
	 * @param object the object
	 * @return its value, {@code null} if absent
	 */
	public static @Nullable String read(@Nullable KubernetesObject object) {
		V1ObjectMeta metadata = (object != null) ? object.getMetadata() : null;
		Map<String, String> annotations = (metadata != null) ? metadata.getAnnotations() : null;
		return (annotations != null) ? annotations.get(NAME) : null;
	}

	/**
	 * Whether an update changed this annotation and nothing else an operator could react
	 * to: the rest of the object is the same but for its resourceVersion and managed
	 * fields. Cheap unless the annotation changed, when the two objects are compared
	 * field by field.
	 * @param oldObject the object before the update
	 * @param newObject the object after it
	 * @return {@code true} to drop the update
	 */
	public static boolean isOnlyChange(KubernetesObject oldObject, KubernetesObject newObject) {
		String before = read(oldObject);
		String after = read(newObject);
		if (Objects.equals(before, after) || oldObject == newObject) {
			return false;
		}
		V1ObjectMeta old = oldObject.getMetadata();
		V1ObjectMeta now = newObject.getMetadata();
		if (!Objects.equals(old.getGeneration(), now.getGeneration()) || !Objects.equals(old.getLabels(), now.getLabels())
				|| !Objects.equals(list(old.getFinalizers()), list(now.getFinalizers()))
				|| !Objects.equals(old.getDeletionTimestamp(), now.getDeletionTimestamp())
				|| annotationsBesides(old) != annotationsBesides(now)) {
			return false;
		}
		return withoutWriteMarks(oldObject).equals(withoutWriteMarks(newObject));
	}

	private static int annotationsBesides(V1ObjectMeta metadata) {
		Map<String, String> annotations = metadata.getAnnotations();
		if (annotations == null) {
			return 0;
		}
		return annotations.size() - (annotations.containsKey(NAME) ? 1 : 0);
	}

	private static List<String> list(@Nullable List<String> values) {
		return (values != null) ? values : List.of();
	}

	/** The object as JSON without what every write changes, nor this annotation. */
	private static JsonElement withoutWriteMarks(KubernetesObject object) {
		JsonElement tree = gson.toJsonTree(object);
		if (tree.isJsonObject() && tree.getAsJsonObject().has("metadata")) {
			JsonObject metadata = tree.getAsJsonObject().getAsJsonObject("metadata");
			metadata.remove("resourceVersion");
			metadata.remove("managedFields");
			if (metadata.has("annotations")) {
				JsonObject annotations = metadata.getAsJsonObject("annotations");
				annotations.remove(NAME);
				if (annotations.size() == 0) {
					metadata.remove("annotations");
				}
			}
		}
		return tree;
	}

}
