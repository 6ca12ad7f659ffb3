package io.kubeboot.operator.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BinaryOperator;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubeboot.operator.client.internal.CallDeadline;
import io.kubeboot.operator.client.internal.DelegatingAuthApiClient;
import io.kubeboot.operator.client.internal.KindResolver;
import io.kubeboot.operator.client.internal.ResourceKind;
import io.kubeboot.operator.client.internal.WrittenVersions;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.tracing.OperatorTracing;
import io.kubeboot.operator.tracing.TraceContextAnnotation;
import io.kubernetes.client.apimachinery.GroupVersionKind;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;

/**
 * The {@link Client} of a manager: reads from its cache (or, uncached, from the API
 * server), writes through REST calls bounded by a timeout.
 * <p>
 * Every call to the API server is a span of the {@link OperatorTracing} (verb, kind,
 * status code), a child of the reconcile's. With the trace context annotation on, a
 * create carries the span's {@code traceparent} in the {@code TraceContextAnnotation} of
 * its body. No other write does: a create is always a write, while whether an update, a
 * patch or an apply changes anything only the API server knows (defaulting, admission,
 * other writers), and a fresh value would turn its no-op into a write
 * (docs/design/reconcile-triggers.md).
 */
final class DefaultClient implements Client {

	private final Reader cache;

	private final RestCalls calls;

	private final KindResolver kinds;

	private final Map<Class<?>, ResourceKind<?>> resolved = new ConcurrentHashMap<>();

	private final ClientJson json;

	private final String fieldManager;

	private final Reader uncached = new UncachedReader();

	private final StatusWriter status = new Status();

	private final WrittenVersions.@Nullable Tracking tracking;

	private final OperatorTracing tracing;

	private final boolean stampWrites;

	/**
	 * Creates a client.
	 * @param client the application's client (it is not modified; calls use a derived
	 * client with the timeout)
	 * @param cache serves the reads
	 * @param fieldManager the field manager of writes and applies
	 * @param timeout the longest one call may take
	 */
	DefaultClient(ApiClient client, Reader cache, String fieldManager, Duration timeout) {
		this(client, cache, fieldManager, timeout, OperatorTracing.NOOP, false);
	}

	/**
	 * Creates a client whose calls are traced.
	 * @param client the application's client
	 * @param cache serves the reads
	 * @param fieldManager the field manager of writes and applies
	 * @param timeout the longest one call may take
	 * @param tracing where the calls are traced
	 * @param stampWrites whether creates carry their trace context in the annotation
	 */
	DefaultClient(ApiClient client, Reader cache, String fieldManager, Duration timeout, OperatorTracing tracing,
			boolean stampWrites) {
		this.tracing = tracing;
		this.stampWrites = stampWrites;
		// the interceptor lets a reconcile's deadline cut off its calls in flight,
		// discovery's included
		ApiClient bounded = new DelegatingAuthApiClient(client,
				(builder) -> builder.readTimeout(timeout)
					.callTimeout(timeout)
					.addInterceptor(CallDeadline.interceptor()));
		this.cache = cache;
		this.calls = new RestCalls(bounded, timeout);
		this.kinds = (cache instanceof KindResolver.Source source) ? new KindResolver(bounded, source.kindResolver())
				: new KindResolver(bounded);
		this.json = new ClientJson(bounded.getJSON().getGson());
		this.fieldManager = fieldManager;
		this.tracking = (cache instanceof WrittenVersions.Tracking reads) ? reads : null;
	}

	@Override
	public <T extends KubernetesObject> Optional<T> get(Class<T> type, Request request) {
		return this.cache.get(type, request);
	}

	@Override
	public <T extends KubernetesObject> List<T> list(Class<T> type, @Nullable String namespace) {
		return this.cache.list(type, namespace);
	}

	@Override
	public <T extends KubernetesObject> List<T> list(Class<T> type, @Nullable String namespace,
			MatchingIndex matching) {
		return this.cache.list(type, namespace, matching);
	}

	@Override
	public Reader uncached() {
		return this.uncached;
	}

	@Override
	public String fieldManager() {
		return this.fieldManager;
	}

	@Override
	public StatusWriter status() {
		return this.status;
	}

