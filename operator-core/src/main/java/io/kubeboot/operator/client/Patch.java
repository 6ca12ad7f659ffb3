package io.kubeboot.operator.client;

import java.util.Objects;

/**
 * A change to send to the API server instead of a whole object, the counterpart of
 * controller-runtime's {@code client.Patch}. Build one with {@link #merge},
 * {@link #mergeFrom}, {@link #json} or {@link #strategicMerge}; the {@link Client}
 * serialises objects the way Kubernetes writes them (RFC 3339 times in whole seconds).
 */
public final class Patch {

	private final Type type;

	private final Object body;

	private final boolean optimisticLock;

	private Patch(Type type, Object body, boolean optimisticLock) {
		this.type = type;
		this.body = Objects.requireNonNull(body, "body must not be null");
		this.optimisticLock = optimisticLock;
	}

	/**
	 * A JSON merge patch (RFC 7386): the fields of the given object or map replace the
	 * object's, {@code null} values delete, lists are replaced whole.
	 * @param partial a model object or a {@code Map} with the fields to change
	 * @return the patch
	 */
	public static Patch merge(Object partial) {
		return new Patch(Type.MERGE, partial, false);
	}

	/**
	 * A JSON merge patch with exactly the differences between two states of an object,
	 * the counterpart of controller-runtime's {@code client.MergeFrom(base)}: take a copy
	 * of the object, change the copy, and patch with {@code mergeFrom(original, copy)}.
	 * @param base the object as it was read
	 * @param modified the object with the changes
	 * @return the patch
	 */
	public static Patch mergeFrom(Object base, Object modified) {
		return new Patch(Type.MERGE, new Diff(base, modified), false);
	}

	/**
	 * Like {@link #mergeFrom(Object, Object)}, but the patch also carries the base's
	 * {@code metadata.resourceVersion}, so it fails with a
	 * {@link ApiServerException.ConflictException} if the object changed since it was
	 * read.
	 * @param base the object as it was read
	 * @param modified the object with the changes
	 * @return the patch
	 */
	public static Patch mergeFromWithOptimisticLock(Object base, Object modified) {
		return new Patch(Type.MERGE, new Diff(base, modified), true);
	}

	/**
	 * A JSON patch (RFC 6902): a list of operations.
	 * @param operations the operations as JSON, such as {@code [{"op": "add", "path":
	 * "/metadata/labels/a", "value": "b"}]}
	 * @return the patch
	 */
	public static Patch json(String operations) {
		return new Patch(Type.JSON, operations, false);
	}

	/**
	 * A strategic merge patch, for built-in kinds only: like a merge patch, but lists of
	 * objects are merged by their keys (containers by name) instead of replaced.
	 * @param partial a model object or a {@code Map} with the fields to change
	 * @return the patch
	 */
	public static Patch strategicMerge(Object partial) {
		return new Patch(Type.STRATEGIC_MERGE, partial, false);
	}

	Type type() {
		return this.type;
	}

	Object body() {
		return this.body;
	}

	boolean optimisticLock() {
		return this.optimisticLock;
	}

	@Override
	public String toString() {
		return "Patch[" + this.type + "]";
	}

	enum Type {

		MERGE("application/merge-patch+json"), JSON("application/json-patch+json"),
		STRATEGIC_MERGE("application/strategic-merge-patch+json");

		private final String contentType;

		Type(String contentType) {
			this.contentType = contentType;
		}

		String contentType() {
			return this.contentType;
		}

	}

	record Diff(Object base, Object modified) {
	}

}
