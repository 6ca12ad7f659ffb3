package io.kubeboot.operator.benchmarks.writes;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import io.kubeboot.operator.benchmarks.child.ChildSettings;
import io.kubeboot.operator.benchmarks.child.ClientJavaStatusPatch;
import io.kubeboot.operator.benchmarks.child.ClientStatusPatch;
import io.kubeboot.operator.benchmarks.child.Probe;
import io.kubeboot.operator.benchmarks.child.StatusPatch;
import io.kubeboot.operator.benchmarks.child.WidgetWorkload;
import io.kubeboot.operator.benchmarks.model.Widget;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.client.Reader;
import io.kubeboot.operator.reconcile.Request;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.Pair;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.ClientBuilder;
import okhttp3.Call;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Response;

/**
 * Writes widgets' {@code status.observedGeneration} along one {@link WritePath} with
 * {@value WidgetWorkload#WORKERS} threads, as a drain's reconcilers do, once to warm up
 * and once measured, then reports on standard output
 * {@code BENCH writes <count> <wall ns> <process CPU ns> <bytes allocated> <protocol>}
 * and exits. Every write sets a new value, so that none is a no-op for the API server.
 */
public final class StatusWritesMain {

	/** The number of widgets written, {@code widget-00000} on. */
	public static final String WIDGETS = "BENCH_WIDGETS";

	/** The writes of the warm-up, not measured. */
	public static final String WARM_UP_WRITES = "BENCH_WARM_UP_WRITES";

	/** The writes measured. */
	public static final String WRITES = "BENCH_WRITES";

	private static final String FIELD_MANAGER = "benchmark";

	private StatusWritesMain() {
	}

	public static void main(String[] args) {
		try {
			run();
		}
		catch (Throwable ex) {
			ex.printStackTrace();
			System.exit(1);
		}
	}

	private static void run() throws Exception {
		String namespace = ChildSettings.fromEnvironment().namespace();
		WritePath path = WritePath.of(System.getenv(WritePath.ENVIRONMENT));
		List<Widget> widgets = new ArrayList<>();
		for (int i = 0; i < Integer.parseInt(System.getenv(WIDGETS)); i++) {
			Widget widget = new Widget();
			widget.setMetadata(new V1ObjectMeta().namespace(namespace).name("widget-%05d".formatted(i)));
			widgets.add(widget);
		}
		ApiClient client = ClientBuilder.standard().build();
		ProtocolSeen protocol = new ProtocolSeen();
		OkHttpClient.Builder http = client.getHttpClient().newBuilder().addNetworkInterceptor(protocol);
		if (!path.http2()) {
			http.protocols(List.of(Protocol.HTTP_1_1));
		}
		client.setHttpClient(http.build());
		StatusPatch writer = switch (path) {
			case CLIENT_HTTP2, CLIENT_HTTP1 ->
				new ClientStatusPatch(Client.create(client, new NoReads(), FIELD_MANAGER, Duration.ofSeconds(30)));
			case CLIENT_JAVA -> new ClientJavaStatusPatch(client);
			case UNDECODED -> new UndecodedStatusPatch(client);
		};
		ExecutorService workers = Executors.newFixedThreadPool(WidgetWorkload.WORKERS);
		AtomicLong generation = new AtomicLong(System.currentTimeMillis());
		write(workers, writer, widgets, Integer.parseInt(System.getenv(WARM_UP_WRITES)), generation);
		int writes = Integer.parseInt(System.getenv(WRITES));
		Usage before = Usage.now();
		long started = System.nanoTime();
		write(workers, writer, widgets, writes, generation);
		long wall = System.nanoTime() - started;
		Usage after = Usage.now();
		workers.shutdown();
		System.out.println(Probe.PREFIX + "writes " + writes + " " + wall + " " + (after.cpu - before.cpu) + " "
				+ after.allocatedSince(before) + " " + protocol.seen);
	}