	@Override
	public <T extends KubernetesObject> T create(T object) {
		ResourceKind<T> kind = kind(object);
		String namespace = namespace(kind, object);
		return send(kind, new Call("create", null, namespace, nameOrNull(object)), "POST",
				kind.collectionPath(namespace), List.of("fieldManager", this.fieldManager),
				(traceParent) -> this.json.create(object, kind, traceParent), "application/json");
	}

	@Override
	public <T extends KubernetesObject> T update(T object) {
		ResourceKind<T> kind = kind(object);
		String namespace = namespace(kind, object);
		String name = name(object);
		return send(kind, new Call("update", null, namespace, name), "PUT", kind.objectPath(namespace, name, false),
				List.of("fieldManager", this.fieldManager), (traceParent) -> this.json.write(object, kind),
				"application/json");
	}

	@Override
	public <T extends KubernetesObject> T patch(T object, Patch patch) {
		return patch(object, patch, false);
	}

	@Override
	public <T extends KubernetesObject> T apply(T object, ApplyOption... options) {
		return apply(object, false, options);
	}

	@Override
	public <T extends KubernetesObject> Written<T> createOrUpdate(T object, Consumer<? super T> mutate) {
		return createOr(object, mutate, (existing, changed) -> update(changed));
	}

	@Override
	public <T extends KubernetesObject> Written<T> createOrPatch(T object, Consumer<? super T> mutate) {
		return createOr(object, mutate, (existing, changed) -> patch(existing, Patch.mergeFrom(existing, changed)));
	}

	private <T extends KubernetesObject> Written<T> createOr(T object, Consumer<? super T> mutate,
			BinaryOperator<T> write) {
		ResourceKind<T> kind = kind(object);
		String namespace = namespace(kind, object);
		String name = name(object);
		Request request = new Request(namespace, name);
		Optional<T> existing;
		try {
			existing = this.cache.get(kind.type(), request);
		}
		catch (IllegalStateException notCached) {
			existing = this.uncached.get(kind.type(), request);
		}
		if (existing.isEmpty()) {
			mutate.accept(object);
			requireSameKey(object, namespace, name);
			try {
				return new Written<>(Operation.CREATED, create(object));
			}
			catch (ApiServerException.AlreadyExistsException ex) {
				// there but not cached: its labels or fields are outside the cache's
				// selectors (someone changed them, or it predates the operator), or the
				// cache lags a create
				existing = this.uncached.get(kind.type(), request);
				if (existing.isEmpty()) {
					throw ex;
				}
			}
		}
		T copy = this.json.copy(existing.get(), kind.type());
		mutate.accept(copy);
		requireSameKey(copy, namespace, name);
		if (this.json.same(existing.get(), copy)) {
			return new Written<>(Operation.UNCHANGED, existing.get());
		}
		return new Written<>(Operation.UPDATED, write.apply(existing.get(), copy));
	}

	private static void requireSameKey(KubernetesObject object, @Nullable String namespace, String name) {
		V1ObjectMeta metadata = object.getMetadata();
		if (metadata == null || !name.equals(metadata.getName())
				|| (namespace != null && !namespace.equals(metadata.getNamespace()))) {
			throw new IllegalStateException("the mutate function of a create-or-update must not change the "
					+ "namespace or name of " + ((namespace != null) ? namespace + "/" : "") + name);
		}
	}

	@Override
	public GroupVersionKind groupVersionKind(Class<? extends KubernetesObject> type) {
		ResourceKind<?> kind = kind(type);
		return new GroupVersionKind(kind.group(), kind.version(), kind.kind());
	}

	@Override
	public boolean isNamespaced(Class<? extends KubernetesObject> type) {
		return kind(type).namespaced();
	}

