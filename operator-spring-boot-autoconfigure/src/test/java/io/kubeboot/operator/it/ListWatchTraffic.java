package io.kubeboot.operator.it;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.ForwardingSource;
import okio.Okio;
import okio.Source;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the caches' lists and watches of ConfigMaps send on the wire, for the tests of
 * paged and streamed lists.
 */
final class ListWatchTraffic {

	static final Duration WAIT = Duration.ofSeconds(60);

	private ListWatchTraffic() {
	}

	/**
	 * Creates ConfigMaps {@code cm-0} to {@code cm-<count - 1>}, 16 requests at a time.
	 */
	static void createConfigMaps(CoreV1Api admin, String namespace, int count) throws Exception {
		int threads = 16;
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Callable<Void>> tasks = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				int first = t;
				tasks.add(() -> {
					for (int i = first; i < count; i += threads) {
						admin.createNamespacedConfigMap(namespace, configMap("cm-" + i, "0")).execute();
					}
					return null;
				});
			}
			for (Future<Void> done : executor.invokeAll(tasks)) {
				done.get();
			}
		}
		finally {
			executor.shutdownNow();
		}
	}

	static V1ConfigMap configMap(String name, String value) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("v", value));
	}

	/**
	 * Records the list and watch requests of one collection on the wire, can hold one of
	 * them back until released, and reads the bookmarks of the watches as they arrive.
	 */
	static final class Traffic implements Interceptor {

		private static final Pattern BOOKMARK = Pattern
			.compile("^\\{\"type\":\"BOOKMARK\".*\"resourceVersion\":\"(\\d+)\"");

		private final String path;

		final List<HttpUrl> lists = new CopyOnWriteArrayList<>();

		final List<HttpUrl> watches = new CopyOnWriteArrayList<>();

		private final List<Hold> holds = new ArrayList<>();

		private volatile Consumer<String> onBookmark = (resourceVersion) -> {
		};

		Traffic(String path) {
			this.path = path;
		}

		ApiClient client(ApiClient client) {
			return client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(this).build());
		}

		static boolean isWatch(HttpUrl url) {
			return "true".equals(url.queryParameter("watch"));
		}

		void onBookmark(Consumer<String> action) {
			this.onBookmark = action;
		}

		/**
		 * Holds the next request that matches back until the hold is released.
		 */
		synchronized Hold holdNext(Predicate<HttpUrl> which) {
			Hold hold = new Hold(which);
			this.holds.add(hold);
			return hold;
		}

		private synchronized Hold take(HttpUrl url) {
			for (Hold hold : this.holds) {
				if (hold.which.test(url)) {
					this.holds.remove(hold);
					return hold;
				}
			}
			return null;
		}

		@Override
		public Response intercept(Chain chain) throws IOException {
			Request request = chain.request();
			HttpUrl url = request.url();
			if (!url.encodedPath().equals(this.path)) {
				return chain.proceed(request);
			}
			boolean watch = isWatch(url);
			(watch ? this.watches : this.lists).add(url);
			Hold hold = take(url);
			if (hold != null) {
				hold.hold();
			}
			Response response = chain.proceed(request);
			ResponseBody body = response.body();
			if (!watch || body == null) {
				return response;
			}
			return response.newBuilder()
				.body(ResponseBody.create(Okio.buffer(new BookmarkReader(body.source())), body.contentType(), -1))
				.build();
		}

		/**
		 * Reads a watch's events as the client reads them, before it decodes them.
		 */
		private final class BookmarkReader extends ForwardingSource {

			private final StringBuilder pending = new StringBuilder();

			BookmarkReader(Source delegate) {
				super(delegate);
			}

			@Override
			public long read(Buffer sink, long byteCount) throws IOException {
				long read = super.read(sink, byteCount);
				if (read > 0) {
					Buffer copy = new Buffer();
					sink.copyTo(copy, sink.size() - read, read);
					this.pending.append(copy.readUtf8());
					int newline;
					while ((newline = this.pending.indexOf("\n")) >= 0) {
						Matcher bookmark = BOOKMARK.matcher(this.pending.substring(0, newline));
						this.pending.delete(0, newline + 1);
						if (bookmark.find()) {
							Traffic.this.onBookmark.accept(bookmark.group(1));
						}
					}
				}
				return read;
			}

		}

	}

	/**
	 * One request held back.
	 */
	static final class Hold {

		private final Predicate<HttpUrl> which;

		private final CountDownLatch held = new CountDownLatch(1);

		private final CountDownLatch released = new CountDownLatch(1);

		Hold(Predicate<HttpUrl> which) {
			this.which = which;
		}

		void hold() {
			this.held.countDown();
			try {
				this.released.await(WAIT.toSeconds(), TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

		void awaitHeld() throws InterruptedException {
			assertThat(this.held.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("a request was held").isTrue();
		}

		void release() {
			this.released.countDown();
		}

	}

}