	private static void write(ExecutorService workers, StatusPatch writer, List<Widget> widgets, int count,
			AtomicLong generation) throws Exception {
		List<Future<?>> done = new ArrayList<>();
		for (int worker = 0; worker < WidgetWorkload.WORKERS; worker++) {
			int first = worker;
			done.add(workers.submit(() -> {
				for (int i = first; i < count; i += WidgetWorkload.WORKERS) {
					writer.patch(widgets.get(i % widgets.size()), generation.incrementAndGet());
				}
				return null;
			}));
		}
		for (Future<?> each : done) {
			each.get();
		}
	}

	/**
	 * The process's CPU time and the bytes each live thread allocated, at one moment.
	 */
	private record Usage(long cpu, Map<Long, Long> allocated) {

		static Usage now() {
			com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory
				.getThreadMXBean();
			long[] ids = threads.getAllThreadIds();
			long[] bytes = threads.getThreadAllocatedBytes(ids);
			Map<Long, Long> allocated = new HashMap<>();
			for (int i = 0; i < ids.length; i++) {
				allocated.put(ids[i], bytes[i]);
			}
			long cpu = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
				.getProcessCpuTime();
			return new Usage(cpu, allocated);
		}

		/**
		 * What the threads allocated in between: those started in between count in full,
		 * those that ended in between not at all.
		 */
		long allocatedSince(Usage before) {
			long sum = 0;
			for (Map.Entry<Long, Long> entry : this.allocated.entrySet()) {
				Long earlier = before.allocated.get(entry.getKey());
				if (entry.getValue() > 0) {
					sum += entry.getValue() - ((earlier != null && earlier > 0) ? earlier : 0);
				}
			}
			return sum;
		}

	}

	/**
	 * The starter's status patch, sent as its client sends it (path, query, headers,
	 * body), the answer's bytes read and dropped.
	 */
	private static final class UndecodedStatusPatch implements StatusPatch {

		private static final String[] AUTH = { "BearerToken" };

		private final ApiClient client;

		UndecodedStatusPatch(ApiClient client) {
			this.client = client;
		}

		@Override
		public void patch(Widget widget, long observedGeneration) throws Exception {
			String path = "/apis/%s/%s/namespaces/%s/%s/%s/status".formatted(Widget.GROUP, Widget.VERSION,
					widget.getMetadata().getNamespace(), Widget.PLURAL, widget.getMetadata().getName());
			byte[] body = ("{\"status\":{\"observedGeneration\":" + observedGeneration + "}}")
				.getBytes(StandardCharsets.UTF_8);
			Map<String, String> headers = new HashMap<>(
					Map.of("Accept", "application/json", "Content-Type", "application/merge-patch+json"));
			Call call = this.client.buildCall(null, path, "PATCH",
					new ArrayList<>(List.of(new Pair("fieldManager", FIELD_MANAGER))), List.of(), body, headers,
					Map.of(), Map.of(), AUTH, null);
			try (Response response = call.execute()) {
				if (!response.isSuccessful()) {
					throw new IOException("PATCH " + path + " answered " + response.code());
				}
				response.body().bytes();
			}
		}

	}

	/** The protocol of the last response, as the connection negotiated it. */
	private static final class ProtocolSeen implements okhttp3.Interceptor {

		private volatile String seen = "none";

		@Override
		public Response intercept(Chain chain) throws IOException {
			Response response = chain.proceed(chain.request());
			this.seen = response.protocol().toString();
			return response;
		}

	}

	/** No reads: the scenario only writes. */
	private static final class NoReads implements Reader {

		@Override
		public <T extends KubernetesObject> Optional<T> get(Class<T> type, Request request) {
			throw new UnsupportedOperationException("the status writes scenario reads nothing");
		}

		@Override
		public <T extends KubernetesObject> List<T> list(Class<T> type, String namespace) {
			throw new UnsupportedOperationException("the status writes scenario reads nothing");
		}

	}

}
