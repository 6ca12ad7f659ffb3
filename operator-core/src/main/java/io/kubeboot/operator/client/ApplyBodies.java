package io.kubeboot.operator.client;

import java.util.Iterator;
import java.util.Map;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

/**
 * The body of a server-side apply, as the API server should read it: only the fields the
 * caller set. client-java's models start every map and list as an empty one, so an object
 * as serialized carries {@code labels: {}}, {@code finalizers: []} and the like that
 * nobody set; applied, they would make this field manager own those fields, and conflict
 * with the managers that do set them (Kubernetes 1.37 reports such conflicts). Empty maps
 * and lists are left out, at any depth, as client-go's apply configurations leave out
 * fields never set.
 */
final class ApplyBodies {

	private ApplyBodies() {
	}

	/**
	 * Removes every empty object and empty array, at any depth, from an apply body; an
	 * object or array left empty by the removal goes too.
	 * @param body the body, changed in place
	 * @return the body
	 */
	static JsonObject withoutEmptyCollections(JsonObject body) {
		prune(body);
		return body;
	}

	/** Prunes the element's children and tells whether it is itself empty now. */
	private static boolean prune(JsonElement element) {
		if (element.isJsonObject()) {
			Iterator<Map.Entry<String, JsonElement>> fields = element.getAsJsonObject().entrySet().iterator();
			while (fields.hasNext()) {
				if (prune(fields.next().getValue())) {
					fields.remove();
				}
			}
			return element.getAsJsonObject().size() == 0;
		}
		if (element.isJsonArray()) {
			JsonArray array = element.getAsJsonArray();
			for (JsonElement item : array) {
				// an item that is an empty object stays an item: only its fields go
				prune(item);
			}
			return array.isEmpty();
		}
		return false;
	}

}
