package io.kubeboot.operator.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kubeboot.operator.leaderelection.LostLeasePolicy;
import io.kubeboot.operator.sharding.ShardingConfig;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.BindingResult;
import org.springframework.validation.Errors;
import org.springframework.validation.FieldError;
import org.springframework.validation.Validator;

/**
 * Configuration properties of the operator, under {@code operator}. Unknown keys under
 * the prefix and invalid values fail start-up with a message naming the property as
 * written in {@code application.yaml}, such as
 * {@code operator.leader-election.renew-deadline}.
 */
@ConfigurationProperties(prefix = "operator", ignoreUnknownFields = false)
public class OperatorProperties implements Validator {

	/**
	 * Whether to create the operator's manager.
	 */
	private boolean enabled = true;

	/**
	 * Whether the manager starts with the application context. When false, start it
	 * yourself through the ManagerLifecycle bean.
	 */
	private boolean autoStartup = true;

	/**
	 * How often every cached object is delivered to the controllers again, as if it had
	 * changed. 0 disables the resync.
	 */
	private Duration syncPeriod = Duration.ofHours(10);

	/**
	 * How long in-flight reconciles and runnables may take to finish on shutdown before
	 * they are interrupted. A negative value waits without bound.
	 */
	private Duration gracefulShutdownTimeout = Duration.ofSeconds(30);

	/**
	 * How long start-up waits for the caches to sync before it fails, naming each cache
	 * that did not sync and its last error.
	 */
	private Duration cacheSyncTimeout = Duration.ofMinutes(2);

	/**
	 * Longest duration of one watch request before it is renewed; quiet but healthy
	 * watches show activity at least this often.
	 */
	private Duration watchTimeout = Duration.ofMinutes(2);

	/**
	 * How long an informer may see nothing from the API server (no event, no renewed
	 * watch) before it is replaced with a fresh list and watch. Must be longer than
	 * watch-timeout.
	 */
	private Duration watchSilenceThreshold = Duration.ofMinutes(3);

	/**
	 * Most objects one list request of the caches asks for. Lists are read in pages of
	 * this size wherever the API server pages them: relists after the watched
	 * resourceVersion expired, and every list of a kind it keeps no watch cache for.
	 */
	private int listPageSize = 500;

	/**
	 * Whether the caches stream their lists (Kubernetes' WatchList, on by default from
	 * 1.34) where the API server can, instead of reading them in pages. An API server
	 * that cannot is asked for pages after its first refusal.
	 */
	private boolean streamingLists = true;

	/**
	 * Namespace every controller watches unless it names its own. Empty watches all
	 * namespaces.
	 */
	private @Nullable String namespace;

	/**
	 * Whether cached objects drop metadata.managedFields, which reconcilers rarely read,
	 * to save memory. client-java's JSON already leaves them out when it parses, so this
	 * matters only with an ApiClient whose JSON was replaced.
	 */
	private boolean stripManagedFields = true;

	/**
	 * Whether a non-daemon thread keeps the JVM alive while the manager runs, so an idle
	 * operator does not exit when only daemon threads remain.
	 */
	private boolean keepAlive = true;

	/**
	 * Requests of the manager's client and caches to the API server.
	 */
	private final Client client = new Client();

	/**
	 * Defaults of every controller.
	 */
	private final Controller controller = new Controller();

	/**
	 * Leader election on a coordination.k8s.io/v1 Lease.
	 */
	private final LeaderElection leaderElection = new LeaderElection();

	/**
	 * Sharding of controllers across replicas.
	 */
	private final Sharding sharding = new Sharding();

	/**
	 * Health of the manager, as liveness and readiness.
	 */
	private final Health health = new Health();

	/**
	 * Kubernetes Events written through the EventRecorder bean.
	 */
	private final Events events = new Events();

	private final Webhook webhook = new Webhook();

	/**
	 * The local control plane of operator-spring-boot-test, in tests annotated with
	 * {@code @WithControlPlane} and in the development loop (spring-boot:test-run with
	 * LocalControlPlaneConfiguration); ignored otherwise.
	 */
	private final LocalControlPlane localControlPlane = new LocalControlPlane();

	/**
	 * Per-controller settings, by controller name; they override the defaults and the
	 * values given in the @Reconciles annotation. A name that is no @Reconciles
	 * controller's fails start-up.
	 */
	private final Map<String, ControllerOverrides> controllers = new LinkedHashMap<>();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public boolean isAutoStartup() {
		return this.autoStartup;
	}

	public void setAutoStartup(boolean autoStartup) {
		this.autoStartup = autoStartup;
	}

	public Duration getSyncPeriod() {
		return this.syncPeriod;
	}

	public void setSyncPeriod(Duration syncPeriod) {
		this.syncPeriod = syncPeriod;
	}

	public Duration getGracefulShutdownTimeout() {
		return this.gracefulShutdownTimeout;
	}

	public void setGracefulShutdownTimeout(Duration gracefulShutdownTimeout) {
		this.gracefulShutdownTimeout = gracefulShutdownTimeout;
	}

