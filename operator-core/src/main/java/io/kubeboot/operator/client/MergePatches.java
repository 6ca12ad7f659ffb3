package io.kubeboot.operator.client;

import java.util.Map;

import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;

/**
 * Computes JSON merge patches (RFC 7386) from two states of an object: changed and added
 * fields with their new values, removed fields as {@code null}, objects compared field by
 * field, everything else (lists included) replaced whole.
 */
final class MergePatches {

	private MergePatches() {
	}

	static JsonObject diff(JsonElement base, JsonElement modified) {
		JsonObject patch = new JsonObject();
		JsonObject before = base.isJsonObject() ? base.getAsJsonObject() : new JsonObject();
		JsonObject after = modified.getAsJsonObject();
		for (Map.Entry<String, JsonElement> field : after.entrySet()) {
			JsonElement old = before.get(field.getKey());
			JsonElement now = field.getValue();
			if (old == null || !old.equals(now)) {
				patch.add(field.getKey(),
						(old != null && old.isJsonObject() && now.isJsonObject()) ? diff(old, now) : now);
			}
		}
		for (String field : before.keySet()) {
			if (!after.has(field)) {
				patch.add(field, JsonNull.INSTANCE);
			}
		}
		return patch;
	}

	/** Makes the patch fail with 409 unless the object still has the base's version. */
	static void lockOn(JsonObject patch, JsonElement base) {
		JsonElement metadata = base.isJsonObject() ? base.getAsJsonObject().get("metadata") : null;
		JsonElement version = (metadata != null && metadata.isJsonObject())
				? metadata.getAsJsonObject().get("resourceVersion") : null;
		if (version == null) {
			throw new IllegalArgumentException("an optimistic lock needs metadata.resourceVersion in the base object");
		}
		JsonObject patchMetadata = patch.has("metadata") ? patch.getAsJsonObject("metadata") : new JsonObject();
		patchMetadata.add("resourceVersion", version);
		patch.add("metadata", patchMetadata);
	}

}
