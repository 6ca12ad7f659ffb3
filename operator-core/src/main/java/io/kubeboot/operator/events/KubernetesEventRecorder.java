package io.kubeboot.operator.events;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.config.internal.ConfigChecks;
import io.kubeboot.operator.manager.ManagerRunnable;
import io.kubeboot.operator.manager.StopSignal;
import io.kubeboot.operator.rbac.Permission;
import io.kubeboot.operator.workqueue.Ticker;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import org.jspecify.annotations.Nullable;

/**
 * An {@link EventRecorder} that writes Events to the API server like client-go's
 * recorders: {@code events.k8s.io/v1} Events where the API server serves them, as
 * controller-runtime 0.23 does, {@code core/v1} Events otherwise (see {@link EventApi};
 * {@link Builder#api} chooses). An {@code events.k8s.io/v1} Event's {@code regarding}
 * references the object (apiVersion, kind, name, namespace, uid, resourceVersion),
 * {@code reportingController} is the recorder's component, {@code reportingInstance} its
 * host name, {@code eventTime} when it was first recorded, and a repeat makes it a
 * {@code series} ({@code count}, {@code lastObservedTime}). A {@code core/v1} Event has
 * the same in {@code involvedObject}, {@code source.component} and
 * {@code reportingComponent}, {@code reportingInstance}, {@code firstTimestamp},
 * {@code lastTimestamp} and {@code count}. Events about cluster-scoped objects go to the
 * {@code default} namespace. Event names are
 * {@code <object name>.<hex of the wall-clock nanoseconds>}.
 * <p>
 * <b>Lifecycle.</b> The recorder is a {@link ManagerRunnable} that runs on every replica:
 * {@link #start(StopSignal)} writes events on the calling thread until the signal fires,
 * then flushes what is pending for at most {@code flushTimeout} and returns. Add it to
 * the manager ({@code manager.add("event-recorder", recorder)}), which starts it once the
 * caches have synced and stops it after the leader-only runnables (the controllers), so
 * the events of the last reconciles are written. {@link Builder#build()} starts no
 * thread; events recorded before {@code start} wait in memory (as many distinct events as
 * the queue capacity) and are written once started. Without a manager, call {@code start}
 * on a thread of your own and stop it with {@link #close()} (or by firing the signal);
 * {@code close()} flushes even if {@code start} was never called. A recorder runs once:
 * once stopped, it drops (and counts) the events recorded, and {@code start} returns at
 * once.
 * <p>
 * <b>Never blocks, never throws.</b> {@link #record} only updates an in-memory table of
 * pending events and returns; the thread running {@code start} writes them. At most
 * {@code queueCapacity} distinct events wait at a time; an event that finds the table
 * full is dropped, counted in {@link #droppedCount()} and reported in a warning logged at
 * most every 10 seconds. A write that fails is logged and, if the failure may pass (the
 * API server unreachable, 429, 5xx), retried with backoff (1s doubling to 30s, 8 attempts
 * in all); the counts it carried are kept.
 * <p>
 * <b>Aggregation without losing counts.</b> Identical events (same involved object, type,
 * reason, action and message) become one Event whose count ({@code series.count}, or
 * {@code count}) grows and whose last time ({@code series.lastObservedTime}, or
 * {@code lastTimestamp}) moves. While an identical event is pending, or was written less
 * than {@code aggregationInterval} ago, a new one only adds to the pending count; the
 * accumulated count is written at most once per interval per Event, by a strategic merge
 * patch of those two fields. The Event written for each key is remembered in an LRU of
 * {@code cacheSize} entries; if a patch finds it gone (Events expire, by default after an
 * hour), a new Event is created. 100 identical events recorded in a burst therefore end
 * as one Event with {@code count: 100}, written with two requests.
 * <p>
 * <b>Rate limit.</b> All writes share a token bucket of {@code qps} writes per second
 * with a burst of {@code burst}; under overload events wait (and coalesce) in the table.
 * <p>
 * <b>Stop.</b> When the signal fires or {@link #close()} is called, every pending count
 * is written at once (ignoring the aggregation interval and the rate limit) for at most
 * {@code flushTimeout}; then a write still in progress is interrupted, and what could not
 * be written is logged and counted as dropped. Thread-safe.
 */
public final class KubernetesEventRecorder implements EventRecorder, ManagerRunnable, AutoCloseable {

	/**
	 * The longest message written, in UTF-8 bytes (the limit events.k8s.io/v1 puts on its
	 * {@code note}); longer messages are cut between two characters and end with
	 * {@code ...}.
	 */
	public static final int MESSAGE_LIMIT = 1024;

	private final String component;

	private final String reportingInstance;

	private final Clock clock;

	private final DroppedEvents dropped;

	private final EventQueue queue;

	private final WriterLoop writerLoop;

