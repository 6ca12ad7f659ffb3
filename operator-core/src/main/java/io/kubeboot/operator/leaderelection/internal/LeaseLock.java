package io.kubeboot.operator.leaderelection.internal;

import java.io.InterruptedIOException;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.google.gson.Gson;
import io.kubeboot.operator.client.internal.Answers;
import io.kubeboot.operator.client.internal.ModelReading;
import io.kubeboot.operator.client.internal.StatusMessages;
import io.kubernetes.client.extended.leaderelection.LeaderElectionRecord;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import okhttp3.Call;
import org.jspecify.annotations.Nullable;

/**
 * Reads and writes a {@code coordination.k8s.io/v1} Lease as a client-java
 * {@link LeaderElectionRecord}, without the defects of client-java's own
 * {@code LeaseLock}: a Lease with missing fields reads as an empty record instead of
 * failing, a failure other than a conflict is kept for {@link #lastError()} instead of
 * only being logged, and every request has a timeout of its own, given by the caller, so
 * that the elector can bound a renewal by the time left before its renew deadline.
 * Updates are optimistic: they carry the resource version last read, so a concurrent
 * writer makes them fail with a conflict. Not final only so that unit tests of the
 * {@link LeaderElector} can stand in a Lease kept in memory.
 */
class LeaseLock {

	private final ApiClient client;

	/** Reads the answers, ignoring fields client-java's models lack. */
	private final Gson answers;

	private final CoordinationV1Api api;

	private final String namespace;

	private final String name;

	private final String identity;

	private final LeaseMetadata metadata;

	private volatile @Nullable V1Lease latest;

	private volatile @Nullable String lastError;

	private volatile boolean lastWriteUnanswered;

	/**
	 * Creates a lock.
	 * @param client the client to send the requests with; their timeouts are set per
	 * request
	 * @param namespace the Lease's namespace
	 * @param name the Lease's name
	 * @param identity this replica's identity
	 */
	LeaseLock(ApiClient client, String namespace, String name, String identity) {
		this(client, namespace, name, identity, LeaseMetadata.none());
	}

	/**
	 * Creates a lock whose writes carry labels and annotations.
	 * @param client the client to send the requests with; their timeouts are set per
	 * request
	 * @param namespace the Lease's namespace
	 * @param name the Lease's name
	 * @param identity this replica's identity
	 * @param metadata the labels and annotations every write sets
	 */
	LeaseLock(ApiClient client, String namespace, String name, String identity, LeaseMetadata metadata) {
		this.metadata = metadata;
		this.client = client;
		this.answers = ModelReading.gson(client);
		this.api = new CoordinationV1Api(client);
		this.namespace = namespace;
		this.name = name;
		this.identity = identity;
	}

	/**
	 * Reads the Lease.
	 * @param timeout how long the request may take
	 * @return the record, with empty fields where the Lease has none
	 * @throws ApiException if the request failed, with code 404 if there is no Lease
	 */
	LeaderElectionRecord get(Duration timeout) throws ApiException {
		V1Lease lease = execute(this.api.readNamespacedLease(this.name, this.namespace).buildCall(null), timeout);
		this.latest = lease;
		V1LeaseSpec spec = (lease.getSpec() != null) ? lease.getSpec() : new V1LeaseSpec();
		LeaderElectionRecord record = new LeaderElectionRecord();
		record.setHolderIdentity((spec.getHolderIdentity() != null) ? spec.getHolderIdentity() : "");
		record.setLeaseDurationSeconds((spec.getLeaseDurationSeconds() != null) ? spec.getLeaseDurationSeconds() : 0);
		record.setLeaderTransitions((spec.getLeaseTransitions() != null) ? spec.getLeaseTransitions() : 0);
		record.setAcquireTime(toDate(spec.getAcquireTime()));
		record.setRenewTime(toDate(spec.getRenewTime()));
		return record;
	}

	/**
	 * Creates the Lease.
	 * @param record the record to store
	 * @param timeout how long the request may take
	 * @return whether it was created; see {@link #lastError()} if not
	 */
	boolean create(LeaderElectionRecord record, Duration timeout) {
		// the request is cut off at this deadline, however long building it takes: the
		// annotations may depend on when the write lands at the latest
		long deadline = System.nanoTime() + timeout.toNanos();
		Map<String, String> annotations = this.metadata.annotations(timeout);
		try {
			V1ObjectMeta meta = decorate(new V1ObjectMeta().name(this.name).namespace(this.namespace), annotations);
			this.latest = execute(
					this.api.createNamespacedLease(this.namespace, new V1Lease().metadata(meta).spec(toSpec(record)))
						.buildCall(null),
					deadline, timeout);
			written(annotations);
			return true;
		}
		catch (ApiException ex) {
			return failed("create", ex);
		}
	}