	public Duration getCacheSyncTimeout() {
		return this.cacheSyncTimeout;
	}

	public void setCacheSyncTimeout(Duration cacheSyncTimeout) {
		this.cacheSyncTimeout = cacheSyncTimeout;
	}

	public Duration getWatchTimeout() {
		return this.watchTimeout;
	}

	public void setWatchTimeout(Duration watchTimeout) {
		this.watchTimeout = watchTimeout;
	}

	public Duration getWatchSilenceThreshold() {
		return this.watchSilenceThreshold;
	}

	public void setWatchSilenceThreshold(Duration watchSilenceThreshold) {
		this.watchSilenceThreshold = watchSilenceThreshold;
	}

	public int getListPageSize() {
		return this.listPageSize;
	}

	public void setListPageSize(int listPageSize) {
		this.listPageSize = listPageSize;
	}

	public boolean isStreamingLists() {
		return this.streamingLists;
	}

	public void setStreamingLists(boolean streamingLists) {
		this.streamingLists = streamingLists;
	}

	public @Nullable String getNamespace() {
		return this.namespace;
	}

	public void setNamespace(@Nullable String namespace) {
		this.namespace = namespace;
	}

	public boolean isStripManagedFields() {
		return this.stripManagedFields;
	}

	public void setStripManagedFields(boolean stripManagedFields) {
		this.stripManagedFields = stripManagedFields;
	}

	public boolean isKeepAlive() {
		return this.keepAlive;
	}

	public void setKeepAlive(boolean keepAlive) {
		this.keepAlive = keepAlive;
	}

	public Client getClient() {
		return this.client;
	}

	public Controller getController() {
		return this.controller;
	}

	public Map<String, ControllerOverrides> getControllers() {
		return this.controllers;
	}

	public Sharding getSharding() {
		return this.sharding;
	}

	public LeaderElection getLeaderElection() {
		return this.leaderElection;
	}

	public Health getHealth() {
		return this.health;
	}

	public Events getEvents() {
		return this.events;
	}

	public Webhook getWebhook() {
		return this.webhook;
	}

	public LocalControlPlane getLocalControlPlane() {
		return this.localControlPlane;
	}

	@Override
	public boolean supports(Class<?> type) {
		return OperatorProperties.class.isAssignableFrom(type);
	}

	@Override
	public void validate(Object target, Errors errors) {
		OperatorProperties properties = (OperatorProperties) target;
		if (properties.getSyncPeriod() != null && properties.getSyncPeriod().isNegative()) {
			reject(errors, "sync-period", properties.getSyncPeriod(), "negative", "must not be negative");
		}
		if (properties.getCacheSyncTimeout() != null && !isPositive(properties.getCacheSyncTimeout())) {
			reject(errors, "cache-sync-timeout", properties.getCacheSyncTimeout(), "notPositive", "must be positive");
		}
		if (properties.getWatchTimeout().toMillis() < 2000) {
			reject(errors, "watch-timeout", properties.getWatchTimeout(), "tooShort", "must be at least 2s");
		}
		else if (properties.getWatchSilenceThreshold().compareTo(properties.getWatchTimeout()) <= 0) {
			reject(errors, "watch-silence-threshold", properties.getWatchSilenceThreshold(),
					"notLongerThanWatchTimeout",
					"must be longer than " + key("watch-timeout", properties.getWatchTimeout()));
		}
		if (properties.getListPageSize() < 1) {
			reject(errors, "list-page-size", properties.getListPageSize(), "notPositive", "must be at least 1");
		}
		if (properties.getNamespace() != null && !properties.getNamespace().isEmpty()
				&& !Dns1123.isLabel(properties.getNamespace())) {
			reject(errors, "namespace", properties.getNamespace(), "invalid", Dns1123.LABEL_RULE);
		}
		properties.getClient().validate("client", errors);
		properties.getController().validate("controller", errors);
		properties.getLeaderElection().validate("leader-election", errors);
		properties.getSharding().validate("sharding", errors);
		if (properties.getSharding().isEnabled() && properties.getSharding().getMode() == ShardingConfig.Mode.LABEL
				&& !properties.getLeaderElection().isEnabled()) {
			reject(errors, "sharding.mode", "label", "needsLeaderElection",
					"needs operator.leader-election.enabled=true: the sharder that labels the objects runs on the "
							+ "leader");
		}
		properties.getHealth().validate("health", errors);
		properties.getEvents().validate("events", errors);
		properties.getWebhook().validate("webhook", errors);
		properties.getLocalControlPlane().validate("local-control-plane", errors);
		properties.getControllers().forEach((name, overrides) -> overrides.validate(controllerKey(name), errors));
	}

	/**
	 * Returns the key of a controller's settings below {@code operator}, as written in
	 * {@code application.yaml}: {@code controllers.storagebucket}, or
	 * {@code controllers[my.controller]} for a name with a dot.
	 * @param name the controller's name
	 * @return the key
	 */
	static String controllerKey(String name) {
		return "controllers" + (name.contains(".") ? "[" + name + "]" : "." + name);
	}

