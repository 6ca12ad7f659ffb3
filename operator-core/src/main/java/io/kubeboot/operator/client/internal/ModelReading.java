package io.kubeboot.operator.client.internal;

import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.Collections;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.TypeAdapter;
import com.google.gson.TypeAdapterFactory;
import com.google.gson.reflect.TypeToken;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.JSON;
import org.jspecify.annotations.Nullable;

/**
 * The Gson that reads what the API server sends. client-java's models come with generated
 * adapters that copy each object into a JSON tree, check the tree against the schema of
 * client-java's own Kubernetes release, then bind it, again at every level of nesting;
 * and they refuse a field they do not know, so a field a newer API server adds to a
 * built-in kind would make the whole object unreadable. The API server validated what it
 * sends: this Gson binds client-java's models field by field straight from the stream, as
 * it binds the application's own classes, and ignores the fields it does not know, as
 * Go's clients do. Everything else, the application's classes and the adapters of dates,
 * quantities and the like, is read as the client's Gson reads it.
 * <p>
 * The derived Gson is made once per client Gson: it holds the adapters it resolved, which
 * cost reflection to make.
 */
public final class ModelReading {

	private static final String MODELS = "io.kubernetes.client.openapi.models";

	/** Value types client-java's Gson reads with adapters of its own. */
	private static final List<Class<?>> VALUE_TYPES = List.of(Date.class, java.sql.Date.class, OffsetDateTime.class,
			LocalDate.class, byte[].class);

	private static final Map<Gson, Gson> derived = Collections.synchronizedMap(new WeakHashMap<>());

	private ModelReading() {
	}

	/**
	 * Returns the Gson that reads answers for a client.
	 * @param clientGson the client's Gson
	 * @return a Gson that reads as the client's does, client-java's models field by field
	 */
	public static Gson gson(Gson clientGson) {
		return derived.computeIfAbsent(clientGson, ModelReading::derive);
	}

	/**
	 * Returns the Gson that reads answers for a client; callers derive it once, not per
	 * call.
	 * @param client the client
	 * @return {@link #gson(Gson)} of the client's Gson
	 */
	public static Gson gson(ApiClient client) {
		return gson(client.getJSON().getGson());
	}

	private static Gson derive(Gson clientGson) {
		// JSON's own builder: its exclusions (managedFields) and Status handling, without
		// the generated adapters
		GsonBuilder models = JSON.createGson();
		VALUE_TYPES.forEach((type) -> models.registerTypeAdapter(type, clientGson.getAdapter(type)));
		return clientGson.newBuilder().registerTypeAdapterFactory(new Models(models.create())).create();
	}

	/**
	 * Hands client-java's models to a Gson that has no generated adapters.
	 */
	private static final class Models implements TypeAdapterFactory {

		private final Gson models;

		Models(Gson models) {
			this.models = models;
		}

		@Override
		public <T> @Nullable TypeAdapter<T> create(Gson gson, TypeToken<T> type) {
			return MODELS.equals(type.getRawType().getPackageName()) ? this.models.getAdapter(type) : null;
		}

	}

}