	private final EventApi api;

	private KubernetesEventRecorder(Builder builder) {
		this.component = builder.component;
		this.reportingInstance = EventFactory.reportingInstance((builder.reportingInstance != null)
				? builder.reportingInstance : EventFactory.defaultReportingInstance(builder.component));
		this.clock = builder.clock;
		this.dropped = new DroppedEvents(this.component, builder.ticker);
		EventRecorderConfig config = builder.config();
		this.api = config.api();
		this.queue = new EventQueue(new AggregationTable(config.queueCapacity()),
				new WrittenEvents(config.cacheSize(), config.aggregationInterval().toNanos()),
				new WriteRateLimit(config.qps(), config.burst(), builder.ticker), builder.ticker);
		EventWriter writer = new EventWriter(builder.sink.apply(this.api), this.queue,
				new EventFactory(this.component, this.reportingInstance, builder.clock), this.dropped);
		this.writerLoop = new WriterLoop(this.queue, writer, this.dropped, this.component, config.flushTimeout());
	}

	/**
	 * Returns a builder of a recorder writing through the given client.
	 * @param client the client; calls use their own timeouts, the client is not modified
	 * @return the builder
	 */
	public static Builder builder(ApiClient client) {
		Objects.requireNonNull(client, "client must not be null");
		return new Builder((api) -> new ApiEventSink(client, api));
	}

	static Builder builder(EventSink sink) {
		return new Builder((api) -> sink);
	}

	/**
	 * Returns the component this recorder reports in {@code source.component} and
	 * {@code reportingComponent}.
	 * @return the component
	 */
	public String component() {
		return this.component;
	}

	/**
	 * Returns the instance this recorder reports in {@code reportingInstance}.
	 * @return the instance, by default the host name
	 */
	public String reportingInstance() {
		return this.reportingInstance;
	}

	/**
	 * Returns how many recorded occurrences were dropped and will never be written:
	 * because the table of pending events was full, a write failed for good, the object
	 * could not be referenced, or the recorder had stopped.
	 * @return the number of dropped occurrences
	 */
	public long droppedCount() {
		return this.dropped.total();
	}

