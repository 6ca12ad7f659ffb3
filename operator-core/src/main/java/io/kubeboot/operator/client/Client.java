package io.kubeboot.operator.client;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.kubeboot.operator.tracing.OperatorTracing;
import io.kubeboot.operator.tracing.TraceContextAnnotation;
import io.kubernetes.client.apimachinery.GroupVersionKind;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;

/**
 * Reads and writes objects of any kind, the counterpart of controller-runtime's
 * {@code client.Client}: a client-java model ({@code V1ConfigMap}) or a
 * {@code @KubernetesKind} class. Obtain it from {@code Manager.client()} or, with the
 * starter, inject it.
 * <ul>
 * <li>Reads ({@link #get}, {@link #list}) are served by the manager's cache: fast, a few
 * milliseconds behind the API server, only for cached kinds, and the returned objects are
 * shared instances that must never be modified. {@link #uncached()} asks the API
 * server.</li>
 * <li>Writes go to the API server and return the object as stored. {@link #update}
 * replaces the whole object and fails with {@link ApiServerException.ConflictException}
 * if it changed since it was read; {@link #patch} sends only a change; {@link #apply}
 * uses server-side apply under the client's field manager (the application's name by
 * default); {@link #status()} writes the status subresource.</li>
 * <li>Failures are typed ({@link ApiServerException} and its subclasses), never
 * client-java's {@code ApiException}; every call is bounded by the client's timeout.</li>
 * <li>A call the API server throttles (429 Too Many Requests) is sent again after the
 * answer's {@code Retry-After} (1s if it has none, at most 1m), up to 10 times as
 * client-go does, as long as the wait ends within the client's timeout counted from the
 * first attempt; then the {@link ApiServerException.TooManyRequestsException} escapes.
 * Writes are retried too: the API server rejects a throttled request before executing
 * it.</li>
 * </ul>
 * Thread-safe. Calls block until the API server answered.
 */
public interface Client extends Reader {

	/**
	 * Returns a reader that asks the API server on every call, for the rare read that
	 * must not be served from the cache (a kind that is not cached, a check right after
	 * another process wrote).
	 * @return the uncached reader
	 */
	Reader uncached();

	/**
	 * Creates an object.
	 * @param <T> the model type
	 * @param object the object; its namespace, name (or {@code generateName}) and kind
	 * are used
	 * @return the created object, with its uid and resource version
	 * @throws ApiServerException.AlreadyExistsException if an object of that name exists
	 * @throws ApiServerException.InvalidException if it fails validation
	 */
	<T extends KubernetesObject> T create(T object);

	/**
	 * Replaces an object, failing if it changed since it was read (optimistic lock on
	 * {@code metadata.resourceVersion}; the status is not written, see
	 * {@link #status()}).
	 * @param <T> the model type
	 * @param object the changed object
	 * @return the stored object
	 * @throws ApiServerException.ConflictException if it changed meanwhile
	 */
	<T extends KubernetesObject> T update(T object);

	/**
	 * Patches an object.
	 * @param <T> the model type
	 * @param object the object (its kind, namespace and name are used)
	 * @param patch the patch
	 * @return the stored object
	 * @throws ApiServerException.NotFoundException if it does not exist
	 */
	<T extends KubernetesObject> T patch(T object, Patch patch);

	/**
	 * Applies an object with server-side apply under the client's field manager: the
	 * fields given are owned by this manager afterwards, ones it owned before and left
	 * out are removed, fields of other managers are kept. Creates the object if it does
	 * not exist. The counterpart of controller-runtime's {@code client.Apply}.
	 * @param <T> the model type
	 * @param object the object with only the fields this operator owns, its
	 * {@code apiVersion} and {@code kind} set
	 * @param options {@link ApplyOption#FORCE} to take over fields another manager owns
	 * @return the stored object
	 * @throws ApiServerException.ConflictException if another manager owns a field and
	 * the apply was not forced
	 */
	<T extends KubernetesObject> T apply(T object, ApplyOption... options);

