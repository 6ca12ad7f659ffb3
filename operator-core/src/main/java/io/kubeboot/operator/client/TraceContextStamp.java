package io.kubeboot.operator.client;

import java.util.Map;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubeboot.operator.tracing.TraceContextAnnotation;
import org.jspecify.annotations.Nullable;

/**
 * Puts the trace context of a write into the {@link TraceContextAnnotation} of the body
 * it sends, unless the write would change nothing else: then the annotation is left as
 * the cached object has it, so that a write the API server would find a no-op stays one
 * (no new resourceVersion, no event for any watcher).
 */
final class TraceContextStamp {

	private TraceContextStamp() {
	}

	/**
	 * Sets the annotation of a body (an object, a merge patch or an apply); a merge patch
	 * that removes the metadata or all annotations is left as it is.
	 * @param body the body
	 * @param traceParent the value
	 */
	static void stamp(JsonObject body, String traceParent) {
		JsonElement metadata = body.get("metadata");
		if ((metadata != null && metadata.isJsonNull()) || (metadata != null && metadata.isJsonObject()
				&& metadata.getAsJsonObject().has("annotations")
				&& metadata.getAsJsonObject().get("annotations").isJsonNull())) {
			return;
		}
		annotations(body).addProperty(TraceContextAnnotation.NAME, traceParent);
	}

	/**
	 * Gives a body of a whole object or an apply the annotation the stored object has.
	 * @param body the body
	 * @param stored the stored (cached) object as JSON
	 */
	static void keep(JsonObject body, JsonObject stored) {
		JsonElement current = annotationsOf(stored).get(TraceContextAnnotation.NAME);
		if (current != null && !current.isJsonNull()) {
			annotations(body).add(TraceContextAnnotation.NAME, current);
		}
		else if (body.has("metadata") && body.getAsJsonObject("metadata").has("annotations")) {
			body.getAsJsonObject("metadata").getAsJsonObject("annotations").remove(TraceContextAnnotation.NAME);
		}
	}

	/**
	 * Whether a whole object is the stored one but for what every write changes
	 * (resourceVersion, managed fields) and the annotation: a replace that changes
	 * nothing.
	 * @param body the object to write
	 * @param stored the stored object
	 * @return {@code true} if the write changes nothing
	 */
	static boolean sameAs(JsonObject body, JsonObject stored) {
		return withoutWriteMarks(body).equals(withoutWriteMarks(stored));
	}

	/**
	 * Whether every field a merge patch or an apply sets already has that value in the
	 * stored object, and every field it removes (a {@code null}) is absent: a write that
	 * changes nothing. Lists must be equal as a whole, so an apply of a list that
	 * another manager added items to counts as a change (the annotation is then written,
	 * which is harmless).
	 * @param part the patch or the applied configuration
	 * @param stored the stored object
	 * @return {@code true} if the write changes nothing
	 */
	static boolean isContainedIn(JsonObject part, JsonObject stored) {
		return contained(withoutWriteMarks(part), withoutWriteMarks(stored));
	}

	private static boolean contained(JsonElement part, @Nullable JsonElement whole) {
		if (part.isJsonNull()) {
			return whole == null || whole.isJsonNull();
		}
		if (whole == null) {
			return false;
		}
		if (part.isJsonObject()) {
			if (!whole.isJsonObject()) {
				return false;
			}
			JsonObject wholeObject = whole.getAsJsonObject();
			for (Map.Entry<String, JsonElement> field : part.getAsJsonObject().entrySet()) {
				if (!contained(field.getValue(), wholeObject.get(field.getKey()))) {
					return false;
				}
			}
			return true;
		}
		return part.equals(whole);
	}

	/** A copy without resourceVersion, managed fields and the annotation. */
	private static JsonObject withoutWriteMarks(JsonObject object) {
		JsonObject copy = object.deepCopy();
		if (copy.has("metadata") && copy.get("metadata").isJsonObject()) {
			JsonObject metadata = copy.getAsJsonObject("metadata");
			metadata.remove("resourceVersion");
			metadata.remove("managedFields");
			if (metadata.has("annotations") && metadata.get("annotations").isJsonObject()) {
				JsonObject annotations = metadata.getAsJsonObject("annotations");
				annotations.remove(TraceContextAnnotation.NAME);
				if (annotations.size() == 0) {
					metadata.remove("annotations");
				}
			}
			if (metadata.size() == 0) {
				copy.remove("metadata");
			}
		}
		return copy;
	}

	private static JsonObject annotationsOf(JsonObject object) {
		JsonElement metadata = object.get("metadata");
		if (metadata == null || !metadata.isJsonObject()) {
			return new JsonObject();
		}
		JsonElement annotations = metadata.getAsJsonObject().get("annotations");
		return (annotations != null && annotations.isJsonObject()) ? annotations.getAsJsonObject() : new JsonObject();
	}

	private static JsonObject annotations(JsonObject body) {
		JsonElement metadata = body.get("metadata");
		if (metadata == null || !metadata.isJsonObject()) {
			metadata = new JsonObject();
			body.add("metadata", metadata);
		}
		JsonObject meta = metadata.getAsJsonObject();
		JsonElement annotations = meta.get("annotations");
		if (annotations == null || !annotations.isJsonObject()) {
			annotations = new JsonObject();
			meta.add("annotations", annotations);
		}
		return annotations.getAsJsonObject();
	}

}
