package io.kubeboot.operator.leaderelection.internal;

import java.io.IOException;
import java.lang.reflect.Type;
import java.util.Objects;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.reflect.TypeToken;
import io.kubeboot.operator.client.internal.Answers;
import io.kubeboot.operator.client.internal.ModelReading;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1Status;
import io.kubernetes.client.util.Watch;
import okhttp3.Call;
import okhttp3.ResponseBody;

/**
 * A watch of Leases whose events are read by {@link ModelReading}'s Gson, which ignores
 * the fields client-java's models lack, where client-java's own {@link Watch} fails the
 * event (and so the watch) on a field of a newer API server. Otherwise it is
 * client-java's watch: an unsuccessful answer is an {@link ApiException} with its status
 * code and body.
 */
final class LeaseEvents extends Watch<V1Lease> {

	private static final Type EVENT = new TypeToken<Watch.Response<V1Lease>>() {
	}.getType();

	private final Gson gson;

	private LeaseEvents(ApiClient client, Gson gson, ResponseBody body, Call call) {
		super(client.getJSON(), body, EVENT, call);
		this.gson = gson;
	}

	/**
	 * Sends the watch request and returns the watch once the API server accepted it.
	 * @param client the client the call was built with
	 * @param call the watch request
	 * @return the watch
	 * @throws ApiException if the request fails or the API server refuses it
	 */
	static LeaseEvents open(ApiClient client, Call call) throws ApiException {
		// derived before the call, so that nothing can fail between opening the answer
		// and handing it to the watch, which closes it
		Gson gson = ModelReading.gson(client);
		return new LeaseEvents(client, gson, Objects.requireNonNull(Answers.open(call).body(), "body"), call);
	}

	@Override
	protected Watch.Response<V1Lease> parseLine(String line) throws IOException {
		try {
			JsonObject event = JsonParser.parseString(line).getAsJsonObject();
			String type = event.get("type").getAsString();
			JsonElement object = event.get("object");
			if ("ERROR".equals(type)) {
				return new Watch.Response<>(type, this.gson.fromJson(object, V1Status.class));
			}
			return new Watch.Response<>(type, this.gson.fromJson(object, V1Lease.class));
		}
		catch (JsonParseException | IllegalStateException | UnsupportedOperationException | NullPointerException ex) {
			throw new IOException("Cannot read a Lease watch event: " + ex.getMessage(), ex);
		}
	}

}