	@Override
	public boolean delete(KubernetesObject object, Propagation propagation) {
		ResourceKind<? extends KubernetesObject> kind = kind(object);
		JsonObject body = new JsonObject();
		body.addProperty("apiVersion", "v1");
		body.addProperty("kind", "DeleteOptions");
		body.addProperty("propagationPolicy", propagation.value());
		if (object.getMetadata() != null && object.getMetadata().getUid() != null) {
			JsonObject preconditions = new JsonObject();
			preconditions.addProperty("uid", object.getMetadata().getUid());
			body.add("preconditions", preconditions);
		}
		String namespace = namespace(kind, object);
		String name = name(object);
		try {
			JsonElement answer = traced(kind, new Call("delete", null, namespace, name),
					(traceParent, answered) -> this.calls.send("DELETE", kind.objectPath(namespace, name, false),
							List.of(), RestCalls.bytes(body.toString()), "application/json", JsonElement.class,
							answered));
			WrittenVersions.Tracking tracking = this.tracking;
			if (tracking != null) {
				String pending = pendingDeletionVersion(answer);
				tracking.recordIfHeld(object, () -> {
					if (pending != null) {
						// still there, marked for deletion until its finalizers are gone:
						// the cache catches up once it sees that version, not once it
						// goes
						tracking.writtenVersions().wrote(object, pending);
					}
					else {
						tracking.writtenVersions().deleted(object);
					}
				});
			}
			return true;
		}
		catch (ApiServerException.NotFoundException ex) {
			return false;
		}
	}

	/**
	 * The resourceVersion of an object a delete left in place, marked for deletion (it
	 * has finalizers, or a foreground deletion waits for its dependents), or {@code null}
	 * if the answer says it is gone.
	 */
	private static @Nullable String pendingDeletionVersion(@Nullable JsonElement answer) {
		if (answer == null || !answer.isJsonObject()) {
			return null;
		}
		JsonObject object = answer.getAsJsonObject();
		JsonElement kind = object.get("kind");
		JsonElement metadata = object.get("metadata");
		if (kind == null || "Status".equals(kind.getAsString()) || metadata == null || !metadata.isJsonObject()) {
			return null;
		}
		JsonObject meta = metadata.getAsJsonObject();
		JsonElement finalizers = meta.get("finalizers");
		JsonElement version = meta.get("resourceVersion");
		boolean pending = meta.has("deletionTimestamp") && finalizers != null && finalizers.isJsonArray()
				&& !finalizers.getAsJsonArray().isEmpty();
		return (pending && version != null) ? version.getAsString() : null;
	}

	private <T extends KubernetesObject> T patch(T object, Patch patch, boolean status) {
		ResourceKind<T> kind = kind(object);
		String namespace = namespace(kind, object);
		String name = name(object);
		return send(kind, new Call("patch", status ? "status" : null, namespace, name), "PATCH",
				kind.objectPath(namespace, name, status), List.of("fieldManager", this.fieldManager),
				(traceParent) -> this.json.patch(patch), patch.type().contentType());
	}

	private <T extends KubernetesObject> T apply(T object, boolean status, ApplyOption... options) {
		ResourceKind<T> kind = kind(object);
		List<String> query = new ArrayList<>(List.of("fieldManager", this.fieldManager));
		if (List.of(options).contains(ApplyOption.FORCE)) {
			query.addAll(List.of("force", "true"));
		}
		String namespace = namespace(kind, object);
		String name = name(object);
		return send(kind, new Call("apply", status ? "status" : null, namespace, name), "PATCH",
				kind.objectPath(namespace, name, status), query, (traceParent) -> this.json.apply(object, kind),
				"application/apply-patch+yaml");
	}

	private <T extends KubernetesObject> T send(ResourceKind<T> kind, Call call, String method, String path,
			List<String> query, Body body, String contentType) {
		T stored = traced(kind, call, (traceParent, answered) -> this.calls.send(method, path, query,
				body.write(traceParent), contentType, kind.type(), answered));
		if (stored == null) {
			throw new ApiServerException(method + " " + path + " answered without an object", 0, null, null);
		}
		WrittenVersions.Tracking tracking = this.tracking;
		if (tracking != null) {
			tracking.recordIfHeld(stored, () -> {
				V1ObjectMeta metadata = stored.getMetadata();
				if (metadata.getDeletionTimestamp() != null
						&& (metadata.getFinalizers() == null || metadata.getFinalizers().isEmpty())) {
					// its last finalizer removed: the API server deleted it
					tracking.writtenVersions().deleted(stored);
				}
				else {
					tracking.writtenVersions().wrote(stored);
				}
			});
		}
		return stored;
	}

