package io.kubeboot.operator.events;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Which API {@link ApiEventSink} writes through and what it sends, against a scripted
 * server: discovery serving {@code events.k8s.io/v1} or not, RBAC forbidding it, or a
 * {@code 403} that is no RBAC denial. The real API server's answers are in
 * {@link EventsV1RecorderIntegrationTests}.
 */
class ApiEventSinkTests {

	private static final String DISCOVERY = "GET /apis/events.k8s.io/v1";

	private static final String EVENTS_V1 = "POST /apis/events.k8s.io/v1/namespaces/ns/events";

	private static final String CORE_V1 = "POST /api/v1/namespaces/ns/events";

	private static final String REVIEW = "POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews";

	private static final OffsetDateTime FIRST = OffsetDateTime.of(2026, 1, 2, 3, 4, 5, 0, ZoneOffset.UTC);

	/** Every request, as {@code METHOD path}. */
	private final List<String> requests = new CopyOnWriteArrayList<>();

	/** The body of the last request to each {@code METHOD path}. */
	private final Map<String, JsonObject> bodies = new ConcurrentHashMap<>();

	/** The content type of the last request to each {@code METHOD path}. */
	private final Map<String, String> contentTypes = new ConcurrentHashMap<>();

	/** Whether the created Events are answered with a field of a newer release. */
	private volatile boolean newerField;

	/** The status each {@code METHOD path} is answered with, 200 (or 201) if none. */
	private final Map<String, Integer> statuses = new ConcurrentHashMap<>();

	/**
	 * Where RBAC allows creating Events, as {@code <group> <namespace>}; nowhere unless
	 * added.
	 */
	private final Set<String> allowed = ConcurrentHashMap.newKeySet();

	/** The SelfSubjectAccessReviews asked, in order. */
	private final List<String> reviewed = new CopyOnWriteArrayList<>();

	private HttpServer server;

