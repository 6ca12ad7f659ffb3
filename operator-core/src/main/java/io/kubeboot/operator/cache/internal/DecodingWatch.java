package io.kubeboot.operator.cache.internal;

import java.io.IOException;
import java.util.Iterator;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.util.Watch;
import io.kubernetes.client.util.Watchable;
import okhttp3.Call;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * A watch whose events are decoded one by one by an {@link ObjectDecoder}, so that an
 * object that does not decode into the model class is skipped instead of ending the
 * watch. Otherwise it behaves as client-java's {@code Watch}, whose failures the
 * reflector recognizes by their messages: an unsuccessful response is an
 * {@link ApiException} with the status code and body, a read that fails or times out an
 * "IO Exception during hasNext" that makes the reflector list again.
 *
 * @param <T> the model type
 */
final class DecodingWatch<T extends KubernetesObject> implements Watchable<T> {

	private final Call call;

	private final ResponseBody body;

	private final ObjectDecoder<T> decoder;

	private DecodingWatch(Call call, ResponseBody body, ObjectDecoder<T> decoder) {
		this.call = call;
		this.body = body;
		this.decoder = decoder;
	}

	/**
	 * Sends a watch request and returns the watch once the API server accepted it.
	 * @param call the watch request
	 * @param decoder reads the events
	 * @param <T> the model type
	 * @return the watch
	 * @throws ApiException if the request fails or the API server refuses it
	 */
	static <T extends KubernetesObject> DecodingWatch<T> open(Call call, ObjectDecoder<T> decoder) throws ApiException {
		Response response;
		try {
			response = call.execute();
		}
		catch (IOException ex) {
			throw new ApiException(ex);
		}
		ResponseBody body = response.body();
		if (!response.isSuccessful() || body == null) {
			String content = null;
			if (body != null) {
				try (body) {
					content = body.string();
				}
				catch (IOException ex) {
					throw new ApiException(response.message(), ex, response.code(), response.headers().toMultimap());
				}
			}
			throw new ApiException(response.message(), response.code(), response.headers().toMultimap(), content);
		}
		return new DecodingWatch<>(call, body, decoder);
	}

	@Override
	public boolean hasNext() {
		try {
			return !this.body.source().exhausted();
		}
		catch (IOException ex) {
			throw new RuntimeException("IO Exception during hasNext method.", ex);
		}
	}

	@Override
	public Watch.Response<T> next() {
		String line;
		try {
			line = this.body.source().readUtf8Line();
		}
		catch (IOException ex) {
			throw new RuntimeException("IO Exception during next method.", ex);
		}
		if (line == null) {
			throw new RuntimeException("Null response from the server.");
		}
		return this.decoder.decodeEvent(line);
	}

	@Override
	public Iterator<Watch.Response<T>> iterator() {
		return this;
	}

	@Override
	public void close() throws IOException {
		this.call.cancel();
		this.body.close();
	}

}