	/**
	 * Sends a call inside its span, handing a create's body the trace context to write
	 * when creates carry it.
	 */
	private <R> @Nullable R traced(ResourceKind<?> kind, Call call, TracedCall<R> send) {
		if (this.tracing.isNoop()) {
			return send.send(null, null);
		}
		OperatorTracing.ClientSpan span = this.tracing.clientCall(call.verb(), kind.kind(), call.subresource(),
				call.namespace(), call.name());
		int[] code = { 0 };
		Throwable error = null;
		try (OperatorTracing.Scope scope = span.openScope()) {
			return send.send((this.stampWrites && call.isCreate()) ? span.traceParent() : null,
					(answered) -> code[0] = answered);
		}
		catch (ApiServerException ex) {
			code[0] = ex.code();
			error = ex;
			throw ex;
		}
		catch (RuntimeException | Error ex) {
			error = ex;
			throw ex;
		}
		finally {
			span.end(code[0], error);
		}
	}

	private static @Nullable String nameOrNull(KubernetesObject object) {
		return (object.getMetadata() != null) ? object.getMetadata().getName() : null;
	}

	@SuppressWarnings("unchecked")
	private <T extends KubernetesObject> ResourceKind<T> kind(T object) {
		return (ResourceKind<T>) kind(object.getClass());
	}

	@SuppressWarnings("unchecked")
	private <T extends KubernetesObject> ResourceKind<T> kind(Class<T> type) {
		return (ResourceKind<T>) this.resolved.computeIfAbsent(type, (key) -> {
			CallDeadline.check();
			try {
				return this.kinds.resolve(type);
			}
			catch (ApiException ex) {
				if (ex.getCode() == 0) {
					// unanswered: cut off by the deadline, if it passed
					CallDeadline.failed(ex);
				}
				throw RestCalls.typed("Discovery of " + type.getSimpleName(), ex);
			}
		});
	}

	private static @Nullable String namespace(ResourceKind<?> kind, KubernetesObject object) {
		if (!kind.namespaced()) {
			return null;
		}
		String namespace = (object.getMetadata() != null) ? object.getMetadata().getNamespace() : null;
		if (namespace == null || namespace.isBlank()) {
			throw new IllegalArgumentException(
					kind.kind() + " is namespaced: set metadata.namespace of the object to write");
		}
		return namespace;
	}

	private static String name(KubernetesObject object) {
		String name = (object.getMetadata() != null) ? object.getMetadata().getName() : null;
		if (name == null || name.isBlank()) {
			throw new IllegalArgumentException("set metadata.name of the " + object.getClass().getSimpleName());
		}
		return name;
	}

	/**
	 * What a call does, for its span.
	 *
	 * @param verb {@code get}, {@code list}, {@code create}, {@code update},
	 * {@code patch}, {@code apply} or {@code delete}
	 * @param subresource {@code status}, or {@code null}
	 * @param namespace the object's namespace, or {@code null}
	 * @param name the object's name, or {@code null}
	 */
	private record Call(String verb, @Nullable String subresource, @Nullable String namespace, @Nullable String name) {

		boolean isCreate() {
			return "create".equals(this.verb);
		}

	}

	/**
	 * Writes the body of a call, with the trace context a create puts in it.
	 */
	@FunctionalInterface
	private interface Body {

		byte[] write(@Nullable String traceParent);

	}

	/**
	 * Sends a call, given the trace context its body may carry and where to tell the
	 * answer's status code.
	 */
	@FunctionalInterface
	private interface TracedCall<R> {

		@Nullable R send(@Nullable String traceParent, @Nullable IntConsumer answered);

	}

	/** Reads straight from the API server. */
	private final class UncachedReader implements Reader {

		@Override
		public <T extends KubernetesObject> Optional<T> get(Class<T> type, Request request) {
			ResourceKind<T> kind = kind(type);
			String namespace = kind.namespaced() ? request.namespace() : null;
			try {
				return Optional.ofNullable(traced(kind, new Call("get", null, namespace, request.name()),
						(traceParent, answered) -> DefaultClient.this.calls.send("GET",
								kind.objectPath(namespace, request.name(), false), List.of(), null, "application/json",
								type, answered)));
			}
			catch (ApiServerException.NotFoundException ex) {
				return Optional.empty();
			}
		}

		@Override
		public <T extends KubernetesObject> List<T> list(Class<T> type, @Nullable String namespace) {
			return list(type, namespace, List.of());
		}

		@Override
		public <T extends KubernetesObject> List<T> list(Class<T> type, @Nullable String namespace,
				String labelSelector) {
			return list(type, namespace, List.of("labelSelector", labelSelector));
		}

