package io.kubeboot.operator.it;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * Talks to the test control plane's etcd through its v3 JSON gateway, to force the
 * compactions that make old resource versions disappear.
 */
final class Etcd {

	private Etcd() {
	}

	/**
	 * Compacts etcd's history up to its current revision.
	 * @param endpoint the etcd client URL
	 * @throws Exception if etcd does not answer as expected
	 */
	static void compact(String endpoint) throws Exception {
		HttpClient http = HttpClient.newHttpClient();
		// "Lw==" is base64 of "/": any key works, the answer's header carries the
		// revision
		JsonObject range = post(http, endpoint + "/v3/kv/range", "{\"key\": \"Lw==\"}");
		long revision = range.getAsJsonObject("header").get("revision").getAsLong();
		post(http, endpoint + "/v3/kv/compaction", "{\"revision\": \"" + revision + "\", \"physical\": true}");
	}

	private static JsonObject post(HttpClient http, String url, String body) throws Exception {
		HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build(), HttpResponse.BodyHandlers.ofString());
		if (response.statusCode() != 200) {
			throw new IllegalStateException("etcd answered " + response.statusCode() + ": " + response.body());
		}
		return JsonParser.parseString(response.body()).getAsJsonObject();
	}

}
