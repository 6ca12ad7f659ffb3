package io.kubeboot.operator.webhook;

import java.util.LinkedHashSet;
import java.util.Set;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import org.jspecify.annotations.Nullable;

/**
 * Computes the RFC 6902 JSON patch that turns one JSON document into another, as a
 * mutating webhook answers: objects are compared member by member, anything else (arrays
 * included) is replaced whole when it differs.
 */
final class JsonPatches {

	private JsonPatches() {
	}

	/**
	 * Returns the operations that turn {@code before} into {@code after}.
	 * @param before the document as received
	 * @param after the document as it should be
	 * @return the patch, empty if both are equal
	 */
	static JsonArray diff(JsonElement before, JsonElement after) {
		JsonArray operations = new JsonArray();
		diff("", before, after, operations);
		return operations;
	}

	private static void diff(String path, JsonElement before, JsonElement after, JsonArray operations) {
		if (before.equals(after)) {
			return;
		}
		if (before.isJsonObject() && after.isJsonObject()) {
			JsonObject old = before.getAsJsonObject();
			JsonObject now = after.getAsJsonObject();
			Set<String> names = new LinkedHashSet<>(old.keySet());
			names.addAll(now.keySet());
			for (String name : names) {
				String member = path + "/" + escape(name);
				if (!now.has(name)) {
					operations.add(operation("remove", member, null));
				}
				else if (!old.has(name)) {
					operations.add(operation("add", member, now.get(name)));
				}
				else {
					diff(member, old.get(name), now.get(name), operations);
				}
			}
			return;
		}
		operations.add(operation("replace", path, after));
	}

	private static JsonObject operation(String op, String path, @Nullable JsonElement value) {
		JsonObject operation = new JsonObject();
		operation.addProperty("op", op);
		operation.addProperty("path", path);
		if (value != null) {
			operation.add("value", value);
		}
		return operation;
	}

	/** Escapes a member name as a JSON pointer token: {@code ~} and {@code /}. */
	private static String escape(String name) {
		return name.replace("~", "~0").replace("/", "~1");
	}

}
