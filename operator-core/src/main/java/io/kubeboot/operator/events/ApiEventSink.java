package io.kubeboot.operator.events;

import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import io.kubeboot.operator.client.ApiClients;
import io.kubeboot.operator.client.internal.AccessReviews;
import io.kubeboot.operator.client.internal.Answers;
import io.kubeboot.operator.client.internal.KindResolver;
import io.kubeboot.operator.client.internal.ModelReading;
import io.kubeboot.operator.client.internal.StatusMessages;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.EventsV1EventSeries;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ResourceAttributes;
import okhttp3.Call;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes Events through {@link EventsV1Api} or {@link CoreV1Api}, as its {@link EventApi}
 * says; with {@link EventApi#AUTO}, discovery decides before the first write
 * ({@code events.k8s.io/v1} if the API server serves it). A {@code 403} on an
 * {@code events.k8s.io} create makes {@link EventApi#AUTO} write {@code core/v1} Events
 * in that namespace only if a {@code SelfSubjectAccessReview} confirms that RBAC forbids
 * {@code events.k8s.io} Events there and allows {@code core/v1} ones, and only for
 * {@link #FALLBACK_TTL}, after which {@code events.k8s.io} is tried again: a namespace
 * being deleted or a quota also answer {@code 403}, and say nothing of RBAC. The Events
 * are built as {@code core/v1} Events ({@link EventFactory}) and turned into
 * {@code events.k8s.io/v1} ones here: {@code involvedObject} becomes {@code regarding},
 * {@code message} {@code note}, {@code reportingComponent} {@code reportingController},
 * {@code firstTimestamp} {@code eventTime}, and a count of two or more a {@code series}.
 * Patches are sent as strategic merge patches: client-java's generated
 * {@code patchNamespacedEvent} sends another content type, which the API server rejects
 * with 415. Answers are read by {@link ModelReading}'s Gson, which ignores the fields
 * client-java's models lack. Every call is bounded by a call timeout, so a hung API
 * server cannot stall the recorder's thread for long.
 */
final class ApiEventSink implements EventSink {

	/** The API group of the new Events API. */
	static final String EVENTS_GROUP = "events.k8s.io";

	// the recorder's logger: the log lines and their configuration stay as they were
	private static final Logger logger = LoggerFactory.getLogger(KubernetesEventRecorder.class);

	private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);

	private static final MediaType STRATEGIC_MERGE_PATCH = MediaType.get(V1Patch.PATCH_FORMAT_STRATEGIC_MERGE_PATCH);

	/**
	 * How long a namespace whose RBAC forbids {@code events.k8s.io} Events gets
	 * {@code core/v1} ones before {@code events.k8s.io} is tried again: RBAC fixed during
	 * a rollout takes effect without a restart.
	 */
	static final Duration FALLBACK_TTL = Duration.ofMinutes(10);

	/** How many Events created by a fallback are remembered, to patch their repeats. */
	private static final int FALLBACK_EVENTS = 4096;

	/** {@code metav1.MicroTime}'s format, which the API server parses exactly. */
	private static final DateTimeFormatter MICRO_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX");

	private final ApiClient client;

	private final CoreV1Api core;

	private final EventsV1Api events;

	private final KindResolver kinds;

	/** Reads the answers, ignoring fields client-java's models lack. */
	private final Gson answers;

	private final Map<Class<?>, String> apiVersions = new ConcurrentHashMap<>();

	private final EventApi api;

	private final LongSupplier nanoTime;

	/**
	 * The API Events go through, {@code null} until discovery told it; written by the
	 * writing thread only.
	 */
	private volatile @Nullable EventApi through;

	/**
	 * The namespaces whose RBAC allows only {@code core/v1} Events, with when to try
	 * {@code events.k8s.io} again (a reading of {@link #nanoTime}).
	 */
	private final Map<String, Long> coreOnly = new ConcurrentHashMap<>();

	/**
	 * The Events ({@code namespace/name}) created through {@code core/v1} in a namespace
	 * of {@link #coreOnly}, whose repeats are patched there too; the oldest forgotten.
	 */
	private final Set<String> coreEvents = Collections.newSetFromMap(new LinkedHashMap<>(16, 0.75f, false) {

		@Override
		protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
			return size() > FALLBACK_EVENTS;
		}

	});

	ApiEventSink(ApiClient client, EventApi api) {
		this(client, api, System::nanoTime);
	}

	ApiEventSink(ApiClient client, EventApi api, LongSupplier nanoTime) {
		this.client = ApiClients.withTimeouts(client, CALL_TIMEOUT, CALL_TIMEOUT);
		this.core = new CoreV1Api(this.client);
		this.events = new EventsV1Api(this.client);
		this.kinds = new KindResolver(this.client);
		this.answers = ModelReading.gson(this.client);
		this.api = api;
		this.nanoTime = nanoTime;
		this.through = (api != EventApi.AUTO) ? api : null;
	}

	@Override
	public String apiVersionOf(Class<? extends KubernetesObject> type) throws ApiException {
		String cached = this.apiVersions.get(type);
		if (cached != null) {
			return cached;
		}
		KindResolver.DeclaredKind declared = KindResolver.declaredKind(type);
		String group = declared.group();
		String apiVersion;
		if (group != null) {
			apiVersion = group.isEmpty() ? declared.version() : group + "/" + declared.version();
		}
		else {
			// an unprefixed client-java model (V1Deployment): only discovery knows its
			// group
			apiVersion = this.kinds.resolve(type).apiVersion();
		}
		this.apiVersions.put(type, apiVersion);
		return apiVersion;
	}

	@Override
	public CoreV1Event create(String namespace, CoreV1Event event) throws ApiException {
		if (through(namespace) == EventApi.CORE_V1) {
			return createCoreV1(namespace, event, this.coreOnly.containsKey(namespace));
		}
		try {
			EventsV1Event created = Answers.<EventsV1Event>execute("create events.k8s.io/v1 Events", this.answers,
					this.events.createNamespacedEvent(namespace, eventsV1(event)).buildCall(null), EventsV1Event.class)
				.data();
			if (created != null && created.getMetadata() != null) {
				event.getMetadata().setName(created.getMetadata().getName());
			}
			return event;
		}
		catch (ApiException ex) {
			if (this.api != EventApi.AUTO || ex.getCode() != HttpURLConnection.HTTP_FORBIDDEN
					|| !coreV1Instead(namespace, ex)) {
				throw ex;
			}
			return createCoreV1(namespace, event, true);
		}
	}

	private CoreV1Event createCoreV1(String namespace, CoreV1Event event, boolean fallback) throws ApiException {
		CoreV1Event answer = Answers
			.<CoreV1Event>execute("create core/v1 Events", this.answers,
					this.core.createNamespacedEvent(namespace, event).buildCall(null), CoreV1Event.class)
			.data();
		// the API server answers with the Event; an empty answer leaves the one sent
		CoreV1Event created = (answer != null) ? answer : event;
		if (fallback) {
			String name = (created.getMetadata() != null) ? created.getMetadata().getName() : null;
			synchronized (this.coreEvents) {
				this.coreEvents.add(namespace + "/" + name);
			}
		}
		return created;
	}

	/**
	 * Decides, after a {@code 403} on an {@code events.k8s.io} create, whether the
	 * namespace gets {@code core/v1} Events for {@link #FALLBACK_TTL}: only if RBAC
	 * forbids {@code events.k8s.io} Events there (not a namespace being deleted, nor a
	 * quota) and allows {@code core/v1} ones, an operator upgraded before its RBAC, or
	 * RBAC granted per namespace.
	 * @param namespace the namespace
	 * @param forbidden the {@code 403}
	 * @return whether to write a {@code core/v1} Event instead
	 * @throws ApiException if the API server could not be asked
	 */
	private boolean coreV1Instead(String namespace, ApiException forbidden) throws ApiException {
		if (mayCreate(namespace, EVENTS_GROUP)) {
			// not RBAC: the namespace is being deleted, a quota is used up, an admission
			// webhook refused; core/v1 would be refused too
			return false;
		}
		if (!mayCreate(namespace, "")) {
			// the drop is logged with the 403 (DroppedEvents)
			logger.debug("RBAC forbids creating Events through both events.k8s.io/v1 and core/v1: namespace={}",
					namespace);
			return false;
		}
		Long previous = this.coreOnly.put(namespace, this.nanoTime.getAsLong() + FALLBACK_TTL.toNanos());
		if (previous == null) {
			logger.warn("RBAC forbids creating events.k8s.io/v1 Events in a namespace, recording core/v1 Events there "
					+ "for {}: allow create and patch on events.events.k8s.io to record events.k8s.io/v1 Events: "
					+ "namespace={} error=\"{}\"", FALLBACK_TTL, namespace, StatusMessages.describe(forbidden));
		}
		return true;
	}

	private boolean mayCreate(String namespace, String group) throws ApiException {
		return AccessReviews.isAllowed(this.client,
				new V1ResourceAttributes().group(group).resource("events").verb("create").namespace(namespace));
	}

	@Override
	public void patch(String namespace, String name, int count, OffsetDateTime lastTimestamp) throws ApiException {
		JsonObject patch = new JsonObject();
		boolean core;
		synchronized (this.coreEvents) {
			core = this.coreEvents.contains(namespace + "/" + name);
		}
		if (core || through() == EventApi.CORE_V1) {
			patch.addProperty("count", count);
			// a core/v1 Event's times are whole seconds
			patch.addProperty("lastTimestamp",
					DateTimeFormatter.ISO_INSTANT.format(lastTimestamp.truncatedTo(ChronoUnit.SECONDS)));
			String body = patch.toString();
			strategicMerge("patch core/v1 Events",
					this.core.patchNamespacedEvent(name, namespace, new V1Patch(body)).buildCall(null), body);
			return;
		}
		JsonObject series = new JsonObject();
		series.addProperty("count", count);
		series.addProperty("lastObservedTime", microTime(lastTimestamp));
		patch.add("series", series);
		String body = patch.toString();
		strategicMerge("patch events.k8s.io/v1 Events",
				this.events.patchNamespacedEvent(name, namespace, new V1Patch(body)).buildCall(null), body);
	}

	/**
	 * Sends a patch call as a strategic merge patch (client-java sends it as
	 * {@code application/json}), its answer not read.
	 */
	private void strategicMerge(String what, Call call, String patch) throws ApiException {
		Request request = call.request()
			.newBuilder()
			.header("Content-Type", STRATEGIC_MERGE_PATCH.toString())
			.patch(RequestBody.create(patch.getBytes(StandardCharsets.UTF_8), STRATEGIC_MERGE_PATCH))
			.build();
		Answers.execute(what, this.answers, this.client.getHttpClient().newCall(request), null);
	}

	/**
	 * Returns the API Events go through in a namespace: {@link #through()}, or
	 * {@code core/v1} while RBAC allows only that there.
	 */
	private EventApi through(String namespace) throws ApiException {
		Long until = this.coreOnly.get(namespace);
		if (until != null) {
			if (until - this.nanoTime.getAsLong() > 0) {
				return EventApi.CORE_V1;
			}
			this.coreOnly.remove(namespace, until);
			logger.info("Trying events.k8s.io/v1 Events again in a namespace where RBAC forbade them: namespace={}",
					namespace);
		}
		return through();
	}

	/**
	 * Returns the API Events go through, asking discovery the first time for
	 * {@link EventApi#AUTO}.
	 * @throws ApiException if discovery failed for another reason than the group not
	 * being served: the write fails, and is retried if the failure may pass
	 */
	private EventApi through() throws ApiException {
		EventApi known = this.through;
		if (known != null) {
			return known;
		}
		try {
			Answers.execute("GET /apis/events.k8s.io/v1", this.answers, this.events.getAPIResources().buildCall(null),
					null);
			known = EventApi.EVENTS_V1;
		}
		catch (ApiException ex) {
			if (ex.getCode() != 404) {
				throw ex;
			}
			known = EventApi.CORE_V1;
		}
		logger.info("Recording Events through {}: api={}", (known == EventApi.EVENTS_V1) ? "events.k8s.io/v1"
				: "core/v1, the API server does not serve events.k8s.io/v1", known);
		this.through = known;
		return known;
	}

	/**
	 * Returns the {@code events.k8s.io/v1} Event of a {@code core/v1} one the
	 * {@link EventFactory} built.
	 * @param event the {@code core/v1} Event
	 * @return the {@code events.k8s.io/v1} Event
	 */
	static EventsV1Event eventsV1(CoreV1Event event) {
		V1ObjectMeta metadata = event.getMetadata();
		int count = (event.getCount() != null) ? event.getCount() : 1;
		return new EventsV1Event()
			.metadata(new V1ObjectMeta().name(metadata.getName()).namespace(metadata.getNamespace()))
			.eventTime(event.getFirstTimestamp())
			.reportingController(event.getReportingComponent())
			.reportingInstance(event.getReportingInstance())
			.action(event.getAction())
			.reason(event.getReason())
			.regarding(event.getInvolvedObject())
			.note(event.getMessage())
			.type(event.getType())
			.series((count >= 2) ? new EventsV1EventSeries().count(count).lastObservedTime(event.getLastTimestamp())
					: null);
	}

	private static String microTime(OffsetDateTime time) {
		return MICRO_TIME.format(time.withOffsetSameInstant(ZoneOffset.UTC));
	}

}
