package io.kubeboot.sample.storage;

import java.io.IOException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.kubeboot.operator.annotation.PeriodicTrigger;
import io.kubeboot.operator.annotation.RbacRule;
import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.client.ApiServerException;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.client.OwnerReferences;
import io.kubeboot.operator.client.Patch;
import io.kubeboot.operator.events.EventRecorder;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.sample.storage.v1alpha1.StorageBucket;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps each StorageBucket's {@code Available} condition true to its endpoint.
 * <p>
 * A bucket lives outside the cluster, and nothing tells the operator when it goes down,
 * so besides every change of a StorageBucket, {@link PeriodicTrigger} reconciles every
 * cached bucket each {@code sample.buckets.probe-interval}: the Java counterpart of a Go
 * controller's channel source fed by a ticker runnable. Each reconcile
 * <ol>
 * <li>reads the bucket from the cache (no API request);</li>
 * <li>keeps the bucket's ConfigMap of connection details (see {@link BucketConnection}),
 * writing it only if it differs;</li>
 * <li>probes its endpoint with a bounded timeout;</li>
 * <li>writes the status only if it changed (see {@link StatusDecision}), registering the
 * bucket with the {@link BucketRegistry} first;</li>
 * <li>records an Event when the bucket becomes available or unavailable.</li>
 * </ol>
 * Probes block a worker for up to their timeout, so the controller runs four workers: one
 * slow endpoint does not hold up the other buckets. Only the leader reconciles, so only
 * one replica probes.
 * <p>
 * Buckets carry the {@link #FINALIZER}: a deleted bucket is deregistered by
 * {@link #cleanup} before the API server lets it go.
 * <p>
 * The {@link RbacRule @RbacRule}s declare the writes the controller cannot see: the
 * status patch and the ConfigMaps' create-or-update. With what the controller derives
 * itself (list and watch of buckets and of the labelled ConfigMaps, patch of buckets for
 * the finalizer), they are the rules of {@code deploy/rbac.yaml}. The ConfigMap writes
 * are granted namespace by namespace: RBAC cannot narrow {@code create} to a name or a
 * label, so cluster-wide they would reach every ConfigMap of the cluster, those of
 * {@code kube-system} too. Their ClusterRole {@code sample-operator-bucket-connections}
 * is bound by a RoleBinding in each namespace that holds buckets (the chart's
 * {@code grantedNamespaces}, {@code default} in {@code deploy/rbac.yaml}); in any other
 * namespace the bucket is still probed and its status written, and a {@code Warning}
 * Event tells its owner why it has no ConfigMap.
 */
@Reconciles(value = StorageBucket.class, maxConcurrentReconciles = 4, owns = V1ConfigMap.class,
		ownsLabelSelector = BucketConnection.SELECTOR, finalizer = StorageBucketReconciler.FINALIZER)
@RbacRule(subresource = "status", verbs = "patch",
		reason = "writes the bucket's status with a merge patch, and nothing else of a bucket")
@RbacRule(kind = V1ConfigMap.class, verbs = { "create", "update" }, role = "bucket-connections",
		grantedPerNamespace = true,
		reason = "keeps each bucket's <bucket>-connection ConfigMap with createOrUpdate, in the namespaces whose "
				+ "RoleBinding grants it; the garbage collector deletes it with its bucket, so the operator never does")
@PeriodicTrigger(interval = "${sample.buckets.probe-interval}")
class StorageBucketReconciler {

	/**
	 * The finalizer that keeps a deleted bucket until it is deregistered from the
	 * {@link BucketRegistry}.
	 */
	static final String FINALIZER = "storage.kubeboot.io/deregister";

	/**
	 * The reason of the Event that tells a bucket's owner that RBAC does not let the
	 * operator write ConfigMaps in the bucket's namespace.
	 */
	static final String CONNECTION_NOT_GRANTED = "ConnectionNotGranted";

	private static final Logger logger = LoggerFactory.getLogger(StorageBucketReconciler.class);

	private final Cache cache;

	private final EndpointProber prober;

	private final Client client;

	private final EventRecorder events;

	private final BucketMetrics metrics;

	private final BucketProperties properties;

	private final BucketRegistry registry;

	/**
	 * The buckets told that their ConfigMap cannot be written, so that each is told once
	 * while this replica runs, not at every probe.
	 */
	private final Set<Request> notGranted = ConcurrentHashMap.newKeySet();

	StorageBucketReconciler(Cache cache, EndpointProber prober, Client client, EventRecorder events,
			BucketMetrics metrics, BucketProperties properties, BucketRegistry registry) {
		this.registry = registry;
		this.cache = cache;
		this.prober = prober;
		this.client = client;
		this.events = events;
		this.metrics = metrics;
		this.properties = properties;
	}

	Result reconcile(Request request) throws IOException, InterruptedException {
		Optional<StorageBucket> cached = this.cache.get(StorageBucket.class, request);
		if (cached.isEmpty()) {
			// deleted: cleanup() has deregistered it, and the garbage collector deletes
			// its ConfigMap
			this.notGranted.remove(request);
			return Result.done();
		}
		StorageBucket bucket = cached.get();
		if (bucket.getSpec() != null) {
			keepConnection(bucket, request);
		}
		String endpoint = (bucket.getSpec() != null) ? bucket.getSpec().getEndpoint() : null;
		ProbeResult probe = this.prober.probe(endpoint, probeTimeout(bucket));
		this.metrics.probed(probe);
		logger.debug("Probed bucket: bucket={} available={} reason={} durationMs={}", request, probe.available(),
				probe.reason(), probe.duration().toMillis());
		StatusDecision decision = StatusDecision.decide(bucket, probe, now(), this.properties.statusRefreshInterval());
		if (!decision.write()) {
			return Result.done();
		}
		// registered whenever the status is written, at least every
		// status-refresh-interval: a registry that lost the bucket has it back by then
		this.registry.register(bucket);
		// the status as a merge patch carrying the cached resourceVersion: if the bucket
		// changed while it was probed, the write fails with a conflict and the controller
		// reconciles it again at once, instead of this overwriting a status computed from
		// an outdated spec
		Patch status = Patch.merge(Map.of("metadata",
				Map.of("resourceVersion", bucket.getMetadata().getResourceVersion()), "status", decision.status()));
		if (Client.ignoreNotFound(() -> this.client.status().patch(bucket, status)).isEmpty()) {
			logger.info("Bucket deleted while it was probed: bucket={}", request);
			return Result.done();
		}
		if (decision.transition()) {
			recordTransition(bucket, request, probe);
		}
		return Result.done();
	}

	/**
	 * Deregisters a deleted bucket; the controller then removes the {@link #FINALIZER}
	 * and the deletion completes. A registry that cannot be reached fails the cleanup,
	 * which is retried with backoff while the bucket waits, being deleted.
	 * @param request the bucket's namespace and name
	 * @return done once deregistered
	 * @throws IOException if the registry did not answer
	 * @throws InterruptedException if the manager stops meanwhile
	 */
	Result cleanup(Request request) throws IOException, InterruptedException {
		this.registry.deregister(request);
		logger.info("Bucket deregistered: bucket={}", request);
		return Result.done();
	}

	/**
	 * Keeps the bucket's ConfigMap of connection details as {@link BucketConnection}
	 * describes it. Compared with the cached ConfigMap first: most reconciles (every
	 * probe) change nothing and write nothing.
	 */
	private void keepConnection(StorageBucket bucket, Request request) {
		Client.Written<V1ConfigMap> written;
		try {
			written = this.client.createOrUpdate(BucketConnection.named(bucket), (configMap) -> {
				BucketConnection.describe(bucket, configMap);
				OwnerReferences.setController(this.client, bucket, configMap);
			});
		}
		catch (ApiServerException.ForbiddenException ex) {
			// ConfigMap writes are granted namespace by namespace (deploy/bucket-
			// namespace.yaml): without the RoleBinding here, the bucket is still probed,
			// and its owner told why it has no ConfigMap
			if (this.notGranted.add(request)) {
				logger.warn("Connection details not written, RBAC does not grant ConfigMap writes in the bucket's "
						+ "namespace: bucket={}", request);
				this.events.warning(bucket, CONNECTION_NOT_GRANTED,
						"The operator may not write ConfigMaps in namespace " + request.namespace()
								+ ": bind ClusterRole sample-operator-bucket-connections to its ServiceAccount "
								+ "there (the chart's grantedNamespaces)");
			}
			return;
		}
		this.notGranted.remove(request);
		if (written.operation() != Client.Operation.UNCHANGED) {
			logger.info("Connection details written: bucket={} configMap={} operation={}", request,
					written.object().getMetadata().getName(), written.operation());
		}
	}

	/**
	 * Tells {@code kubectl describe storagebucket} and the log. Recorded only after the
	 * status was written, so a write that failed and is retried does not record twice.
	 */
	private void recordTransition(StorageBucket bucket, Request request, ProbeResult probe) {
		if (probe.available()) {
			logger.info("Bucket became available: bucket={} reason={}", request, probe.reason());
			this.events.normal(bucket, probe.reason(), probe.message());
		}
		else {
			logger.warn("Bucket became unavailable: bucket={} reason={} message={}", request, probe.reason(),
					probe.message());
			this.events.warning(bucket, probe.reason(), probe.message());
		}
	}

	private Duration probeTimeout(StorageBucket bucket) {
		Integer seconds = (bucket.getSpec() != null) ? bucket.getSpec().getProbeTimeoutSeconds() : null;
		return (seconds != null && seconds > 0) ? Duration.ofSeconds(seconds) : this.properties.probeTimeout();
	}

	/**
	 * Now, in whole seconds: Kubernetes stores times to the second, and a status compared
	 * with what was read back must not differ in the nanoseconds.
	 */
	private static OffsetDateTime now() {
		return OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS);
	}

}
