package io.kubeboot.operator.tracing.internal;

import java.util.List;
import java.util.Map;
import java.util.Objects;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubeboot.operator.tracing.TraceContextAnnotation;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;

/**
 * Reads the {@link TraceContextAnnotation} of objects, for the controllers: the value an
 * object carries, and whether an update changed it and nothing else.
 */
public final class TraceContexts {

	private static final String NAME = TraceContextAnnotation.NAME;

	private static final Gson gson = new JSON().getGson();

	private TraceContexts() {
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
		if (!Objects.equals(old.getGeneration(), now.getGeneration())
				|| !Objects.equals(old.getLabels(), now.getLabels())
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