	/**
	 * Rejects a property. The field error names it in kebab case below {@code operator}
	 * (such as {@code leader-election.renew-deadline}), so that Spring Boot reports it as
	 * {@code operator.leader-election.renew-deadline}, the key users type.
	 */
	private static void reject(Errors errors, String key, @Nullable Object value, String code, String reason) {
		Object shown = (value instanceof Duration duration) ? format(duration) : value;
		if (errors instanceof BindingResult result) {
			result.addError(new FieldError(result.getObjectName(), key, shown, false,
					result.resolveMessageCodes(code, key), null, reason));
		}
		else {
			errors.reject(code, "operator." + key + " (" + shown + ") " + reason);
		}
	}

	/**
	 * Names another property and its value in a reason.
	 */
	private static String key(String key, Object value) {
		return "operator." + key + " (" + ((value instanceof Duration duration) ? format(duration) : value) + ")";
	}

	/**
	 * Formats a duration the way it is written in {@code application.yaml}: {@code 15s},
	 * {@code 2m}, {@code 1500ms}.
	 * @param duration the duration
	 * @return the duration in the largest unit that holds it exactly
	 */
	static String format(Duration duration) {
		long millis = duration.toMillis();
		if (!Duration.ofMillis(millis).equals(duration)) {
			return duration.toString();
		}
		if (millis == 0) {
			return "0s";
		}
		long[] units = { 86_400_000, 3_600_000, 60_000, 1000 };
		String[] suffixes = { "d", "h", "m", "s" };
		for (int i = 0; i < units.length; i++) {
			if (millis % units[i] == 0) {
				return (millis / units[i]) + suffixes[i];
			}
		}
		return millis + "ms";
	}

	/**
	 * Validates the timings of a Lease, leader election's or a shard's:
	 * {@code lease-duration > renew-deadline > retry-period > 0}, lease-duration at least
	 * 1s (a Lease holds whole seconds).
	 */
	private static void validateLeaseTimings(String path, Duration leaseDuration, Duration renewDeadline,
			Duration retryPeriod, Errors errors) {
		boolean valid = true;
		if (!isPositive(leaseDuration) || leaseDuration.toMillis() < 1000) {
			reject(errors, path + ".lease-duration", leaseDuration, "tooShort", "must be at least 1s");
			valid = false;
		}
		if (!isPositive(renewDeadline)) {
			reject(errors, path + ".renew-deadline", renewDeadline, "notPositive", "must be positive");
			valid = false;
		}
		if (!isPositive(retryPeriod)) {
			reject(errors, path + ".retry-period", retryPeriod, "notPositive", "must be positive");
			valid = false;
		}
		if (valid && renewDeadline.compareTo(leaseDuration) >= 0) {
			reject(errors, path + ".renew-deadline", renewDeadline, "notLessThanLease",
					"must be less than " + key(path + ".lease-duration", leaseDuration));
		}
		if (valid && retryPeriod.compareTo(renewDeadline) >= 0) {
			reject(errors, path + ".retry-period", retryPeriod, "notLessThanRenew",
					"must be less than " + key(path + ".renew-deadline", renewDeadline));
		}
	}

	private static boolean isPositive(Duration duration) {
		return !duration.isNegative() && !duration.isZero();
	}

	/**
	 * The local control plane (etcd and kube-apiserver of operator-spring-boot-test) that
	 * tests annotated with {@code @WithControlPlane} and the development loop run the
	 * operator against. Only the test support reads these properties; a deployed operator
	 * ignores them.
	 */
	public static class LocalControlPlane {

		/**
		 * Where the CRD generator writes the CRDs of the application's
		 * {@code @KubernetesKind} models.
		 */
		public static final String GENERATED_CRDS = "classpath*:META-INF/kubeboot/crds/*.yaml";

		/**
		 * The CustomResourceDefinitions applied to the local control plane before the
		 * manager starts: Spring resource locations of YAML files holding CRDs only, such
		 * as file:deploy/crd.yaml; a pattern may match no file, a location prefixed with
		 * optional: may not exist.
		 */
		private List<String> crdLocations = new ArrayList<>(List.of(GENERATED_CRDS));

		public List<String> getCrdLocations() {
			return this.crdLocations;
		}

		public void setCrdLocations(List<String> crdLocations) {
			this.crdLocations = crdLocations;
		}

		void validate(String path, Errors errors) {
			for (int i = 0; i < this.crdLocations.size(); i++) {
				String location = this.crdLocations.get(i);
				if (location == null || location.isBlank()) {
					reject(errors, path + ".crd-locations[" + i + "]", location, "blank",
							"must not be blank: a location such as file:deploy/crd.yaml");
				}
			}
		}

	}