	/**
	 * Deletes an object, only the one read: the delete carries its uid as a precondition,
	 * so an object re-created under the same name meanwhile is not deleted.
	 * @param object the object
	 * @param propagation what happens to the objects it owns
	 * @return {@code true} if deleted (or deletion started), {@code false} if it did not
	 * exist
	 * @throws ApiServerException.ConflictException if the object was re-created meanwhile
	 */
	boolean delete(KubernetesObject object, Propagation propagation);

	/**
	 * Deletes an object with background propagation: owned objects are deleted by the
	 * garbage collector afterwards.
	 * @param object the object
	 * @return {@code true} if deleted, {@code false} if it did not exist
	 */
	default boolean delete(KubernetesObject object) {
		return delete(object, Propagation.BACKGROUND);
	}

	/**
	 * Creates an object, or brings the existing one in line, the counterpart of
	 * controller-runtime's {@code controllerutil.CreateOrUpdate}: reads the object named
	 * by {@code object}'s namespace and name (from the cache if its kind is cached, else
	 * from the API server), calls {@code mutate} on a copy of it (or, if there is none,
	 * on {@code object}) and writes the result with {@link #update} (or {@link #create})
	 * only if {@code mutate} changed something. The status is not written. An object the
	 * cache does not hold but the API server does (its labels outside the cache's
	 * selector, as when someone removed them) is read from the API server once the create
	 * is refused, and brought in line.
	 * @param <T> the model type
	 * @param object names the object; the template created if it does not exist
	 * @param mutate sets the desired state on the object it is given; it must not change
	 * the namespace or name
	 * @return what was done and the object as stored (or read, if unchanged)
	 * @throws IllegalStateException if {@code mutate} changed the namespace or name
	 * @throws ApiServerException.ConflictException if the object changed since it was
	 * read (the reconcile is then requeued at once)
	 */
	<T extends KubernetesObject> Written<T> createOrUpdate(T object, Consumer<? super T> mutate);

	/**
	 * Like {@link #createOrUpdate}, but writes a change with a merge patch of exactly the
	 * fields {@code mutate} changed (controller-runtime's
	 * {@code controllerutil.CreateOrPatch}): fields other writers set meanwhile are kept
	 * and there is no conflict on a stale cache.
	 * @param <T> the model type
	 * @param object names the object; the template created if it does not exist
	 * @param mutate sets the desired state on the object it is given
	 * @return what was done and the object as stored (or read, if unchanged)
	 * @throws IllegalStateException if {@code mutate} changed the namespace or name
	 */
	<T extends KubernetesObject> Written<T> createOrPatch(T object, Consumer<? super T> mutate);

	/**
	 * Returns the group, version and kind the API server serves a model class as, the
	 * counterpart of controller-runtime's {@code client.GroupVersionKindFor}.
	 * @param type the model class
	 * @return the group (empty for the core group), version and kind
	 * @throws KindNotServedException if the API server does not serve the kind
	 */
	GroupVersionKind groupVersionKind(Class<? extends KubernetesObject> type);

	/**
	 * Whether objects of a kind live in namespaces, the counterpart of
	 * controller-runtime's {@code client.IsObjectNamespaced}.
	 * @param type the model class
	 * @return {@code true} for a namespaced kind
	 * @throws KindNotServedException if the API server does not serve the kind
	 */
	boolean isNamespaced(Class<? extends KubernetesObject> type);

	/**
	 * Returns the writer of the status subresource.
	 * @return the status writer
	 */
	StatusWriter status();

	/**
	 * Returns the field manager this client applies and writes as.
	 * @return the field manager
	 */
	String fieldManager();

