package io.kubeboot.operator.client;

import io.kubeboot.operator.client.internal.ResourceKind;
import org.jspecify.annotations.Nullable;

/**
 * The REST paths of a resource: {@code /api/v1} for the core group, else
 * {@code /apis/<group>/<version>}; then {@code namespaces/<ns>/} for a namespaced kind,
 * the plural, and the name and subresource of one object.
 */
final class Paths {

	private Paths() {
	}

	static String collection(ResourceKind<?> kind, @Nullable String namespace) {
		String base = kind.group().isEmpty() ? "/api/" + kind.version()
				: "/apis/" + kind.group() + "/" + kind.version();
		return base + ((namespace != null) ? "/namespaces/" + namespace : "") + "/" + kind.plural();
	}

	static String object(ResourceKind<?> kind, @Nullable String namespace, String name, boolean status) {
		return collection(kind, namespace) + "/" + name + (status ? "/status" : "");
	}

}