		@SuppressWarnings("unchecked")
		private <T extends KubernetesObject> List<T> list(Class<T> type, @Nullable String namespace,
				List<String> query) {
			ResourceKind<T> kind = kind(type);
			String scope = kind.namespaced() ? namespace : null;
			KubernetesListObject list = traced(kind, new Call("list", null, scope, null),
					(traceParent, answered) -> DefaultClient.this.calls.send("GET", kind.collectionPath(scope), query,
							null, "application/json", kind.listType(), answered));
			return (list != null && list.getItems() != null) ? new ArrayList<>((List<T>) list.getItems())
					: new ArrayList<>();
		}

	}

	/** Writes the status subresource. */
	private final class Status implements StatusWriter {

		@Override
		public <T extends KubernetesObject> T update(T object) {
			ResourceKind<T> kind = kind(object);
			String namespace = namespace(kind, object);
			String name = name(object);
			return send(kind, new Call("update", "status", namespace, name), "PUT",
					kind.objectPath(namespace, name, true), List.of("fieldManager", DefaultClient.this.fieldManager),
					(traceParent) -> DefaultClient.this.json.write(object, kind), "application/json");
		}

		@Override
		public <T extends KubernetesObject> T patch(T object, Patch patch) {
			return DefaultClient.this.patch(object, patch, true);
		}

		@Override
		public <T extends KubernetesObject> T apply(T object, ApplyOption... options) {
			return DefaultClient.this.apply(object, true, options);
		}

	}

	/** The JSON bodies of writes. */
	private static final class ClientJson {

		private final Gson gson;

		ClientJson(Gson gson) {
			this.gson = Times.wholeSeconds(gson);
		}

		byte[] write(KubernetesObject object, ResourceKind<?> kind) {
			return RestCalls.bytes(withKind(this.gson.toJsonTree(object).getAsJsonObject(), kind).toString());
		}

		/**
		 * The body of a create, with the trace context in its annotation when given (the
		 * object itself is not changed).
		 */
		byte[] create(KubernetesObject object, ResourceKind<?> kind, @Nullable String traceParent) {
			JsonObject body = withKind(this.gson.toJsonTree(object).getAsJsonObject(), kind);
			if (traceParent != null) {
				if (!(body.get("metadata") instanceof JsonObject)) {
					body.add("metadata", new JsonObject());
				}
				JsonObject metadata = body.getAsJsonObject("metadata");
				JsonElement annotations = metadata.get("annotations");
				if (annotations == null || !annotations.isJsonObject()) {
					annotations = new JsonObject();
					metadata.add("annotations", annotations);
				}
				annotations.getAsJsonObject().addProperty(TraceContextAnnotation.NAME, traceParent);
			}
			return RestCalls.bytes(body.toString());
		}

		byte[] apply(KubernetesObject object, ResourceKind<?> kind) {
			JsonObject body = withKind(this.gson.toJsonTree(object).getAsJsonObject(), kind);
			if (body.has("metadata")) {
				// rejected by apply
				body.getAsJsonObject("metadata").remove("managedFields");
			}
			return RestCalls.bytes(ApplyBodies.withoutEmptyCollections(body).toString());
		}

		<T> T copy(T object, Class<T> type) {
			return this.gson.fromJson(this.gson.toJsonTree(object), type);
		}

		boolean same(Object one, Object other) {
			return this.gson.toJsonTree(one).equals(this.gson.toJsonTree(other));
		}

		byte[] patch(Patch patch) {
			Object body = patch.body();
			if (body instanceof String text) {
				return RestCalls.bytes(text);
			}
			if (body instanceof Patch.Diff diff) {
				JsonElement base = this.gson.toJsonTree(diff.base());
				JsonObject changes = MergePatches.diff(base, this.gson.toJsonTree(diff.modified()));
				if (patch.optimisticLock()) {
					MergePatches.lockOn(changes, base);
				}
				return RestCalls.bytes(changes.toString());
			}
			return RestCalls.bytes(this.gson.toJson(body));
		}

		private static JsonObject withKind(JsonObject body, ResourceKind<?> kind) {
			if (!body.has("apiVersion")) {
				body.addProperty("apiVersion", kind.apiVersion());
			}
			if (!body.has("kind")) {
				body.addProperty("kind", kind.kind());
			}
			return body;
		}

	}

}