	/**
	 * Creates a client, for use without a manager; a manager has one already.
	 * @param client the application's client (it is not modified; calls use a derived
	 * client with the timeout)
	 * @param reads serves {@link #get} and {@link #list}, normally the manager's cache
	 * @param fieldManager the field manager of writes and applies, such as the
	 * application's name
	 * @param timeout the longest one call may take
	 * @return the client
	 * @throws IllegalArgumentException if the field manager is blank or the timeout not
	 * positive
	 */
	static Client create(ApiClient client, Reader reads, String fieldManager, Duration timeout) {
		return create(client, reads, fieldManager, timeout, OperatorTracing.NOOP, TraceContextAnnotation.Written.NEVER);
	}

	/**
	 * Creates a client whose calls to the API server are traced, as a manager's are.
	 * @param client the application's client (it is not modified; calls use a derived
	 * client with the timeout)
	 * @param reads serves {@link #get} and {@link #list}, normally the manager's cache
	 * @param fieldManager the field manager of writes and applies
	 * @param timeout the longest one call may take
	 * @param tracing where each call is traced, a child span of the reconcile's
	 * @param traceContextAnnotation which writes carry their span's trace context in the
	 * annotation {@value io.kubeboot.operator.tracing.TraceContextAnnotation#NAME}, in
	 * the same write: creates or none
	 * @return the client
	 * @throws IllegalArgumentException if the field manager is blank or the timeout not
	 * positive
	 */
	static Client create(ApiClient client, Reader reads, String fieldManager, Duration timeout, OperatorTracing tracing,
			TraceContextAnnotation.Written traceContextAnnotation) {
		if (fieldManager == null || fieldManager.isBlank()) {
			throw new IllegalArgumentException("a client needs a field manager (the name its writes are owned by)");
		}
		if (timeout == null || timeout.isZero() || timeout.isNegative()) {
			throw new IllegalArgumentException("a client's timeout must be positive, was " + timeout);
		}
		return new DefaultClient(client, reads, fieldManager, timeout, tracing,
				traceContextAnnotation == TraceContextAnnotation.Written.ON_CREATE);
	}

	/**
	 * Runs a call and turns "not found" into an empty result, the counterpart of
	 * controller-runtime's {@code client.IgnoreNotFound}.
	 * @param <T> the result type
	 * @param call the call
	 * @return its result, or empty if it failed with
	 * {@link ApiServerException.NotFoundException}
	 */
	static <T> Optional<T> ignoreNotFound(Supplier<T> call) {
		try {
			return Optional.ofNullable(call.get());
		}
		catch (ApiServerException.NotFoundException ex) {
			return Optional.empty();
		}
	}

	/**
	 * What {@link #createOrUpdate} or {@link #createOrPatch} did.
	 *
	 * @param <T> the model type
	 * @param operation what was done
	 * @param object the object as stored, or as read if unchanged
	 */
	record Written<T extends KubernetesObject>(Operation operation, T object) {
	}

	/**
	 * What a create-or-update did, the counterpart of controller-runtime's
	 * {@code OperationResult}.
	 */
	enum Operation {

		/** The object did not exist and was created. */
		CREATED,

		/** The object existed and was changed. */
		UPDATED,

		/** The object existed and was already as desired: nothing was written. */
		UNCHANGED

	}

	/**
	 * What happens to the objects an object owns when it is deleted.
	 */
	enum Propagation {

		/** Deleted at once; the garbage collector deletes owned objects afterwards. */
		BACKGROUND("Background"),

		/** Deleted once every owned object with {@code blockOwnerDeletion} is deleted. */
		FOREGROUND("Foreground"),

		/** Deleted; owned objects are kept and lose the owner reference. */
		ORPHAN("Orphan");

		private final String value;

		Propagation(String value) {
			this.value = value;
		}

		/**
		 * Returns the value the API server expects.
		 * @return the propagation policy
		 */
		public String value() {
			return this.value;
		}

	}

	/**
	 * Options of server-side apply.
	 */
	enum ApplyOption {

		/** Take over fields another field manager owns instead of failing. */
		FORCE

	}

}