	/**
	 * Requests of the manager's client and caches to the API server: a client-side rate
	 * limit, client-go's token bucket. Off by default, as in controller-runtime: the API
	 * server's priority and fairness throttles with 429 answers, which are retried after
	 * their Retry-After.
	 */
	public static class Client {

		/**
		 * Requests per second the client and the caches may send on average; 0 for no
		 * client-side limit. The request opening a watch counts, not what the watch
		 * streams; Lease requests are never held back.
		 */
		private double qps = 0;

		/**
		 * Requests that may be sent at once above qps.
		 */
		private int burst = 10;

		/**
		 * The longest one call of the client may take, retries of throttled calls
		 * included.
		 */
		private Duration timeout = Duration.ofSeconds(30);

		public double getQps() {
			return this.qps;
		}

		public Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
		}

		public void setQps(double qps) {
			this.qps = qps;
		}

		public int getBurst() {
			return this.burst;
		}

		public void setBurst(int burst) {
			this.burst = burst;
		}

		void validate(String path, Errors errors) {
			if (!(this.qps >= 0) || Double.isInfinite(this.qps)) {
				reject(errors, path + ".qps", this.qps, "negative", "must be 0 (no limit) or a positive number");
			}
			if (this.burst < 1) {
				reject(errors, path + ".burst", this.burst, "notPositive", "must be at least 1");
			}
			if (this.timeout == null || this.timeout.isNegative() || this.timeout.isZero()) {
				reject(errors, path + ".timeout", this.timeout, "notPositive", "must be positive");
			}
		}

	}

	/**
	 * Defaults of every controller.
	 */
	public static class Controller {

		/**
		 * How many requests a controller reconciles at once.
		 */
		private int maxConcurrentReconciles = 1;

		/**
		 * Whether a controller's work queue is a priority queue: requests that carry no
		 * news (every object when the controller starts, resyncs, periodic triggers) wait
		 * behind the changes seen on the watches. When false, the queue is first in,
		 * first out.
		 */
		private boolean priorityQueue = true;

		/**
		 * Retry rate limiting.
		 */
		private final RateLimiter rateLimiter = new RateLimiter();

		public int getMaxConcurrentReconciles() {
			return this.maxConcurrentReconciles;
		}

		public void setMaxConcurrentReconciles(int maxConcurrentReconciles) {
			this.maxConcurrentReconciles = maxConcurrentReconciles;
		}

		public boolean isPriorityQueue() {
			return this.priorityQueue;
		}

		public void setPriorityQueue(boolean priorityQueue) {
			this.priorityQueue = priorityQueue;
		}

		public RateLimiter getRateLimiter() {
			return this.rateLimiter;
		}

		void validate(String path, Errors errors) {
			if (this.maxConcurrentReconciles < 1) {
				reject(errors, path + ".max-concurrent-reconciles", this.maxConcurrentReconciles, "notPositive",
						"must be at least 1");
			}
			this.rateLimiter.validate(path + ".rate-limiter", errors);
		}

	}

	/**
	 * Retry rate limiting: per-request exponential backoff, and an overall token bucket
	 * shared by all requests of a controller; the longer of the two delays applies.
	 */
	public static class RateLimiter {

		/**
		 * Delay before the first retry of a request; it doubles with every failure.
		 */
		private Duration baseDelay = Duration.ofMillis(5);

		/**
		 * Longest delay between retries of a request.
		 */
		private Duration maxDelay = Duration.ofSeconds(1000);

		/**
		 * Retries per second allowed across all requests of a controller.
		 */
		private double qps = 10;

		/**
		 * Retries allowed at once above the steady rate.
		 */
		private int burst = 100;

		public Duration getBaseDelay() {
			return this.baseDelay;
		}

		public void setBaseDelay(Duration baseDelay) {
			this.baseDelay = baseDelay;
		}

		public Duration getMaxDelay() {
			return this.maxDelay;
		}

		public void setMaxDelay(Duration maxDelay) {
			this.maxDelay = maxDelay;
		}

		public double getQps() {
			return this.qps;
		}

		public void setQps(double qps) {
			this.qps = qps;
		}

		public int getBurst() {
			return this.burst;
		}

		public void setBurst(int burst) {
			this.burst = burst;
		}

		void validate(String path, Errors errors) {
			if (!isPositive(this.baseDelay)) {
				reject(errors, path + ".base-delay", this.baseDelay, "notPositive", "must be positive");
			}
			if (!isPositive(this.maxDelay)) {
				reject(errors, path + ".max-delay", this.maxDelay, "notPositive", "must be positive");
			}
			else if (isPositive(this.baseDelay) && this.maxDelay.compareTo(this.baseDelay) < 0) {
				reject(errors, path + ".max-delay", this.maxDelay, "lessThanBase",
						"must not be less than " + key(path + ".base-delay", this.baseDelay));
			}
			if (!(this.qps > 0) || Double.isInfinite(this.qps)) {
				reject(errors, path + ".qps", this.qps, "notPositive", "must be a positive number");
			}
			if (this.burst < 1) {
				reject(errors, path + ".burst", this.burst, "notPositive", "must be at least 1");
			}
		}

	}

	/**
	 * Leader election: with it, controllers and leader-only runnables run on one replica
	 * at a time; the others keep their caches warm and take over when the leader goes
	 * away.
	 */
	public static class LeaderElection {

		/**
		 * Whether to elect a leader. Turn it on whenever the operator runs with more than
		 * one replica.
		 */
		private boolean enabled = false;

		/**
		 * Name of the Lease. Defaults to "<spring.application.name>-leader", or
		 * "operator-leader" without an application name.
		 */
		private @Nullable String leaseName;

		/**
		 * Namespace of the Lease. Defaults to the pod's namespace (from its service
		 * account), else "default".
		 */
		private @Nullable String namespace;

		/**
		 * Identity of this replica in the Lease. Defaults to the host name, an underscore
		 * and a random UUID.
		 */
		private @Nullable String identity;

		/**
		 * How long a standby waits, after it last saw the Lease change, before it takes
		 * over.
		 */
		private Duration leaseDuration = Duration.ofSeconds(15);

		/**
		 * How long the leader keeps trying to renew before it gives up leadership. Must
		 * be less than lease-duration.
		 */
		private Duration renewDeadline = Duration.ofSeconds(10);

		/**
		 * How often candidates try to acquire and the leader renews. Must be less than
		 * renew-deadline.
		 */
		private Duration retryPeriod = Duration.ofSeconds(2);

		/**
		 * Whether a leader shutting down clears the Lease once its controllers and
		 * leader-only runnables have stopped, so a standby takes over within a retry
		 * period instead of a lease duration.
		 */
		private boolean releaseOnShutdown = true;

		/**
		 * What a replica does when it loses the Lease: exit (halt with status 1, skipping
		 * graceful shutdown) or re-elect (stop every controller and leader-only runnable,
		 * then campaign again).
		 */
		private LostLeasePolicy lostLeasePolicy = LostLeasePolicy.EXIT;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable String getLeaseName() {
			return this.leaseName;
		}

		public void setLeaseName(@Nullable String leaseName) {
			this.leaseName = leaseName;
		}

		public @Nullable String getNamespace() {
			return this.namespace;
		}

		public void setNamespace(@Nullable String namespace) {
			this.namespace = namespace;
		}

		public @Nullable String getIdentity() {
			return this.identity;
		}

		public void setIdentity(@Nullable String identity) {
			this.identity = identity;
		}

		public Duration getLeaseDuration() {
			return this.leaseDuration;
		}

		public void setLeaseDuration(Duration leaseDuration) {
			this.leaseDuration = leaseDuration;
		}

		public Duration getRenewDeadline() {
			return this.renewDeadline;
		}

		public void setRenewDeadline(Duration renewDeadline) {
			this.renewDeadline = renewDeadline;
		}

		public Duration getRetryPeriod() {
			return this.retryPeriod;
		}

		public void setRetryPeriod(Duration retryPeriod) {
			this.retryPeriod = retryPeriod;
		}

		public boolean isReleaseOnShutdown() {
			return this.releaseOnShutdown;
		}

		public void setReleaseOnShutdown(boolean releaseOnShutdown) {
			this.releaseOnShutdown = releaseOnShutdown;
		}

		public LostLeasePolicy getLostLeasePolicy() {
			return this.lostLeasePolicy;
		}

		public void setLostLeasePolicy(LostLeasePolicy lostLeasePolicy) {
			this.lostLeasePolicy = lostLeasePolicy;
		}

		void validate(String path, Errors errors) {
			validateLeaseTimings(path, this.leaseDuration, this.renewDeadline, this.retryPeriod, errors);
			if (this.namespace != null && !this.namespace.isEmpty() && !Dns1123.isLabel(this.namespace)) {
				reject(errors, path + ".namespace", this.namespace, "invalid", Dns1123.LABEL_RULE);
			}
			if (this.leaseName != null && this.leaseName.isBlank()) {
				reject(errors, path + ".lease-name", this.leaseName, "blank", "must not be blank");
			}
			else if (this.leaseName != null && !Dns1123.isSubdomain(this.leaseName)) {
				reject(errors, path + ".lease-name", this.leaseName, "invalid", Dns1123.SUBDOMAIN_RULE);
			}
		}

	}

	/**
	 * Sharding: the sharded controllers run on every replica, and each replica reconciles
	 * only its share of their objects, handed over between replicas so that no two ever
	 * reconcile one object at once.
	 */
	public static class Sharding {

		/**
		 * Whether this replica joins a shard ring, holding a Lease of its own, and shards
		 * the controllers named in controllers (all controllers of the @Reconciles beans
		 * if none is named).
		 */
		private boolean enabled = false;

		/**
		 * Name of the ring, a label value every replica of the operator shares. Defaults
		 * to spring.application.name, else "operator".
		 */
		private @Nullable String ring;

		/**
		 * Namespace of the ring's Leases. Defaults to operator.leader-election.namespace,
		 * else the pod's namespace (from its service account), else "default".
		 */
		private @Nullable String namespace;

		/**
		 * Identity of this replica in the ring, unique among the replicas. Defaults to
		 * operator.leader-election.identity, else the host name, an underscore and a
		 * random UUID.
		 */
		private @Nullable String identity;

		/**
		 * How long the others wait, after they last saw this replica's Lease change,
		 * before they take its objects over.
		 */
		private Duration leaseDuration = Duration.ofSeconds(15);

		/**
		 * How long this replica keeps trying to renew its Lease before it stops
		 * reconciling its share. Must be less than lease-duration.
		 */
		private Duration renewDeadline = Duration.ofSeconds(10);

		/**
		 * How often this replica renews its Lease and reads the ring. Must be less than
		 * renew-deadline.
		 */
		private Duration retryPeriod = Duration.ofSeconds(2);

		/**
		 * Tokens each replica places on the hash ring; more spread the objects more
		 * evenly. Every replica of a ring must use the same number.
		 */
		private int virtualNodes = 100;

		/**
		 * How the objects are shared: "label" (a sharder on the leader labels every
		 * object with its replica, and each replica caches only its own; needs leader
		 * election) or "filter" (every replica caches every object and reconciles its
		 * own; writes nothing to the objects).
		 */
		private ShardingConfig.Mode mode = ShardingConfig.Mode.FILTER;

		/**
		 * Names of the controllers to shard: the lower-cased kind they reconcile, or the
		 * name given in the @Reconciles annotation. Empty shards the controllers of all
		 * the @Reconciles beans. The others run on the leader, with leader election.
		 */
		private List<String> controllers = new ArrayList<>();

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable String getRing() {
			return this.ring;
		}

		public void setRing(@Nullable String ring) {
			this.ring = ring;
		}

		public @Nullable String getNamespace() {
			return this.namespace;
		}

		public void setNamespace(@Nullable String namespace) {
			this.namespace = namespace;
		}

		public @Nullable String getIdentity() {
			return this.identity;
		}

		public void setIdentity(@Nullable String identity) {
			this.identity = identity;
		}

		public Duration getLeaseDuration() {
			return this.leaseDuration;
		}

		public void setLeaseDuration(Duration leaseDuration) {
			this.leaseDuration = leaseDuration;
		}

		public Duration getRenewDeadline() {
			return this.renewDeadline;
		}

		public void setRenewDeadline(Duration renewDeadline) {
			this.renewDeadline = renewDeadline;
		}

		public Duration getRetryPeriod() {
			return this.retryPeriod;
		}

		public void setRetryPeriod(Duration retryPeriod) {
			this.retryPeriod = retryPeriod;
		}

		public int getVirtualNodes() {
			return this.virtualNodes;
		}

		public void setVirtualNodes(int virtualNodes) {
			this.virtualNodes = virtualNodes;
		}

		public ShardingConfig.Mode getMode() {
			return this.mode;
		}

		public void setMode(ShardingConfig.Mode mode) {
			this.mode = mode;
		}

		public List<String> getControllers() {
			return this.controllers;
		}

		public void setControllers(List<String> controllers) {
			this.controllers = controllers;
		}

		void validate(String path, Errors errors) {
			validateLeaseTimings(path, this.leaseDuration, this.renewDeadline, this.retryPeriod, errors);
			if (this.ring != null && !ShardingSettings.isLabelValue(this.ring)) {
				reject(errors, path + ".ring", this.ring, "invalid", ShardingSettings.LABEL_VALUE_RULE);
			}
			if (this.namespace != null && !this.namespace.isEmpty() && !Dns1123.isLabel(this.namespace)) {
				reject(errors, path + ".namespace", this.namespace, "invalid", Dns1123.LABEL_RULE);
			}
			if (this.identity != null && this.identity.isBlank()) {
				reject(errors, path + ".identity", this.identity, "blank", "must not be blank");
			}
			else if (this.identity != null && this.identity.contains(",")) {
				reject(errors, path + ".identity", this.identity, "comma",
						"must not contain ',' (the ring's Leases list identities separated by commas)");
			}
			if (this.virtualNodes < 1 || this.virtualNodes > 1000) {
				reject(errors, path + ".virtual-nodes", this.virtualNodes, "outOfRange", "must be between 1 and 1000");
			}
			for (int i = 0; i < this.controllers.size(); i++) {
				if (this.controllers.get(i) == null || this.controllers.get(i).isBlank()) {
					reject(errors, path + ".controllers[" + i + "]", this.controllers.get(i), "blank",
							"must name a controller");
				}
			}
			if (!this.enabled && !this.controllers.isEmpty()) {
				reject(errors, path + ".controllers", String.join(",", this.controllers), "shardingOff",
						"names controllers to shard, but operator." + path
								+ ".enabled is false: set it to true, or remove the names");
			}
		}

	}

	/**
	 * Health of the manager: liveness (restart me) and readiness (serve me).
	 */
	public static class Health {

		/**
		 * How often the manager's health is evaluated and mapped onto the application's
		 * liveness and readiness states.
		 */
		private Duration probeInterval = Duration.ofSeconds(1);

		/**
		 * How long an informer's list or watch may keep failing, or the API server leave
		 * the cache's probe unanswered, before readiness goes down.
		 */
		private Duration watchFailureThreshold = Duration.ofSeconds(10);

		/**
		 * Whether to serve controller-runtime's /healthz and /readyz on the application's
		 * port (servlet web applications).
		 */
		private boolean healthzEnabled = true;

		public Duration getProbeInterval() {
			return this.probeInterval;
		}

		public void setProbeInterval(Duration probeInterval) {
			this.probeInterval = probeInterval;
		}

		public Duration getWatchFailureThreshold() {
			return this.watchFailureThreshold;
		}

		public void setWatchFailureThreshold(Duration watchFailureThreshold) {
			this.watchFailureThreshold = watchFailureThreshold;
		}

		public boolean isHealthzEnabled() {
			return this.healthzEnabled;
		}

		public void setHealthzEnabled(boolean healthzEnabled) {
			this.healthzEnabled = healthzEnabled;
		}

		void validate(String path, Errors errors) {
			if (!isPositive(this.probeInterval)) {
				reject(errors, path + ".probe-interval", this.probeInterval, "notPositive", "must be positive");
			}
			if (this.watchFailureThreshold.isNegative()) {
				reject(errors, path + ".watch-failure-threshold", this.watchFailureThreshold, "negative",
						"must not be negative");
			}
		}

	}

	/**
	 * Kubernetes Events about reconciled objects.
	 */
	public static class Events {

		/**
		 * Whether to create the EventRecorder bean.
		 */
		private boolean enabled = true;

		/**
		 * Component written to source.component and reportingComponent. Defaults to
		 * spring.application.name, else "operator".
		 */
		private @Nullable String component;

		/**
		 * How many distinct events may wait to be written; more are dropped and counted.
		 */
		private int queueCapacity = 1000;

		/**
		 * Shortest time between two writes of the same Event; identical events recorded
		 * meanwhile add to its count.
		 */
		private Duration aggregationInterval = Duration.ofSeconds(1);

		/**
		 * Event writes per second across all Events.
		 */
		private double qps = 10;

		/**
		 * Event writes allowed at once above the qps rate.
		 */
		private int burst = 25;

		/**
		 * How long stopping the recorder on shutdown may take to write pending events.
		 */
		private Duration flushTimeout = Duration.ofSeconds(5);

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable String getComponent() {
			return this.component;
		}

		public void setComponent(@Nullable String component) {
			this.component = component;
		}

		public int getQueueCapacity() {
			return this.queueCapacity;
		}

		public void setQueueCapacity(int queueCapacity) {
			this.queueCapacity = queueCapacity;
		}

		public Duration getAggregationInterval() {
			return this.aggregationInterval;
		}

		public void setAggregationInterval(Duration aggregationInterval) {
			this.aggregationInterval = aggregationInterval;
		}

		public double getQps() {
			return this.qps;
		}

		public void setQps(double qps) {
			this.qps = qps;
		}

		public int getBurst() {
			return this.burst;
		}

		public void setBurst(int burst) {
			this.burst = burst;
		}

		public Duration getFlushTimeout() {
			return this.flushTimeout;
		}

		public void setFlushTimeout(Duration flushTimeout) {
			this.flushTimeout = flushTimeout;
		}

		void validate(String path, Errors errors) {
			if (this.component != null && this.component.isBlank()) {
				reject(errors, path + ".component", this.component, "blank", "must not be blank");
			}
			if (this.queueCapacity < 1) {
				reject(errors, path + ".queue-capacity", this.queueCapacity, "tooSmall", "must be at least 1");
			}
			if (this.aggregationInterval.isNegative() || this.aggregationInterval.compareTo(Duration.ofDays(1)) > 0) {
				reject(errors, path + ".aggregation-interval", this.aggregationInterval, "outOfRange",
						"must be between 0 and 1 day");
			}
			if (!(this.qps > 0) || Double.isInfinite(this.qps)) {
				reject(errors, path + ".qps", this.qps, "notPositive", "must be positive");
			}
			if (this.burst < 1) {
				reject(errors, path + ".burst", this.burst, "tooSmall", "must be at least 1");
			}
			if (this.flushTimeout.isNegative()) {
				reject(errors, path + ".flush-timeout", this.flushTimeout, "negative", "must not be negative");
			}
		}

	}

	/**
	 * Settings of one controller.
	 */
	public static class ControllerOverrides {

		/**
		 * How many requests this controller reconciles at once.
		 */
		private @Nullable Integer maxConcurrentReconciles;

		/**
		 * Whether this controller's work queue is a priority queue, overriding
		 * operator.controller.priority-queue.
		 */
		private @Nullable Boolean priorityQueue;

		public @Nullable Integer getMaxConcurrentReconciles() {
			return this.maxConcurrentReconciles;
		}

		public void setMaxConcurrentReconciles(@Nullable Integer maxConcurrentReconciles) {
			this.maxConcurrentReconciles = maxConcurrentReconciles;
		}

		public @Nullable Boolean getPriorityQueue() {
			return this.priorityQueue;
		}

		public void setPriorityQueue(@Nullable Boolean priorityQueue) {
			this.priorityQueue = priorityQueue;
		}

		void validate(String path, Errors errors) {
			if (this.maxConcurrentReconciles != null && this.maxConcurrentReconciles < 1) {
				reject(errors, path + ".max-concurrent-reconciles", this.maxConcurrentReconciles, "notPositive",
						"must be at least 1");
			}
		}

	}

	/**
	 * The webhook server, started when the application has Validator, Defaulter or
	 * Conversion beans.
	 */
	public static class Webhook {

		/**
		 * Port of the webhook server (HTTPS), apart from the application's and
		 * Actuator's.
		 */
		private int port = 9443;

		/**
		 * Address the webhook server listens on.
		 */
		private String bindAddress = "0.0.0.0";

		/**
		 * How long a validator, defaulter or conversion may take before the request is
		 * answered with HTTP 500 and the webhook configuration's failurePolicy decides.
		 * Keep it below the configuration's timeoutSeconds.
		 */
		private Duration handlerTimeout = Duration.ofSeconds(10);

		/**
		 * Directory of the serving certificate and key, where the certificate Secret is
		 * mounted (cert-manager's tls.crt and tls.key).
		 */
		private String certDir = "/tmp/k8s-webhook-server/serving-certs";

		/**
		 * File name of the certificate (chain) in cert-dir, PEM.
		 */
		private String certName = "tls.crt";

		/**
		 * File name of the private key in cert-dir, PEM.
		 */
		private String keyName = "tls.key";

		/**
		 * How often the certificate files are checked for a rotation; a new certificate
		 * is served without restart.
		 */
		private Duration certCheckInterval = Duration.ofSeconds(10);

		/**
		 * Whether to serve a certificate generated at start-up, signed by a CA generated
		 * with it, instead of the files: for local runs and tests (the CA bundle is
		 * logged at start-up and available from WebhookServer.certificate()).
		 */
		private boolean selfSigned = false;

		/**
		 * Host names and IP addresses of the self-signed certificate.
		 */
		private List<String> selfSignedHosts = new ArrayList<>(List.of("localhost", "127.0.0.1"));

		public int getPort() {
			return this.port;
		}

		public void setPort(int port) {
			this.port = port;
		}

		public String getBindAddress() {
			return this.bindAddress;
		}

		public void setBindAddress(String bindAddress) {
			this.bindAddress = bindAddress;
		}

		public Duration getHandlerTimeout() {
			return this.handlerTimeout;
		}

		public void setHandlerTimeout(Duration handlerTimeout) {
			this.handlerTimeout = handlerTimeout;
		}

		public String getCertDir() {
			return this.certDir;
		}

		public void setCertDir(String certDir) {
			this.certDir = certDir;
		}

		public String getCertName() {
			return this.certName;
		}

		public void setCertName(String certName) {
			this.certName = certName;
		}

		public String getKeyName() {
			return this.keyName;
		}

		public void setKeyName(String keyName) {
			this.keyName = keyName;
		}

		public Duration getCertCheckInterval() {
			return this.certCheckInterval;
		}

		public void setCertCheckInterval(Duration certCheckInterval) {
			this.certCheckInterval = certCheckInterval;
		}

		public boolean isSelfSigned() {
			return this.selfSigned;
		}

		public void setSelfSigned(boolean selfSigned) {
			this.selfSigned = selfSigned;
		}

		public List<String> getSelfSignedHosts() {
			return this.selfSignedHosts;
		}

		public void setSelfSignedHosts(List<String> selfSignedHosts) {
			this.selfSignedHosts = selfSignedHosts;
		}

		void validate(String path, Errors errors) {
			if (this.port < 0 || this.port > 65535) {
				reject(errors, path + ".port", this.port, "outOfRange", "must be between 0 and 65535");
			}
			if (!isPositive(this.handlerTimeout)) {
				reject(errors, path + ".handler-timeout", this.handlerTimeout, "notPositive", "must be positive");
			}
			if (!isPositive(this.certCheckInterval)) {
				reject(errors, path + ".cert-check-interval", this.certCheckInterval, "notPositive",
						"must be positive");
			}
			if (this.selfSigned && this.selfSignedHosts.isEmpty()) {
				reject(errors, path + ".self-signed-hosts", this.selfSignedHosts, "empty",
						"must name at least one host");
			}
			else if (this.selfSigned && this.selfSignedHosts.stream().anyMatch(String::isBlank)) {
				reject(errors, path + ".self-signed-hosts", this.selfSignedHosts, "blank",
						"must not contain a blank host");
			}
		}

	}

}