	/**
	 * Returns whether this recorder stopped or is stopping: {@link #close()} was called
	 * or the stop signal given to {@link #start} fired. Events recorded from then on are
	 * dropped.
	 * @return whether this recorder is closed
	 */
	public boolean isClosed() {
		return this.queue.isClosed();
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Returns at once, whether the recorder runs or not. Never throws: an event about an
	 * object without a name, or recorded after the recorder stopped, is logged and
	 * dropped. An empty or {@code null} reason is recorded as {@code Unknown}, a
	 * {@code null} message as empty; a reason longer than 128 UTF-8 bytes is cut, a
	 * message longer than {@link #MESSAGE_LIMIT} bytes too (the limits of
	 * {@code events.k8s.io/v1}).
	 */
	@Override
	public void record(@Nullable KubernetesObject object, @Nullable EventType type, @Nullable String reason,
			@Nullable String message) {
		record(object, type, reason, null, message);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Returns at once, as {@link #record(KubernetesObject, EventType, String, String)}
	 * does, and keeps the action: none, or an empty one, is recorded as the reason, an
	 * empty reason as the action, and either is cut to 128 UTF-8 bytes.
	 */
	@Override
	public void record(@Nullable KubernetesObject object, @Nullable Event event) {
		if (event == null) {
			record(object, null, null, null, null);
			return;
		}
		record(object, event.type(), event.reason(), event.action(), event.message());
	}

	private void record(@Nullable KubernetesObject object, @Nullable EventType type, @Nullable String reason,
			@Nullable String action, @Nullable String message) {
		try {
			String because = EventFactory.reason((reason != null) ? reason : "", (action != null) ? action : "");
			enqueue(object, (type != null) ? type : EventType.NORMAL, because,
					EventFactory.action((action != null) ? action : "", because), (message != null) ? message : "");
		}
		catch (RuntimeException ex) {
			this.dropped.drop("error", 1, "reason=" + reason + " error=" + ex);
		}
	}

	private void enqueue(@Nullable KubernetesObject object, EventType type, String reason, String action,
			String message) {
		V1ObjectReference reference = InvolvedObjects.referenceTo(object);
		if (object == null || reference == null) {
			this.dropped.drop("invalid-object", 1, "reason=" + reason + " error=the object has no metadata.name");
			return;
		}
		EventKey key = new EventKey(object.getClass(), Objects.requireNonNullElse(reference.getKind(), ""),
				reference.getNamespace(), Objects.requireNonNull(reference.getName()), reference.getUid(), type, reason,
				action, EventFactory.truncate(message));
		Instant now = this.clock.instant();
		String refused = this.queue.offer(key, reference, now);
		if (refused != null) {
			this.dropped.drop(refused, 1,
					"event=" + key + (refused.equals(EventQueue.FULL) ? " capacity=" + this.queue.capacity() : ""));
		}
	}

	/**
	 * Writes events on the calling thread until the stop signal fires or {@link #close()}
	 * is called, then writes what is pending for at most the flush timeout and returns:
	 * blocks for as long as the recorder runs. A write still in progress at the flush
	 * timeout is interrupted, and this method then returns with the thread's interrupt
	 * status set. Returns at once if the recorder was closed before.
	 * @param stop fires when the recorder is to stop
	 * @throws IllegalStateException if the recorder is running on another thread already
	 */
	@Override
	public void start(StopSignal stop) {
		this.writerLoop.run(Objects.requireNonNull(stop, "stop must not be null"));
	}

	/**
	 * Events are written on every replica, leader or not: each records events about what
	 * it does.
	 * @return {@code false}
	 */
	@Override
	public boolean needsLeaderElection() {
		return false;
	}

	/**
	 * Events need {@code create} and {@code patch} on {@code events} where the operator
	 * works, in the API group the recorder writes them through: {@code events.k8s.io} and
	 * the core group for {@link EventApi#AUTO} (the core group is what it falls back to),
	 * one of them otherwise. A manager places them in every namespace its caches hold
	 * objects in. Events about cluster-scoped objects go to {@code default}, which this
	 * does not add.
	 * @return the permissions
	 */
	@Override
	public List<Permission> requiredPermissions() {
		List<Permission> permissions = new ArrayList<>();
		if (this.api != EventApi.EVENTS_V1) {
			permissions.add(Permission.of("", "events", "create", "patch")
				.because((this.api == EventApi.AUTO)
						? "the event recorder creates core/v1 Events and patches their count where events.k8s.io/v1 is "
								+ "not served"
						: "the event recorder creates Events and patches the count of repeated ones"));
		}
		if (this.api != EventApi.CORE_V1) {
			permissions.add(Permission.of(ApiEventSink.EVENTS_GROUP, "events", "create", "patch")
				.because("the event recorder creates events.k8s.io/v1 Events and patches the series of repeated ones"));
		}
		return permissions;
	}

	/**
	 * Returns the API this recorder was built to write Events through.
	 * @return the API, as given to {@link Builder#api}
	 */
	public EventApi api() {
		return this.api;
	}

	/**
	 * Stops the recorder and flushes, blocking for at most the flush timeout: lets the
	 * thread running {@link #start} write every pending event (or, if {@code start} was
	 * never called, a short-lived thread of the recorder's own, after which {@code start}
	 * returns at once), interrupts a write still in progress at the timeout, and returns
	 * once the writing has stopped or the timeout has passed. Pending events that could
	 * not be written are logged and counted as dropped, as are events recorded
	 * afterwards. Does nothing if the recorder stopped already. Never throws.
	 */
	@Override
	public void close() {
		this.writerLoop.close();
	}

	/**
	 * Builds a {@link KubernetesEventRecorder}. Setters check their own argument at once,
	 * against the rules of {@link EventRecorderConfig}, which also has the defaults;
	 * {@link #build()} checks the rules across settings (the component's with the API),
	 * so the order of the setters does not matter. Not thread-safe.
	 */
	public static final class Builder {

		private final Function<EventApi, EventSink> sink;

		private String component = EventRecorderConfig.DEFAULT.component();

		private @Nullable String reportingInstance;

		private int queueCapacity = EventRecorderConfig.DEFAULT.queueCapacity();

		private Duration aggregationInterval = EventRecorderConfig.DEFAULT.aggregationInterval();

		private double qps = EventRecorderConfig.DEFAULT.qps();

		private int burst = EventRecorderConfig.DEFAULT.burst();

		private int cacheSize = EventRecorderConfig.DEFAULT.cacheSize();

		private Duration flushTimeout = EventRecorderConfig.DEFAULT.flushTimeout();

		private EventApi api = EventRecorderConfig.DEFAULT.api();

		private Ticker ticker = Ticker.system();

		private Clock clock = Clock.systemUTC();

		private Builder(Function<EventApi, EventSink> sink) {
			this.sink = sink;
		}

		/**
		 * Sets the component written to {@code reportingController} (of an
		 * {@code events.k8s.io/v1} Event), or {@code source.component} and
		 * {@code reportingComponent} (of a {@code core/v1} Event), typically the
		 * operator's name.
		 * @param component the component, not blank; unless only {@code core/v1} Events
		 * are written, a Kubernetes qualified name such as {@code shop-operator}, which
		 * {@link #build()} checks
		 * @return this builder
		 * @throws InvalidConfigException if the component is blank
		 */
		public Builder component(String component) {
			// whether it must be a qualified name depends on the API
			ConfigChecks checks = new ConfigChecks();
			checks.notBlank("component", component);
			checks.throwIfAny();
			this.component = component;
			return this;
		}

		/**
		 * Sets the instance written to {@code reportingInstance}; defaults to the host
		 * name ({@code HOSTNAME}, which is the pod name in Kubernetes).
		 * @param reportingInstance the instance, not blank
		 * @return this builder
		 * @throws IllegalArgumentException if the instance is blank
		 */
		public Builder reportingInstance(String reportingInstance) {
			if (reportingInstance == null || reportingInstance.isBlank()) {
				throw new IllegalArgumentException("reportingInstance must not be blank");
			}
			this.reportingInstance = reportingInstance;
			return this;
		}

		/**
		 * Sets how many distinct events may wait to be written (default 1000).
		 * @param queueCapacity the capacity, at least 1
		 * @return this builder
		 * @throws InvalidConfigException if the capacity is less than 1
		 */
		public Builder queueCapacity(int queueCapacity) {
			this.queueCapacity = queueCapacity;
			return checked("queueCapacity");
		}

		/**
		 * Sets the shortest time between two writes of the same Event (default 1s).
		 * Identical events recorded meanwhile add to its count.
		 * @param aggregationInterval the interval, not negative, at most a day
		 * @return this builder
		 * @throws InvalidConfigException if the interval is out of range
		 */
		public Builder aggregationInterval(Duration aggregationInterval) {
			this.aggregationInterval = aggregationInterval;
			return checked("aggregationInterval");
		}

		/**
		 * Sets the sustained rate of writes, in writes per second (default 10).
		 * @param qps the rate, positive
		 * @return this builder
		 * @throws InvalidConfigException if the rate is not positive and finite
		 */
		public Builder qps(double qps) {
			this.qps = qps;
			return checked("qps");
		}

		/**
		 * Sets how many writes may go out at once above the rate (default 25).
		 * @param burst the burst, at least 1
		 * @return this builder
		 * @throws InvalidConfigException if the burst is less than 1
		 */
		public Builder burst(int burst) {
			this.burst = burst;
			return checked("burst");
		}

		/**
		 * Sets how many written Events are remembered for aggregation (default 4096).
		 * @param cacheSize the size, at least 1
		 * @return this builder
		 * @throws InvalidConfigException if the size is less than 1
		 */
		public Builder cacheSize(int cacheSize) {
			this.cacheSize = cacheSize;
			return checked("cacheSize");
		}

		/**
		 * Sets how long stopping the recorder (its stop signal or
		 * {@link KubernetesEventRecorder#close()}) may take to write pending events
		 * (default 5s).
		 * @param flushTimeout the timeout, not negative; zero drops what is pending
		 * @return this builder
		 * @throws InvalidConfigException if the timeout is negative
		 */
		public Builder flushTimeout(Duration flushTimeout) {
			this.flushTimeout = flushTimeout;
			return checked("flushTimeout");
		}

		/**
		 * Sets the API Events are written through (default {@link EventApi#AUTO}:
		 * {@code events.k8s.io/v1} where the API server serves it, {@code core/v1}
		 * otherwise).
		 * @param api the API
		 * @return this builder
		 * @throws InvalidConfigException if the API is {@code null}
		 */
		public Builder api(EventApi api) {
			this.api = api;
			return checked("api");
		}

		Builder ticker(Ticker ticker) {
			this.ticker = ticker;
			return this;
		}

		Builder clock(Clock clock) {
			this.clock = clock;
			return this;
		}

		/**
		 * Checks the rules of one setting alone: the rules across settings wait for
		 * {@link #build()}, when every setting has its value.
		 */
		private Builder checked(String setting) {
			try {
				config();
			}
			catch (InvalidConfigException ex) {
				List<InvalidConfigException.Violation> own = ex.violations()
					.stream()
					.filter((violation) -> violation.setting().equals(setting))
					.toList();
				if (!own.isEmpty()) {
					throw new InvalidConfigException(own);
				}
			}
			return this;
		}

		private EventRecorderConfig config() {
			return new EventRecorderConfig(this.component, this.queueCapacity, this.aggregationInterval, this.qps,
					this.burst, this.cacheSize, this.flushTimeout, this.api);
		}

		/**
		 * Builds the recorder. Starts no thread: events recorded before
		 * {@link KubernetesEventRecorder#start} are kept and written once started.
		 * @return the recorder; add it to the manager, or start it on a thread of your
		 * own and close it to flush pending events and stop
		 * @throws InvalidConfigException if the component is no qualified name while
		 * {@code events.k8s.io/v1} Events may be written
		 */
		public KubernetesEventRecorder build() {
			return new KubernetesEventRecorder(this);
		}

	}

}