	/**
	 * Replaces the Lease last read or written, failing with a conflict if it changed
	 * since.
	 * @param record the record to store
	 * @param timeout how long the request may take
	 * @return whether it was replaced; see {@link #lastError()} if not
	 */
	boolean update(LeaderElectionRecord record, Duration timeout) {
		V1Lease base = this.latest;
		if (base == null) {
			return false;
		}
		long deadline = System.nanoTime() + timeout.toNanos();
		Map<String, String> annotations = this.metadata.annotations(timeout);
		try {
			V1ObjectMeta meta = (base.getMetadata() != null) ? base.getMetadata() : new V1ObjectMeta();
			V1Lease lease = new V1Lease().metadata(decorate(copy(meta), annotations)).spec(toSpec(record));
			this.latest = execute(this.api.replaceNamespacedLease(this.name, this.namespace, lease).buildCall(null),
					deadline, timeout);
			written(annotations);
			return true;
		}
		catch (ApiException ex) {
			return failed("update", ex);
		}
	}

	private V1Lease execute(Call call, Duration timeout) throws ApiException {
		return execute(call, System.nanoTime() + timeout.toNanos(), timeout);
	}

	private V1Lease execute(Call call, long deadlineNanos, Duration timeout) throws ApiException {
		call.timeout().timeout(Math.max(1, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
		try {
			return Answers
				.<V1Lease>execute(call.request().method() + " Lease " + this.namespace + "/" + this.name, this.answers,
						call, V1Lease.class)
				.data();
		}
		catch (ApiException ex) {
			if (ex.getCode() == 0 && call.isCanceled()) {
				// the timeout cancelled the call: say so rather than "Socket closed"
				throw new ApiException(new InterruptedIOException("timed out after " + timeout.toMillis() + "ms"));
			}
			throw ex;
		}
	}

	private void written(Map<String, String> annotations) {
		this.lastError = null;
		this.lastWriteUnanswered = false;
		this.metadata.written(annotations);
	}

	private V1ObjectMeta decorate(V1ObjectMeta meta, Map<String, String> annotations) {
		Map<String, String> labels = this.metadata.labels();
		if (!labels.isEmpty()) {
			Map<String, String> merged = new LinkedHashMap<>((meta.getLabels() != null) ? meta.getLabels() : Map.of());
			merged.putAll(labels);
			meta.setLabels(merged);
		}
		if (!annotations.isEmpty()) {
			Map<String, String> merged = new LinkedHashMap<>(
					(meta.getAnnotations() != null) ? meta.getAnnotations() : Map.of());
			merged.putAll(annotations);
			meta.setAnnotations(merged);
		}
		return meta;
	}

	/**
	 * Copies the fields of the metadata a replace sends back, so that decorating it does
	 * not change the Lease last read.
	 */
	private static V1ObjectMeta copy(V1ObjectMeta meta) {
		return new V1ObjectMeta().name(meta.getName())
			.namespace(meta.getNamespace())
			.resourceVersion(meta.getResourceVersion())
			.uid(meta.getUid())
			.labels(meta.getLabels())
			.annotations(meta.getAnnotations())
			.ownerReferences(meta.getOwnerReferences())
			.finalizers(meta.getFinalizers())
			.managedFields(meta.getManagedFields())
			.creationTimestamp(meta.getCreationTimestamp())
			.generation(meta.getGeneration());
	}

	private boolean failed(String verb, ApiException ex) {
		// no HTTP status: the request timed out or the connection broke, so the API
		// server may have applied it all the same
		this.lastWriteUnanswered = ex.getCode() == 0;
		this.lastError = (ex.getCode() != HttpURLConnection.HTTP_CONFLICT)
				? verb + " failed: " + StatusMessages.describe(ex) : null;
		return false;
	}

	/**
	 * Whether the last create or update failed without an answer (a timeout or a broken
	 * connection), so that the Lease may hold what it wrote after all.
	 * @return {@code true} if the outcome of the last write is unknown
	 */
	boolean lastWriteUnanswered() {
		return this.lastWriteUnanswered;
	}

	/**
	 * Returns the last failure of a create or update other than a conflict.
	 * @return the failure, or {@code null} if the last write succeeded or conflicted
	 */
	@Nullable String lastError() {
		return this.lastError;
	}

	/**
	 * Returns this replica's identity.
	 * @return the identity
	 */
	String identity() {
		return this.identity;
	}

	/**
	 * Returns the Lease's namespace and name, for logs.
	 * @return {@code namespace/name}
	 */
	String describe() {
		return this.namespace + "/" + this.name;
	}

	private static V1LeaseSpec toSpec(LeaderElectionRecord record) {
		return new V1LeaseSpec().holderIdentity(record.getHolderIdentity())
			.leaseDurationSeconds(record.getLeaseDurationSeconds())
			.leaseTransitions(record.getLeaderTransitions())
			.acquireTime(toTime(record.getAcquireTime()))
			.renewTime(toTime(record.getRenewTime()));
	}

	private static @Nullable Date toDate(@Nullable OffsetDateTime time) {
		return (time != null) ? Date.from(time.toInstant()) : null;
	}

	private static @Nullable OffsetDateTime toTime(@Nullable Date date) {
		return (date != null) ? OffsetDateTime.ofInstant(Instant.ofEpochMilli(date.getTime()), ZoneOffset.UTC) : null;
	}

}