	@BeforeEach
	void start() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/", this::answer);
		this.server.start();
	}

	@AfterEach
	void stop() {
		this.server.stop(0);
	}

	@Test
	void autoWritesEventsV1WhereDiscoveryServesIt() throws Exception {
		ApiEventSink sink = sink(EventApi.AUTO);
		CoreV1Event created = sink.create("ns", event(1));
		sink.create("ns", event(1));
		assertThat(created.getMetadata().getName()).isEqualTo("settings.1");
		// discovery is asked once
		assertThat(this.requests).containsExactly(DISCOVERY, EVENTS_V1, EVENTS_V1);
		JsonObject body = this.bodies.get(EVENTS_V1);
		assertThat(body.keySet()).containsExactlyInAnyOrder("metadata", "eventTime", "reportingController",
				"reportingInstance", "action", "reason", "regarding", "note", "type");
		assertThat(body.get("eventTime").getAsString()).isEqualTo("2026-01-02T03:04:05.000000Z");
		assertThat(body.get("reportingController").getAsString()).isEqualTo("shop-operator");
		assertThat(body.get("action").getAsString()).isEqualTo("Sync");
		assertThat(body.get("note").getAsString()).isEqualTo("Synced the settings");
		assertThat(body.getAsJsonObject("regarding").get("name").getAsString()).isEqualTo("settings");
	}

	@Test
	void anEventFirstWrittenWithRepeatsIsCreatedAsASeries() throws Exception {
		ApiEventSink sink = sink(EventApi.EVENTS_V1);
		sink.create("ns", event(3));
		assertThat(this.requests).containsExactly(EVENTS_V1);
		JsonObject series = this.bodies.get(EVENTS_V1).getAsJsonObject("series");
		assertThat(series.get("count").getAsInt()).isEqualTo(3);
		assertThat(series.get("lastObservedTime").getAsString()).isEqualTo("2026-01-02T03:04:07.000000Z");
	}

	@Test
	void aRepeatIsAStrategicMergePatchOfTheSeries() throws Exception {
		ApiEventSink sink = sink(EventApi.EVENTS_V1);
		sink.patch("ns", "settings.1", 4, FIRST.plusSeconds(9));
		String patch = "PATCH /apis/events.k8s.io/v1/namespaces/ns/events/settings.1";
		assertThat(this.requests).containsExactly(patch);
		assertThat(this.bodies.get(patch))
			.hasToString("{\"series\":{\"count\":4,\"lastObservedTime\":\"2026-01-02T03:04:14.000000Z\"}}");
		assertThat(this.contentTypes.get(patch)).startsWith("application/strategic-merge-patch+json");
	}

	@Test
	void createdEventsAnsweredWithFieldsOfANewerReleaseAreRead() throws Exception {
		this.newerField = true;
		assertThat(sink(EventApi.EVENTS_V1).create("ns", event(1)).getMetadata().getName()).isEqualTo("settings.1");
		assertThat(sink(EventApi.CORE_V1).create("ns", event(1)).getMetadata().getName()).isEqualTo("settings.1");
	}

	@Test
	void eventsV1TimesKeepTheirMicrosecondsAndCoreV1TimesAreWholeSeconds() throws Exception {
		OffsetDateTime first = FIRST.plusNanos(123_456_789);
		OffsetDateTime last = FIRST.plusSeconds(1).plusNanos(5_000);
		sink(EventApi.EVENTS_V1).create("ns", event(2).firstTimestamp(first).lastTimestamp(last));
		JsonObject body = this.bodies.get(EVENTS_V1);
		assertThat(body.get("eventTime").getAsString()).isEqualTo("2026-01-02T03:04:05.123456Z");
		assertThat(body.getAsJsonObject("series").get("lastObservedTime").getAsString())
			.isEqualTo("2026-01-02T03:04:06.000005Z");
		sink(EventApi.EVENTS_V1).patch("ns", "settings.1", 3, FIRST.plusSeconds(2).plusNanos(7_000));
		assertThat(this.bodies.get("PATCH /apis/events.k8s.io/v1/namespaces/ns/events/settings.1"))
			.hasToString("{\"series\":{\"count\":3,\"lastObservedTime\":\"2026-01-02T03:04:07.000007Z\"}}");
		sink(EventApi.CORE_V1).patch("ns", "settings.1", 3, FIRST.plusSeconds(2).plusNanos(7_000));
		assertThat(this.bodies.get("PATCH /api/v1/namespaces/ns/events/settings.1"))
			.hasToString("{\"count\":3,\"lastTimestamp\":\"2026-01-02T03:04:07Z\"}");
		assertThat(this.contentTypes.get("PATCH /api/v1/namespaces/ns/events/settings.1"))
			.startsWith("application/strategic-merge-patch+json");
	}

	@Test
	void autoWritesCoreV1WhereTheApiServerDoesNotServeEventsV1() throws Exception {
		this.statuses.put(DISCOVERY, 404);
		ApiEventSink sink = sink(EventApi.AUTO);
		sink.create("ns", event(1));
		sink.patch("ns", "settings.1", 2, FIRST.plusSeconds(1));
		assertThat(this.requests).containsExactly(DISCOVERY, CORE_V1, "PATCH /api/v1/namespaces/ns/events/settings.1");
		assertThat(this.bodies.get(CORE_V1).getAsJsonObject("involvedObject").get("name").getAsString())
			.isEqualTo("settings");
		assertThat(this.bodies.get(CORE_V1).getAsJsonObject("source").get("component").getAsString())
			.isEqualTo("shop-operator");
	}

	@Test
	void autoWritesCoreV1InANamespaceWhoseRbacForbidsEventsV1AndAllowsCoreV1() throws Exception {
		this.statuses.put(EVENTS_V1, 403);
		this.allowed.add(" ns");
		ApiEventSink sink = sink(EventApi.AUTO);
		sink.create("ns", event(1));
		assertThat(this.requests).containsExactly(DISCOVERY, EVENTS_V1, REVIEW, REVIEW, CORE_V1);
		assertThat(this.reviewed).containsExactly("create events.k8s.io/events in ns", "create /events in ns");
		this.requests.clear();
		sink.create("ns", event(1));
		sink.patch("ns", "settings.1", 2, FIRST.plusSeconds(1));
		// another namespace's RBAC may allow events.k8s.io
		sink.create("other", event(1));
		assertThat(this.requests).containsExactly(CORE_V1, "PATCH /api/v1/namespaces/ns/events/settings.1",
				"POST /apis/events.k8s.io/v1/namespaces/other/events");
	}

	@Test
	void aForbiddenCreateThatRbacAllowsChangesNothing() {
		// as a namespace being deleted or a used-up quota answer
		this.statuses.put(EVENTS_V1, 403);
		this.allowed.add("events.k8s.io ns");
		this.allowed.add(" ns");
		ApiEventSink sink = sink(EventApi.AUTO);
		for (int i = 0; i < 2; i++) {
			assertThatExceptionOfType(ApiException.class).isThrownBy(() -> sink.create("ns", event(1)))
				.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(403));
		}
		assertThat(this.requests).containsExactly(DISCOVERY, EVENTS_V1, REVIEW, EVENTS_V1, REVIEW);
	}

	@Test
	void autoNeverFallsBackToCoreV1WhereRbacForbidsThatToo() {
		this.statuses.put(EVENTS_V1, 403);
		ApiEventSink sink = sink(EventApi.AUTO);
		assertThatExceptionOfType(ApiException.class).isThrownBy(() -> sink.create("ns", event(1)))
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(403));
		assertThat(this.requests).containsExactly(DISCOVERY, EVENTS_V1, REVIEW, REVIEW);
	}

	@Test
	void autoTriesEventsV1AgainOnceTheFallbackExpired() throws Exception {
		this.statuses.put(EVENTS_V1, 403);
		this.allowed.add(" ns");
		AtomicLong now = new AtomicLong();
		ApiEventSink sink = sink(EventApi.AUTO, now::get);
		sink.create("ns", event(1));
		now.addAndGet(ApiEventSink.FALLBACK_TTL.toNanos() - 1);
		sink.create("ns", event(1));
		this.statuses.remove(EVENTS_V1);
		this.requests.clear();
		now.addAndGet(1);
		sink.create("ns", event(1));
		// an Event created through core/v1 is patched there
		sink.patch("ns", "settings.1", 2, FIRST.plusSeconds(1));
		assertThat(this.requests).containsExactly(EVENTS_V1, "PATCH /api/v1/namespaces/ns/events/settings.1");
	}

	@Test
	void eventsV1OnlyNeverFallsBack() {
		this.statuses.put(EVENTS_V1, 403);
		ApiEventSink sink = sink(EventApi.EVENTS_V1);
		assertThatExceptionOfType(ApiException.class).isThrownBy(() -> sink.create("ns", event(1)))
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(403));
		assertThat(this.requests).containsExactly(EVENTS_V1);
	}

	@Test
	void coreV1OnlyNeverAsksDiscovery() throws Exception {
		sink(EventApi.CORE_V1).create("ns", event(1));
		assertThat(this.requests).containsExactly(CORE_V1);
	}

	@Test
	void aFailedDiscoveryFailsTheWriteAndIsAskedAgainNextTime() throws Exception {
		this.statuses.put(DISCOVERY, 503);
		ApiEventSink sink = sink(EventApi.AUTO);
		assertThatExceptionOfType(ApiException.class).isThrownBy(() -> sink.create("ns", event(1)))
			.satisfies((ex) -> assertThat(WriteFailures.mayPass(ex)).isTrue());
		this.statuses.remove(DISCOVERY);
		sink.create("ns", event(1));
		assertThat(this.requests).containsExactly(DISCOVERY, DISCOVERY, EVENTS_V1);
	}

	private ApiEventSink sink(EventApi api) {
		return sink(api, System::nanoTime);
	}

	private ApiEventSink sink(EventApi api, LongSupplier nanoTime) {
		ApiClient client = new ApiClient();
		client.setBasePath("http://127.0.0.1:" + this.server.getAddress().getPort());
		return new ApiEventSink(client, api, nanoTime);
	}

	/** An Event as the {@link EventFactory} builds it. */
	private static CoreV1Event event(int count) {
		return new CoreV1Event().metadata(new V1ObjectMeta().name("settings.1").namespace("ns"))
			.involvedObject(new V1ObjectReference().apiVersion("v1").kind("ConfigMap").name("settings").namespace("ns"))
			.reason("Synced")
			.action("Sync")
			.message("Synced the settings")
			.type("Normal")
			.source(new V1EventSource().component("shop-operator"))
			.reportingComponent("shop-operator")
			.reportingInstance("shop-operator-0")
			.firstTimestamp(FIRST)
			.lastTimestamp(FIRST.plusSeconds(count - 1))
			.count(count);
	}

	private void answer(HttpExchange exchange) throws IOException {
		String path = exchange.getRequestURI().getPath();
		String request = exchange.getRequestMethod() + " "
				+ (path.endsWith("/") ? path.substring(0, path.length() - 1) : path);
		this.requests.add(request);
		String sent = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
		if (!sent.isEmpty()) {
			this.bodies.put(request, JsonParser.parseString(sent).getAsJsonObject());
			this.contentTypes.put(request, exchange.getRequestHeaders().getFirst("Content-Type"));
		}
		int status = this.statuses.getOrDefault(request, request.startsWith("POST") ? 201 : 200);
		String body;
		if (status >= 400) {
			body = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":" + status + "}";
		}
		else if (request.equals(REVIEW)) {
			JsonObject review = JsonParser.parseString(sent).getAsJsonObject();
			JsonObject attributes = review.getAsJsonObject("spec").getAsJsonObject("resourceAttributes");
			String group = attributes.has("group") ? attributes.get("group").getAsString() : "";
			String namespace = attributes.get("namespace").getAsString();
			this.reviewed.add(attributes.get("verb").getAsString() + " " + group + "/"
					+ attributes.get("resource").getAsString() + " in " + namespace);
			JsonObject decision = new JsonObject();
			decision.addProperty("allowed", this.allowed.contains(group + " " + namespace));
			review.add("status", decision);
			body = review.toString();
		}
		else if (request.equals(DISCOVERY)) {
			body = "{\"kind\":\"APIResourceList\",\"apiVersion\":\"v1\",\"groupVersion\":\"events.k8s.io/v1\","
					+ "\"resources\":[]}";
		}
		else if (request.startsWith("PATCH")) {
			// the Event, as the API server answers a patch
			String metadata = "{\"metadata\":{\"name\":\"settings.1\",\"namespace\":\"ns\"},";
			body = metadata + (request.contains("events.k8s.io")
					? "\"eventTime\":\"2026-01-02T03:04:05.000000Z\",\"regarding\":{}}" : "\"involvedObject\":{}}");
		}
		else if (this.newerField) {
			JsonObject created = JsonParser.parseString(sent).getAsJsonObject();
			created.addProperty("fieldOfANewerRelease", "x");
			body = created.toString();
		}
		else {
			body = sent;
		}
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(status, bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

}
