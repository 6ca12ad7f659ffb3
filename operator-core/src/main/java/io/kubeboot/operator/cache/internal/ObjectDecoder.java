package io.kubeboot.operator.cache.internal;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ListMeta;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Status;
import io.kubernetes.client.util.Watch;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one informer's lists and watch events object by object, so that an object that
 * does not decode into the model class (a field of the wrong type in a custom resource
 * whose CRD preserves unknown fields) costs that object only, not the whole list or
 * watch.
 * <p>
 * Such an object is skipped: one WARN and one count per object and resourceVersion. If
 * the cache holds an earlier version of it that decoded (same uid), that version stays
 * cached: in a list it is kept in place of the object, a watch event changing it is
 * turned into a bookmark, which advances the watch's resourceVersion and leaves the cache
 * alone. A reconciler thus goes on seeing the last version that decoded, as it would with
 * a slow watch (an update or an optimistically locked patch made from it conflicts, the
 * object having changed since), rather than a live object vanishing from the cache as if
 * deleted, which could make it clean up after an object that still exists. A deletion of
 * an object that does not decode still removes it: the delete carries the cached version
 * with the deleted object's final metadata, or the metadata alone when nothing was
 * cached.
 * <p>
 * A list may come in pages ({@link #newList()}), read one after the other into one list.
 * A bookmark is read for its resourceVersion alone, whatever its kind's model requires.
 *
 * @param <T> the model type
 */
final class ObjectDecoder<T extends KubernetesObject> {

	private static final Logger logger = LoggerFactory.getLogger(ObjectDecoder.class);

	private static final String BOOKMARK = "BOOKMARK";

	private static final String DELETED = "DELETED";

	/** The path of the field at fault in a Gson message. */
	private static final Pattern PATH = Pattern.compile(" path (\\$\\S*)");

	/** A top-level field that client-java's models refuse, named by its key. */
	private static final Pattern UNKNOWN_FIELD = Pattern
		.compile("The field `([^`\\s]{1,100})` in the JSON string is not defined");

	/** What Gson expected, and found, as token names or a type, never a value. */
	private static final Pattern EXPECTED = Pattern
		.compile("Expected (?:an? [a-z]+|[A-Z_]+)(?: but was [A-Z_]+(?=[ \\n]))?");

	private static final String ERROR = "ERROR";

	private static final String ADDED = "ADDED";

	/** Marks the bookmark that ends a streamed list's initial events. */
	static final String INITIAL_EVENTS_END_ANNOTATION = "k8s.io/initial-events-end";

	private static final String INITIAL_EVENTS_END = "true";

	private final Class<T> type;

	private final String kind;

	private final Gson gson;

	private final BiFunction<@Nullable String, String, Optional<T>> cached;

	private final Runnable onSkipped;

	/**
	 * The objects skipped, by {@code namespace/name}, with the resourceVersion last
	 * reported: an object is reported again only once it changed.
	 */
	private final Map<String, String> skipped = new ConcurrentHashMap<>();

	/**
	 * Creates a decoder.
	 * @param type the model class
	 * @param kind the kind, for the log
	 * @param gson the Gson of the API client
	 * @param cached looks an object up in the cache by namespace ({@code null} for a
	 * cluster-scoped object) and name
	 * @param onSkipped called once per object and resourceVersion skipped
	 */
	ObjectDecoder(Class<T> type, String kind, Gson gson, BiFunction<@Nullable String, String, Optional<T>> cached,
			Runnable onSkipped) {
		this.type = type;
		this.kind = kind;
		this.gson = gson;
		this.cached = cached;
		this.onSkipped = onSkipped;
	}

	/**
	 * Reads a list response of one page item by item, keeping only one item's JSON tree
	 * in memory at a time.
	 * @param reader the response body
	 * @return the list: its metadata, and the items that decoded plus the cached versions
	 * kept for those that did not
	 * @throws IOException if the body cannot be read
	 */
	KubernetesListObject decodeList(JsonReader reader) throws IOException {
		PagedList list = newList();
		list.readPage(reader);
		return list.finish();
	}

	/**
	 * Starts reading a list that may come in several pages.
	 * @return the list, empty until its pages are read
	 */
	PagedList newList() {
		return new PagedList();
	}

	/**
	 * One list being read, page by page: the items of every page, the apiVersion, kind
	 * and metadata of the first.
	 */
	final class PagedList {

		private final DecodedList<T> list = new DecodedList<>();

		private final Set<String> stillSkipped = new HashSet<>();

		private boolean empty = true;

		private PagedList() {
		}

		/**
		 * Reads one page, item by item, and keeps its items.
		 * @param reader the response body
		 * @return the page's metadata: its resourceVersion and continue token
		 * @throws IOException if the body cannot be read
		 */
		V1ListMeta readPage(JsonReader reader) throws IOException {
			V1ListMeta metadata = new V1ListMeta();
			reader.beginObject();
			while (reader.hasNext()) {
				String name = reader.nextName();
				if (reader.peek() == JsonToken.NULL) {
					reader.nextNull();
				}
				else if (name.equals("apiVersion")) {
					String apiVersion = reader.nextString();
					if (this.empty) {
						this.list.apiVersion = apiVersion;
					}
				}
				else if (name.equals("kind")) {
					String kind = reader.nextString();
					if (this.empty) {
						this.list.kind = kind;
					}
				}
				else if (name.equals("metadata")) {
					metadata = ObjectDecoder.this.gson.fromJson(reader, V1ListMeta.class);
				}
				else if (name.equals("items")) {
					reader.beginArray();
					while (reader.hasNext()) {
						T item = decodeItem(JsonParser.parseReader(reader).getAsJsonObject(), this.stillSkipped);
						if (item != null) {
							this.list.items.add(item);
						}
					}
					reader.endArray();
				}
				else {
					reader.skipValue();
				}
			}
			reader.endObject();
			if (this.empty) {
				this.list.metadata = metadata;
				this.empty = false;
			}
			else {
				// the snapshot is the first page's; the continue token the latest
				this.list.metadata.setContinue(metadata.getContinue());
			}
			return metadata;
		}

		/**
		 * Reads one event of a streamed list (a watch with {@code sendInitialEvents}): an
		 * {@code ADDED} event adds its object, the bookmark that ends the initial events
		 * gives the list its resourceVersion.
		 * @param line the line: a JSON watch event
		 * @return whether the line ended the initial events
		 * @throws StreamedListException if the server sent an error or an event that has
		 * no place in a list
		 */
		boolean readStreamedEvent(String line) {
			JsonObject event = JsonParser.parseString(line).getAsJsonObject();
			String eventType = string(event, "type");
			JsonElement object = event.get("object");
			if (eventType == null || object == null || !object.isJsonObject()) {
				throw new StreamedListException("Watch event without a type or an object: " + abbreviate(line), null);
			}
			JsonObject json = object.getAsJsonObject();
			if (ERROR.equals(eventType) || isStatus(json)) {
				throw new StreamedListException("The API server ended the streamed list",
						ObjectDecoder.this.gson.fromJson(json, V1Status.class));
			}
			if (BOOKMARK.equals(eventType)) {
				ObjectRef ref = ObjectRef.of(json);
				if (!INITIAL_EVENTS_END.equals(annotation(json, INITIAL_EVENTS_END_ANNOTATION))) {
					return false;
				}
				startStreamedList(json);
				this.list.metadata = new V1ListMeta().resourceVersion(ref.resourceVersion());
				return true;
			}
			if (!ADDED.equals(eventType)) {
				// the initial events are the state at one resourceVersion, all added
				throw new StreamedListException(
						"A streamed list sent a " + eventType + " event before its initial events ended", null);
			}
			startStreamedList(json);
			T item = decodeItem(json, this.stillSkipped);
			if (item != null) {
				this.list.items.add(item);
			}
			return false;
		}

		private void startStreamedList(JsonObject object) {
			if (this.empty) {
				String kind = string(object, "kind");
				this.list.apiVersion = string(object, "apiVersion");
				this.list.kind = (kind != null) ? kind + "List" : null;
				this.empty = false;
			}
		}

		/**
		 * Drops the pages read so far, to read the list again from its start.
		 */
		void discard() {
			this.list.items.clear();
			this.list.metadata = new V1ListMeta();
			this.stillSkipped.clear();
			this.empty = true;
		}

		/**
		 * Completes the list: an object skipped before that is not skipped in it any more
		 * is forgotten, so that it is reported again should it stop decoding again.
		 * @return the list
		 */
		KubernetesListObject finish() {
			// a list is all there is: objects no longer skipped are forgotten
			ObjectDecoder.this.skipped.keySet().retainAll(this.stillSkipped);
			return this.list;
		}

	}

	private @Nullable T decodeItem(JsonObject json, Set<String> stillSkipped) {
		try {
			return this.gson.fromJson(json, this.type);
		}
		catch (RuntimeException ex) {
			ObjectRef ref = ObjectRef.of(json);
			Optional<T> kept = cachedVersion(ref);
			skip(json, ref, kept, ex);
			stillSkipped.add(ref.key());
			// a copy: the informer's transform changes the objects it stores
			return kept.map(this::copy).orElse(null);
		}
	}

	/**
	 * Reads one line of a watch response.
	 * @param line the line: a JSON watch event
	 * @return the event: as sent if its object decodes, else a bookmark at the object's
	 * resourceVersion or a delete
	 */
	Watch.Response<T> decodeEvent(String line) {
		JsonObject event = JsonParser.parseString(line).getAsJsonObject();
		String eventType = string(event, "type");
		JsonElement object = event.get("object");
		if (eventType == null || object == null || !object.isJsonObject()) {
			throw new IllegalStateException("Watch event without a type or an object: " + abbreviate(line));
		}
		JsonObject json = object.getAsJsonObject();
		if (ERROR.equals(eventType) || isStatus(json)) {
			return new Watch.Response<>(eventType, this.gson.fromJson(json, V1Status.class));
		}
		if (BOOKMARK.equals(eventType)) {
			return new Watch.Response<>(BOOKMARK, bookmark(json));
		}
		try {
			T decoded = this.gson.fromJson(json, this.type);
			if (!this.skipped.isEmpty() && decoded.getMetadata() != null) {
				this.skipped.remove(ObjectRef.key(decoded.getMetadata().getNamespace(),
						Objects.requireNonNullElse(decoded.getMetadata().getName(), "")));
			}
			return new Watch.Response<>(eventType, decoded);
		}
		catch (RuntimeException ex) {
			return undecodable(eventType, json, ex);
		}
	}

	private Watch.Response<T> undecodable(String eventType, JsonObject json, RuntimeException error) {
		ObjectRef ref = ObjectRef.of(json);
		Optional<T> cachedVersion = cachedVersion(ref);
		if (DELETED.equals(eventType)) {
			this.skipped.remove(ref.key());
			T deleted = cachedVersion.map((version) -> withMetadata(version, json.get("metadata")))
				.orElseGet(() -> metadataOnly(json, ref, error));
			return new Watch.Response<>(DELETED, deleted);
		}
		skip(json, ref, cachedVersion, error);
		// the reflector leaves its store alone on a bookmark, but resumes the watch from
		// its resourceVersion
		return new Watch.Response<>(BOOKMARK, metadataOnly(json, ref, error));
	}

	/**
	 * Reads the object of a bookmark: an empty object of the kind carrying the
	 * resourceVersion the watch has reached, all the reflector reads of it. A model whose
	 * required fields the empty object lacks gets the resourceVersion alone.
	 */
	private T bookmark(JsonObject json) {
		JsonObject shell = new JsonObject();
		for (String field : List.of("apiVersion", "kind", "metadata")) {
			if (json.has(field)) {
				shell.add(field, json.get(field));
			}
		}
		try {
			return this.gson.fromJson(shell, this.type);
		}
		catch (RuntimeException ex) {
			try {
				T empty = this.type.getDeclaredConstructor().newInstance();
				this.type.getMethod("setMetadata", V1ObjectMeta.class)
					.invoke(empty, new V1ObjectMeta().resourceVersion(ObjectRef.of(json).resourceVersion()));
				return empty;
			}
			catch (ReflectiveOperationException | RuntimeException again) {
				ex.addSuppressed(again);
				throw new IllegalStateException("Bookmark does not decode into " + this.type.getName(), ex);
			}
		}
	}

	/**
	 * Returns the resourceVersion of the latest version of an object that did not decode,
	 * while the cache keeps the last version that did (or none).
	 * @param namespace the object's namespace, {@code null} if cluster-scoped
	 * @param name the object's name
	 * @return the resourceVersion, {@code null} if its latest version decoded
	 */
	@Nullable String undecodableVersion(@Nullable String namespace, String name) {
		return this.skipped.get(ObjectRef.key(namespace, name));
	}

	private Optional<T> cachedVersion(ObjectRef ref) {
		if (ref.name() == null) {
			return Optional.empty();
		}
		return this.cached.apply(ref.namespace(), ref.name())
			.filter((version) -> version.getMetadata() != null && ref.uid() != null
					&& ref.uid().equals(version.getMetadata().getUid()));
	}

	private void skip(JsonObject json, ObjectRef ref, Optional<T> kept, RuntimeException error) {
		String resourceVersion = Objects.requireNonNullElse(ref.resourceVersion(), "");
		if (resourceVersion.equals(this.skipped.put(ref.key(), resourceVersion))) {
			return;
		}
		this.onSkipped.run();
		logger.warn(
				"Object does not decode into its model, skipped: kind={} object={} resourceVersion={} cachedResourceVersion={} error=\"{}\"",
				this.kind, ref.key(), resourceVersion,
				kept.map((version) -> version.getMetadata().getResourceVersion()).orElse("none"),
				describe(json, error));
	}

	/**
	 * Decodes an object's apiVersion, kind and metadata only: enough for the reflector to
	 * advance its resourceVersion, and for the store to find the object by key.
	 */
	private T metadataOnly(JsonObject json, ObjectRef ref, RuntimeException error) {
		JsonObject shell = new JsonObject();
		for (String field : List.of("apiVersion", "kind", "metadata")) {
			if (json.has(field)) {
				shell.add(field, json.get(field));
			}
		}
		try {
			return this.gson.fromJson(shell, this.type);
		}
		catch (RuntimeException ex) {
			// metadata the API server validated always decodes; should it not, the
			// identity and version are all that matters
			shell.add("metadata",
					this.gson.toJsonTree(new V1ObjectMeta().namespace(ref.namespace())
						.name(ref.name())
						.uid(ref.uid())
						.resourceVersion(ref.resourceVersion())));
			try {
				return this.gson.fromJson(shell, this.type);
			}
			catch (RuntimeException again) {
				error.addSuppressed(again);
				throw error;
			}
		}
	}

	private T withMetadata(T version, @Nullable JsonElement metadata) {
		JsonObject tree = this.gson.toJsonTree(version, this.type).getAsJsonObject();
		if (metadata != null) {
			tree.add("metadata", metadata);
		}
		return this.gson.fromJson(tree, this.type);
	}

	private T copy(T version) {
		return this.gson.fromJson(this.gson.toJsonTree(version, this.type), this.type);
	}

	private static boolean isStatus(JsonObject json) {
		return "Status".equals(string(json, "kind")) && "v1".equals(string(json, "apiVersion"));
	}

	private static @Nullable String string(JsonObject json, String field) {
		JsonElement value = json.get(field);
		return (value != null && value.isJsonPrimitive()) ? value.getAsString() : null;
	}

	/**
	 * Describes why an object does not decode: the exception's type, what Gson expected
	 * and found when it says so in token names, and the path of the field at fault. Gson
	 * names the path for some errors only, so the object is read again from text, whose
	 * reader knows where it stopped; only objects that do not decode pay for this.
	 * Nothing of the object's values is repeated (Gson and client-java put raw values,
	 * even the whole object, in their messages): a log line must not leak a Secret's data
	 * nor take line breaks from a custom resource.
	 */
	private String describe(JsonObject json, RuntimeException error) {
		String messages = messages(error);
		Matcher at = PATH.matcher(messages);
		Matcher unknown = UNKNOWN_FIELD.matcher(messages);
		String path;
		if (at.find()) {
			path = at.group(1);
		}
		else if (unknown.find()) {
			path = "$." + unknown.group(1) + " (a field the model does not know)";
		}
		else {
			JsonReader reader = new JsonReader(new StringReader(json.toString()));
			try {
				this.gson.fromJson(reader, this.type);
				path = "$";
			}
			catch (RuntimeException ex) {
				path = reader.getPath();
			}
		}
		Throwable root = error;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		Matcher expected = EXPECTED.matcher(messages);
		String expectation = expected.find() ? ": " + expected.group() : "";
		return printable(root.getClass().getSimpleName() + expectation + " at path " + path);
	}

	private static String messages(Throwable error) {
		StringBuilder all = new StringBuilder();
		for (Throwable cause = error; cause != null; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
			all.append(cause.getMessage()).append('\n');
		}
		return all.toString();
	}

	/** One line, bounded, without quotes that would end the log's {@code error="..."}. */
	private static String printable(String text) {
		StringBuilder out = new StringBuilder();
		text.codePoints()
			.limit(300)
			.forEach((c) -> out.appendCodePoint((Character.isISOControl(c) || c == '"') ? '?' : c));
		return (text.codePointCount(0, text.length()) > 300) ? out + "..." : out.toString();
	}

	private static @Nullable String annotation(JsonObject json, String name) {
		JsonElement metadata = json.get("metadata");
		if (metadata == null || !metadata.isJsonObject()) {
			return null;
		}
		JsonElement annotations = metadata.getAsJsonObject().get("annotations");
		return (annotations != null && annotations.isJsonObject()) ? string(annotations.getAsJsonObject(), name) : null;
	}

	private static String abbreviate(String line) {
		return (line.length() > 200) ? line.substring(0, 200) + "..." : line;
	}

	/**
	 * An object's identity as read from its JSON, which does not decode as a whole.
	 */
	private record ObjectRef(@Nullable String namespace, @Nullable String name, @Nullable String uid,
			@Nullable String resourceVersion) {

		static ObjectRef of(JsonObject json) {
			JsonElement metadata = json.get("metadata");
			if (metadata == null || !metadata.isJsonObject()) {
				return new ObjectRef(null, null, null, null);
			}
			JsonObject fields = metadata.getAsJsonObject();
			return new ObjectRef(string(fields, "namespace"), string(fields, "name"), string(fields, "uid"),
					string(fields, "resourceVersion"));
		}

		static String key(@Nullable String namespace, String name) {
			return (namespace != null) ? namespace + "/" + name : name;
		}

		String key() {
			return key(this.namespace, Objects.requireNonNullElse(this.name, ""));
		}

	}

	/**
	 * A list as the reflector reads it: its metadata and items.
	 */
	private static final class DecodedList<T extends KubernetesObject> implements KubernetesListObject {

		private @Nullable String apiVersion;

		private @Nullable String kind;

		private V1ListMeta metadata = new V1ListMeta();

		private final List<T> items = new ArrayList<>();

		@Override
		public V1ListMeta getMetadata() {
			return this.metadata;
		}

		@Override
		public List<T> getItems() {
			return this.items;
		}

		@Override
		public @Nullable String getApiVersion() {
			return this.apiVersion;
		}

		@Override
		public @Nullable String getKind() {
			return this.kind;
		}

	}

}
