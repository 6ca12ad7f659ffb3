package io.kubeboot.operator.leaderelection.internal;

import java.net.HttpURLConnection;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Date;

import io.kubeboot.operator.client.internal.StatusMessages;
import io.kubernetes.client.extended.leaderelection.LeaderElectionRecord;
import io.kubernetes.client.extended.leaderelection.Lock;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;

/**
 * client-java's {@link Lock} on a {@code coordination.k8s.io/v1} Lease, without the
 * defects of its own {@code LeaseLock}: a Lease with missing fields reads as an empty
 * record instead of failing, and a failure other than a conflict is kept for
 * {@link #lastError()} instead of only being logged. Updates are optimistic: they carry
 * the resource version last read, so a concurrent writer makes them fail with a conflict.
 * Not final only so that unit tests of the {@link LeaderElector} can stand in a Lease
 * kept in memory.
 */
class LeaseLock implements Lock {

	private final CoordinationV1Api api;

	private final String namespace;

	private final String name;

	private final String identity;

	private volatile @Nullable V1Lease latest;

	private volatile @Nullable String lastError;

	LeaseLock(ApiClient client, String namespace, String name, String identity) {
		this.api = new CoordinationV1Api(client);
		this.namespace = namespace;
		this.name = name;
		this.identity = identity;
	}

	@Override
	public LeaderElectionRecord get() throws ApiException {
		V1Lease lease = this.api.readNamespacedLease(this.name, this.namespace).execute();
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

	@Override
	public boolean create(LeaderElectionRecord record) {
		try {
			this.latest = this.api
				.createNamespacedLease(this.namespace,
						new V1Lease().metadata(new V1ObjectMeta().name(this.name).namespace(this.namespace))
							.spec(toSpec(record)))
				.execute();
			this.lastError = null;
			return true;
		}
		catch (ApiException ex) {
			return failed("create", ex);
		}
	}

	@Override
	public boolean update(LeaderElectionRecord record) {
		V1Lease base = this.latest;
		if (base == null) {
			return false;
		}
		try {
			V1Lease lease = new V1Lease().metadata(base.getMetadata()).spec(toSpec(record));
			this.latest = this.api.replaceNamespacedLease(this.name, this.namespace, lease).execute();
			this.lastError = null;
			return true;
		}
		catch (ApiException ex) {
			return failed("update", ex);
		}
	}

	private boolean failed(String verb, ApiException ex) {
		if (ex.getCode() != HttpURLConnection.HTTP_CONFLICT) {
			this.lastError = verb + " failed: " + StatusMessages.describe(ex);
		}
		return false;
	}

	/**
	 * Returns the last failure of a create or update other than a conflict.
	 * @return the failure, or {@code null} if the last write succeeded or conflicted
	 */
	@Nullable String lastError() {
		return this.lastError;
	}

	@Override
	public String identity() {
		return this.identity;
	}

	@Override
	public String describe() {
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
