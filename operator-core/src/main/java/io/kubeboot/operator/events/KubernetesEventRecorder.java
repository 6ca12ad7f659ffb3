package io.kubeboot.operator.events;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import io.kubeboot.operator.client.internal.KindResolver;
import io.kubeboot.operator.client.internal.StatusMessages;
import io.kubeboot.operator.workqueue.BucketRateLimiter;
import io.kubeboot.operator.workqueue.Ticker;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link EventRecorder} that writes core/v1 Events to the API server like client-go's
 * recorder: {@code involvedObject} references the object (apiVersion, kind, name,
 * namespace, uid, resourceVersion), {@code source.component} and
 * {@code reportingComponent} are the recorder's component, {@code reportingInstance} its
 * host name, and Events about cluster-scoped objects go to the {@code default} namespace.
 * Event names are {@code <object name>.<hex of the wall-clock nanoseconds>}.
 * <p>
 * <b>Never blocks, never throws.</b> {@link #record} only updates an in-memory table of
 * pending events and returns; one background thread writes them. At most
 * {@code queueCapacity} distinct events wait at a time; an event that finds the table
 * full is dropped, counted in {@link #droppedCount()} and reported in a warning logged at
 * most every 10 seconds. A write that fails is logged and, if the failure may pass (the
 * API server unreachable, 429, 5xx), retried with backoff (1s doubling to 30s, 8 attempts
 * in all); the counts it carried are kept.
 * <p>
 * <b>Aggregation without losing counts.</b> Identical events (same involved object, type,
 * reason and message) become one Event whose {@code count} grows and whose
 * {@code lastTimestamp} moves. While an identical event is pending, or was written less
 * than {@code aggregationInterval} ago, a new one only adds to the pending count; the
 * accumulated count is written at most once per interval per Event, by a strategic merge
 * patch of {@code count} and {@code lastTimestamp}. The Event written for each key is
 * remembered in an LRU of {@code cacheSize} entries; if a patch finds it gone (Events
 * expire, by default after an hour), a new Event is created. 100 identical events
 * recorded in a burst therefore end as one Event with {@code count: 100}, written with
 * two requests.
 * <p>
 * <b>Rate limit.</b> All writes share a token bucket of {@code qps} writes per second
 * with a burst of {@code burst}; under overload events wait (and coalesce) in the table.
 * <p>
 * <b>Close.</b> {@link #close()} writes every pending count at once (ignoring the
 * aggregation interval and the rate limit) for at most {@code flushTimeout}, then stops
 * the thread; what could not be written by then is logged and counted as dropped. Events
 * recorded after close are dropped. Thread-safe.
 */
public final class KubernetesEventRecorder implements EventRecorder, AutoCloseable {

	/**
	 * The longest message written, in characters (the limit events.k8s.io/v1 puts on its
	 * {@code note}); longer messages are cut and end with {@code ...}.
	 */
	public static final int MESSAGE_LIMIT = 1024;

	static final int MAX_ATTEMPTS = 8;

	private static final Duration FIRST_RETRY = Duration.ofSeconds(1);

	private static final Duration MAX_RETRY = Duration.ofSeconds(30);

	private static final long DROP_LOG_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

	private static final String DEFAULT_NAMESPACE = "default";

	private static final String TOKEN = "write";

	private static final Logger logger = LoggerFactory.getLogger(KubernetesEventRecorder.class);

	private static final AtomicInteger threadNumbers = new AtomicInteger();

	private final String component;

	private final String reportingInstance;

	private final int queueCapacity;

	private final long aggregationNanos;

	private final Duration flushTimeout;

	private final EventSink sink;

	private final Ticker ticker;

	private final Clock clock;

	private final BucketRateLimiter<String> limiter;

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition changed = this.lock.newCondition();

	private final Map<EventKey, Pending> pending = new HashMap<>();

	private final PriorityQueue<Pending> queue = new PriorityQueue<>(KubernetesEventRecorder::compareDue);

	private final LinkedHashMap<EventKey, Written> written;

	private final AtomicLong dropped = new AtomicLong();

	private final AtomicLong lastDropLog = new AtomicLong();

	private final AtomicLong droppedSinceLog = new AtomicLong();

	private final Thread thread;

	private long sequence;

	private boolean tokenReserved;

	private long tokenNanos;

	private long lastNameNanos;

	private volatile boolean closing;

	private KubernetesEventRecorder(Builder builder, EventSink sink) {
		this.component = builder.component;
		this.reportingInstance = (builder.reportingInstance != null) ? builder.reportingInstance
				: hostName(builder.component);
		this.queueCapacity = builder.queueCapacity;
		this.aggregationNanos = builder.aggregationInterval.toNanos();
		this.flushTimeout = builder.flushTimeout;
		this.sink = sink;
		this.ticker = builder.ticker;
		this.clock = builder.clock;
		this.limiter = new BucketRateLimiter<>(builder.qps, builder.burst, builder.ticker);
		int cacheSize = builder.cacheSize;
		this.written = new LinkedHashMap<>(16, 0.75f, true) {

			@Override
			protected boolean removeEldestEntry(Map.Entry<EventKey, Written> eldest) {
				return size() > cacheSize;
			}

		};
		this.thread = new Thread(this::run, "event-recorder-" + threadNumbers.incrementAndGet());
		this.thread.setDaemon(true);
	}

	/**
	 * Returns a builder of a recorder writing through the given client.
	 * @param client the client; calls use their own timeouts, the client is not modified
	 * @return the builder
	 */
	public static Builder builder(ApiClient client) {
		return new Builder(new ApiEventSink(Objects.requireNonNull(client, "client must not be null")));
	}

	static Builder builder(EventSink sink) {
		return new Builder(sink);
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
	 * could not be referenced, or the recorder was closed.
	 * @return the number of dropped occurrences
	 */
	public long droppedCount() {
		return this.dropped.get();
	}

	/**
	 * Returns whether {@link #close()} was called.
	 * @return whether this recorder is closed
	 */
	public boolean isClosed() {
		return this.closing;
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Returns at once. Never throws: an event about an object without a name is logged
	 * and dropped; a {@code null} reason or message is recorded as empty.
	 */
	@Override
	public void record(@Nullable KubernetesObject object, @Nullable EventType type, @Nullable String reason,
			@Nullable String message) {
		try {
			enqueue(object, (type != null) ? type : EventType.NORMAL, (reason != null) ? reason : "",
					(message != null) ? message : "");
		}
		catch (RuntimeException ex) {
			drop("error", 1, "reason=" + reason + " error=" + ex);
		}
	}

	private void enqueue(@Nullable KubernetesObject object, EventType type, String reason, String message) {
		V1ObjectMeta metadata = (object != null) ? object.getMetadata() : null;
		String name = (metadata != null) ? metadata.getName() : null;
		if (object == null || metadata == null || name == null || name.isEmpty()) {
			drop("invalid-object", 1, "reason=" + reason + " error=the object has no metadata.name");
			return;
		}
		String kind = ModelKinds.kindOf(object.getClass());
		if (kind.isEmpty() && object.getKind() != null) {
			kind = object.getKind();
		}
		String namespace = emptyToNull(metadata.getNamespace());
		String uid = emptyToNull(metadata.getUid());
		EventKey key = new EventKey(object.getClass(), kind, namespace, name, uid, type, reason, truncate(message));
		V1ObjectReference reference = new V1ObjectReference().apiVersion(emptyToNull(object.getApiVersion()))
			.kind(emptyToNull(kind))
			.name(name)
			.namespace(namespace)
			.uid(uid)
			.resourceVersion(emptyToNull(metadata.getResourceVersion()));
		Instant now = this.clock.instant();
		String dropCause = null;
		this.lock.lock();
		try {
			if (this.closing) {
				dropCause = "closed";
			}
			else {
				Pending existing = this.pending.get(key);
				if (existing != null) {
					existing.add(reference, now);
				}
				else if (this.pending.size() >= this.queueCapacity) {
					dropCause = "queue-full";
				}
				else {
					long nowNanos = this.ticker.nanoTime();
					long due = nowNanos;
					Written last = this.written.get(key);
					if (last != null && last.lastWriteNanos + this.aggregationNanos - nowNanos > 0) {
						due = last.lastWriteNanos + this.aggregationNanos;
					}
					Pending added = new Pending(key, reference, now, due, this.sequence++);
					this.pending.put(key, added);
					this.queue.add(added);
					if (this.queue.peek() == added) {
						this.changed.signal();
					}
				}
			}
		}
		finally {
			this.lock.unlock();
		}
		if (dropCause != null) {
			drop(dropCause, 1,
					"event=" + key + (dropCause.equals("queue-full") ? " capacity=" + this.queueCapacity : ""));
		}
	}

	/**
	 * Writes every pending event for at most the flush timeout, then stops the background
	 * thread. Pending events that could not be written are logged and counted as dropped.
	 * Idempotent; never throws.
	 */
	@Override
	public void close() {
		this.lock.lock();
		try {
			if (this.closing) {
				return;
			}
			this.closing = true;
			this.changed.signalAll();
		}
		finally {
			this.lock.unlock();
		}
		boolean interrupted = false;
		try {
			long millis = this.flushTimeout.toMillis();
			if (millis > 0) {
				this.thread.join(millis);
			}
		}
		catch (InterruptedException ex) {
			interrupted = true;
		}
		if (this.thread.isAlive()) {
			this.thread.interrupt();
		}
		int lostEvents;
		long lostOccurrences = 0;
		this.lock.lock();
		try {
			lostEvents = this.pending.size();
			for (Pending lost : this.pending.values()) {
				lostOccurrences += lost.count;
			}
			this.pending.clear();
			this.queue.clear();
		}
		finally {
			this.lock.unlock();
		}
		if (lostEvents > 0) {
			this.dropped.addAndGet(lostOccurrences);
			logger.warn("Event recorder closed before writing every event: component={} events={} occurrences={} "
					+ "flushTimeout={}", this.component, lostEvents, lostOccurrences, this.flushTimeout);
		}
		else {
			logger.debug("Event recorder closed: component={} dropped={}", this.component, this.dropped.get());
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
	}

	private void start() {
		this.thread.start();
	}

	private void run() {
		try {
			Batch batch;
			while ((batch = next()) != null) {
				write(batch);
			}
		}
		catch (InterruptedException ex) {
			// close() gave up waiting: what is pending is accounted for there
		}
		catch (Error ex) {
			logger.error("Event recorder thread failed, no more events will be written: component={}", this.component,
					ex);
			throw ex;
		}
	}

	private @Nullable Batch next() throws InterruptedException {
		this.lock.lock();
		try {
			while (true) {
				Pending head = this.queue.peek();
				if (head == null) {
					if (this.closing) {
						return null;
					}
					this.changed.await();
					continue;
				}
				long now = this.ticker.nanoTime();
				if (!this.closing) {
					long wait = head.dueNanos - now;
					if (wait > 0) {
						this.changed.awaitNanos(wait);
						continue;
					}
					if (!this.tokenReserved) {
						this.tokenNanos = now + this.limiter.when(TOKEN).toNanos();
						this.tokenReserved = true;
					}
					wait = this.tokenNanos - now;
					if (wait > 0) {
						this.changed.awaitNanos(wait);
						continue;
					}
				}
				this.tokenReserved = false;
				this.queue.poll();
				this.pending.remove(head.key);
				Written last = this.written.get(head.key);
				if (last == null) {
					last = new Written();
					this.written.put(head.key, last);
				}
				last.lastWriteNanos = now;
				return new Batch(head, last.name, last.count);
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	private void write(Batch batch) {
		Pending event = batch.event;
		EventKey key = event.key;
		String namespace = (key.namespace() != null) ? key.namespace() : DEFAULT_NAMESPACE;
		try {
			String name = batch.name;
			if (name != null) {
				int total = toCount(batch.writtenCount + event.count);
				try {
					this.sink.patch(namespace, name, total, time(event.last));
					remember(key, name, total);
					logger.debug("Updated event: event={}/{} count={}", namespace, name, total);
					return;
				}
				catch (ApiException ex) {
					if (ex.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
						throw ex;
					}
					logger.debug("Event expired, creating a new one: event={}/{}", namespace, name);
				}
			}
			CoreV1Event created = create(namespace, event);
			String createdName = (created.getMetadata() != null) ? created.getMetadata().getName() : null;
			remember(key, createdName, event.count);
			logger.debug("Created event: event={}/{} count={}", namespace, createdName, event.count);
		}
		catch (ApiException ex) {
			failed(event, ex);
		}
		catch (Exception ex) {
			// okhttp, written in Kotlin, may throw an undeclared InterruptedException
			if (ex instanceof InterruptedException) {
				Thread.currentThread().interrupt();
			}
			drop("error", event.count, "event=" + key + " error=" + StatusMessages.describe(ex));
		}
	}

	private CoreV1Event create(String namespace, Pending event) throws ApiException {
		EventKey key = event.key;
		V1ObjectReference reference = event.reference;
		if (reference.getKind() == null) {
			reference.setKind(KindResolver.declaredKind(key.modelType()).kind());
		}
		if (reference.getApiVersion() == null) {
			reference.setApiVersion(apiVersionOf(key));
		}
		CoreV1Event body = new CoreV1Event()
			.metadata(new V1ObjectMeta().name(eventName(key.name())).namespace(namespace))
			.involvedObject(reference)
			.reason(key.reason())
			.message(key.message())
			.type(key.type().value())
			.source(new V1EventSource().component(this.component))
			.reportingComponent(this.component)
			.reportingInstance(this.reportingInstance)
			.firstTimestamp(time(event.first))
			.lastTimestamp(time(event.last))
			.count(toCount(event.count));
		try {
			return this.sink.create(namespace, body);
		}
		catch (ApiException ex) {
			if (ex.getCode() != HttpURLConnection.HTTP_CONFLICT) {
				throw ex;
			}
			// another writer took the name in the same nanosecond
			body.getMetadata().setName(eventName(key.name()));
			return this.sink.create(namespace, body);
		}
	}

	private @Nullable String apiVersionOf(EventKey key) throws ApiException {
		try {
			@SuppressWarnings("unchecked")
			Class<? extends KubernetesObject> type = (Class<? extends KubernetesObject>) key.modelType();
			return this.sink.apiVersionOf(type);
		}
		catch (RuntimeException ex) {
			logger.debug("Cannot tell the apiVersion of the object, leaving it out: event={} error={}", key,
					ex.getMessage());
			return null;
		}
	}

	private void remember(EventKey key, @Nullable String name, long count) {
		this.lock.lock();
		try {
			Written last = this.written.get(key);
			if (last == null) {
				last = new Written();
				last.lastWriteNanos = this.ticker.nanoTime();
				this.written.put(key, last);
			}
			last.name = name;
			last.count = count;
		}
		finally {
			this.lock.unlock();
		}
	}

	private void failed(Pending event, ApiException ex) {
		int code = ex.getCode();
		boolean retriable = code == 0 || code == 429 || code >= 500;
		Duration retryIn = null;
		this.lock.lock();
		try {
			if (retriable && !this.closing && event.attempts + 1 < MAX_ATTEMPTS) {
				event.attempts++;
				retryIn = backoff(event.attempts);
				long due = this.ticker.nanoTime() + retryIn.toNanos();
				Pending existing = this.pending.get(event.key);
				if (existing != null) {
					// identical events came in meanwhile: one retry writes them all
					this.queue.remove(existing);
					existing.merge(event);
					if (due - existing.dueNanos > 0) {
						existing.dueNanos = due;
					}
					this.queue.add(existing);
				}
				else {
					event.dueNanos = due;
					event.sequence = this.sequence++;
					this.pending.put(event.key, event);
					this.queue.add(event);
				}
			}
		}
		finally {
			this.lock.unlock();
		}
		if (retryIn != null) {
			logger.debug("Failed to write event, will retry: event={} attempt={} retryIn={} error={}", event.key,
					event.attempts, retryIn, StatusMessages.describe(ex));
		}
		else {
			drop("write-failed", event.count, "event=" + event.key + " error=" + StatusMessages.describe(ex));
		}
	}

	private void drop(String cause, long occurrences, String detail) {
		long total = this.dropped.addAndGet(occurrences);
		long suppressed = this.droppedSinceLog.addAndGet(occurrences);
		long now = this.ticker.nanoTime();
		long last = this.lastDropLog.get();
		boolean first = total == occurrences;
		if ((first || now - last >= DROP_LOG_INTERVAL_NANOS) && this.lastDropLog.compareAndSet(last, now)) {
			this.droppedSinceLog.addAndGet(-suppressed);
			logger.warn("Dropped events: cause={} component={} occurrences={} droppedTotal={} {}", cause,
					this.component, suppressed, total, detail);
		}
		else {
			logger.debug("Dropped events: cause={} component={} occurrences={} droppedTotal={} {}", cause,
					this.component, occurrences, total, detail);
		}
	}

	private String eventName(String objectName) {
		Instant now = this.clock.instant();
		long nanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
		if (nanos - this.lastNameNanos <= 0) {
			nanos = this.lastNameNanos + 1;
		}
		this.lastNameNanos = nanos;
		return objectName + "." + Long.toHexString(nanos);
	}

	private static int compareDue(Pending first, Pending second) {
		// nanoTime readings compare by their difference, never by their values
		int byDue = Long.signum(first.dueNanos - second.dueNanos);
		return (byDue != 0) ? byDue : Long.compare(first.sequence, second.sequence);
	}

	private static Duration backoff(int attempt) {
		Duration delay = FIRST_RETRY.multipliedBy(1L << Math.min(attempt - 1, 10));
		return (delay.compareTo(MAX_RETRY) > 0) ? MAX_RETRY : delay;
	}

	private static OffsetDateTime time(Instant instant) {
		return OffsetDateTime.ofInstant(instant.truncatedTo(ChronoUnit.SECONDS), ZoneOffset.UTC);
	}

	private static int toCount(long count) {
		return (int) Math.min(count, Integer.MAX_VALUE);
	}

	private static String truncate(String message) {
		return (message.length() <= MESSAGE_LIMIT) ? message : message.substring(0, MESSAGE_LIMIT - 3) + "...";
	}

	private static @Nullable String emptyToNull(@Nullable String value) {
		return (value == null || value.isEmpty()) ? null : value;
	}

	private static String hostName(String fallback) {
		String fromEnvironment = System.getenv("HOSTNAME");
		if (fromEnvironment != null && !fromEnvironment.isBlank()) {
			return fromEnvironment.trim();
		}
		try {
			return InetAddress.getLocalHost().getHostName();
		}
		catch (IOException ex) {
			return fallback;
		}
	}

	/**
	 * Occurrences of one event not written yet. Guarded by the recorder's lock while in
	 * the table; owned by the background thread once taken out.
	 */
	private static final class Pending {

		final EventKey key;

		V1ObjectReference reference;

		final Instant first;

		Instant last;

		long count = 1;

		long dueNanos;

		long sequence;

		int attempts;

		Pending(EventKey key, V1ObjectReference reference, Instant now, long dueNanos, long sequence) {
			this.key = key;
			this.reference = reference;
			this.first = now;
			this.last = now;
			this.dueNanos = dueNanos;
			this.sequence = sequence;
		}

		void add(V1ObjectReference reference, Instant now) {
			this.reference = reference;
			this.last = now;
			this.count++;
		}

		void merge(Pending earlier) {
			// the earlier batch's occurrences count too; the later reference and time win
			this.count += earlier.count;
			this.attempts = Math.max(this.attempts, earlier.attempts);
		}

	}

	/**
	 * The Event last written for a key. Guarded by the recorder's lock.
	 */
	private static final class Written {

		@Nullable String name;

		long count;

		long lastWriteNanos;

	}

	/**
	 * Occurrences taken out of the table to be written, with the Event they add to.
	 *
	 * @param event the occurrences
	 * @param name the Event written before for the same key, or {@code null}
	 * @param writtenCount the count of that Event
	 */
	private record Batch(Pending event, @Nullable String name, long writtenCount) {
	}

	/**
	 * Builds a {@link KubernetesEventRecorder}.
	 */
	public static final class Builder {

		private final EventSink sink;

		private String component = "operator";

		private @Nullable String reportingInstance;

		private int queueCapacity = 1000;

		private Duration aggregationInterval = Duration.ofSeconds(1);

		private double qps = 10;

		private int burst = 25;

		private int cacheSize = 4096;

		private Duration flushTimeout = Duration.ofSeconds(5);

		private Ticker ticker = Ticker.system();

		private Clock clock = Clock.systemUTC();

		private Builder(EventSink sink) {
			this.sink = sink;
		}

		/**
		 * Sets the component written to {@code source.component} and
		 * {@code reportingComponent}, typically the operator's name.
		 * @param component the component, not blank
		 * @return this builder
		 */
		public Builder component(String component) {
			if (component == null || component.isBlank()) {
				throw new IllegalArgumentException("component must not be blank");
			}
			this.component = component;
			return this;
		}

		/**
		 * Sets the instance written to {@code reportingInstance}; defaults to the host
		 * name ({@code HOSTNAME}, which is the pod name in Kubernetes).
		 * @param reportingInstance the instance, not blank
		 * @return this builder
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
		 */
		public Builder queueCapacity(int queueCapacity) {
			if (queueCapacity < 1) {
				throw new IllegalArgumentException("queueCapacity must be at least 1, but was " + queueCapacity);
			}
			this.queueCapacity = queueCapacity;
			return this;
		}

		/**
		 * Sets the shortest time between two writes of the same Event (default 1s).
		 * Identical events recorded meanwhile add to its count.
		 * @param aggregationInterval the interval, not negative, at most a day
		 * @return this builder
		 */
		public Builder aggregationInterval(Duration aggregationInterval) {
			if (aggregationInterval == null || aggregationInterval.isNegative()
					|| aggregationInterval.compareTo(Duration.ofDays(1)) > 0) {
				throw new IllegalArgumentException(
						"aggregationInterval must be between 0 and 1 day, but was " + aggregationInterval);
			}
			this.aggregationInterval = aggregationInterval;
			return this;
		}

		/**
		 * Sets the sustained rate of writes, in writes per second (default 10).
		 * @param qps the rate, positive
		 * @return this builder
		 */
		public Builder qps(double qps) {
			if (!(qps > 0) || Double.isInfinite(qps)) {
				throw new IllegalArgumentException("qps must be positive and finite, but was " + qps);
			}
			this.qps = qps;
			return this;
		}

		/**
		 * Sets how many writes may go out at once above the rate (default 25).
		 * @param burst the burst, at least 1
		 * @return this builder
		 */
		public Builder burst(int burst) {
			if (burst < 1) {
				throw new IllegalArgumentException("burst must be at least 1, but was " + burst);
			}
			this.burst = burst;
			return this;
		}

		/**
		 * Sets how many written Events are remembered for aggregation (default 4096).
		 * @param cacheSize the size, at least 1
		 * @return this builder
		 */
		public Builder cacheSize(int cacheSize) {
			if (cacheSize < 1) {
				throw new IllegalArgumentException("cacheSize must be at least 1, but was " + cacheSize);
			}
			this.cacheSize = cacheSize;
			return this;
		}

		/**
		 * Sets how long {@link KubernetesEventRecorder#close()} may take to write pending
		 * events (default 5s).
		 * @param flushTimeout the timeout, not negative; zero drops what is pending
		 * @return this builder
		 */
		public Builder flushTimeout(Duration flushTimeout) {
			if (flushTimeout == null || flushTimeout.isNegative()) {
				throw new IllegalArgumentException("flushTimeout must not be negative, but was " + flushTimeout);
			}
			this.flushTimeout = flushTimeout;
			return this;
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
		 * Builds the recorder and starts its background thread (a daemon thread named
		 * {@code event-recorder-<n>}).
		 * @return the recorder; close it to flush pending events and stop the thread
		 */
		public KubernetesEventRecorder build() {
			KubernetesEventRecorder recorder = new KubernetesEventRecorder(this, this.sink);
			recorder.start();
			return recorder;
		}

	}

}
