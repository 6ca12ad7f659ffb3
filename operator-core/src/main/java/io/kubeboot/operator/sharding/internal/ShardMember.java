package io.kubeboot.operator.sharding.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import com.google.gson.Gson;
import io.kubeboot.operator.client.ApiClients;
import io.kubeboot.operator.client.internal.Answers;
import io.kubeboot.operator.client.internal.ModelReading;
import io.kubeboot.operator.client.internal.StatusMessages;
import io.kubeboot.operator.client.internal.WriteFence;
import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LeaderElectionListener;
import io.kubeboot.operator.leaderelection.internal.LeaderElector;
import io.kubeboot.operator.leaderelection.internal.LeaseMetadata;
import io.kubeboot.operator.leaderelection.internal.LeaseWatch;
import io.kubeboot.operator.manager.ManagerRunnable;
import io.kubeboot.operator.manager.StopSignal;
import io.kubeboot.operator.rbac.Permission;
import io.kubeboot.operator.sharding.ShardingConfig;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1DeleteOptions;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseList;
import io.kubernetes.client.openapi.models.V1Preconditions;
import io.kubernetes.client.util.Watch;
import okhttp3.Call;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One replica's membership in a ring: holds its own Lease with leader election's elector
 * (same timings, monotonic clock, renew deadline, connections of its own), reads the
 * ring's Leases every retry period, at once after its own acknowledgement was written and
 * whenever its watch of them sees a member come, go or acknowledge, with a consistent
 * list, and drives the {@link ShardGate}: the target view is the ring of the Leases that
 * are held and not expired, the claims are what their
 * {@code sharding.kubeboot.io/drained} annotations acknowledge. Once nothing in flight
 * would move away under a new view, that view is written to this replica's Lease as its
 * acknowledgement.
 * <p>
 * An every-replica runnable. On stop it closes the gate, waits for the reconciles in
 * flight (until the manager interrupts it after the graceful shutdown timeout, in which
 * case the Lease is left to expire) and releases the Lease, so the others take its keys
 * over at their next read.
 */
public final class ShardMember implements ManagerRunnable {

	/** The label naming the ring on every member's Lease. */
	public static final String RING_LABEL = "sharding.kubeboot.io/ring";

	/**
	 * The annotation with the view a member acknowledged:
	 * {@code <virtualNodes>:<member>,...} or empty for none.
	 */
	public static final String DRAINED_ANNOTATION = "sharding.kubeboot.io/drained";

	/** The annotation with the member's {@linkplain MemberTerm term}. */
	public static final String TERM_ANNOTATION = "sharding.kubeboot.io/term";

	private static final String LEASE_GROUP = "coordination.k8s.io";

	/** How long one watch of the ring's Leases lasts. */
	private static final Duration WATCH_TIMEOUT = Duration.ofMinutes(1);

	private static final Logger logger = LoggerFactory.getLogger(ShardMember.class);

	private final ShardingConfig config;

	private final LeaderElectionConfig leaseConfig;

	private final LeaderElector elector;

	private final ApiClient leaseClient;

	/** Reads the Lease client's answers, ignoring fields client-java's models lack. */
	private final Gson leaseAnswers;

	private final ShardGate gate;

	private final MemberTerm term;

	private final Semaphore wake = new Semaphore(0);

	private final LeaseWatch ringWatch;

	/** The holder and acknowledgement of each Lease last seen by the watch. */
	private final Map<String, String> watched = new ConcurrentHashMap<>();

	private final Map<String, Observed> observed = new HashMap<>();

	private volatile boolean drainWaiting;

	private volatile View view = new View(List.of(), Map.of(), 0);

	private final List<java.lang.Runnable> viewListeners = new CopyOnWriteArrayList<>();

	private final List<java.lang.Runnable> termListeners = new CopyOnWriteArrayList<>();

	private volatile @Nullable String readError;

	private volatile boolean leaving;

	private volatile boolean awaitingReconciles;

	/**
	 * Creates a member.
	 * @param client the application's client; Lease requests use connections of their own
	 * @param config the ring settings
	 */
	public ShardMember(ApiClient client, ShardingConfig config) {
		this.config = config;
		this.leaseConfig = config.leaseConfig();
		this.elector = new LeaderElector(client, this.leaseConfig, new LeaderElectionListener() {
		}, new Acknowledgement(), false, LeaderElector.Wording.shard(config.ringName()));
		this.leaseClient = LeaderElector.leaseClient(client, this.leaseConfig);
		this.leaseAnswers = ModelReading.gson(this.leaseClient);
		this.gate = new ShardGate(config.identity(), this.elector.writeFence()::isOpen);
		this.term = new MemberTerm(LeaderElector.recordedLeaseDuration(this.leaseConfig.leaseDuration()));
		this.ringWatch = LeaseWatch.ofLabel(ApiClients.forWatches(client, WATCH_TIMEOUT.plusSeconds(30)),
				config.namespace(), RING_LABEL + "=" + config.ringName(), WATCH_TIMEOUT, this::membershipChanged,
				this.wake::release,
				"Cannot watch the shard ring's Leases, changes are noticed only at the next read of the ring: "
						+ "lease={}/{} error=\"{}\" (grant 'watch' on leases to hand objects over at once)");
		// by label, a reconcile's end never finishes a drain: only a held key given back
		this.gate.addExitListener(() -> {
			if (this.drainWaiting && !labelBased()) {
				this.wake.release();
			}
		});
		this.gate.addUnholdListener(() -> {
			if (this.drainWaiting) {
				this.wake.release();
			}
		});
	}

	/**
	 * Whether a watch event of the ring's Leases may change the ring or a claim: a Lease
	 * added or deleted, or another holder or acknowledgement. Renewals alone do not wake
	 * the reader (expiry is a matter of time, noticed at its periodic read).
	 */
	private boolean membershipChanged(Watch.Response<V1Lease> event) {
		V1Lease lease = event.object;
		if (lease == null || lease.getMetadata() == null || lease.getMetadata().getName() == null) {
			return false;
		}
		String name = lease.getMetadata().getName();
		if ("DELETED".equals(event.type)) {
			this.watched.remove(name);
			return true;
		}
		String holder = (lease.getSpec() != null) ? lease.getSpec().getHolderIdentity() : null;
		Map<String, String> annotations = (lease.getMetadata().getAnnotations() != null)
				? lease.getMetadata().getAnnotations() : Map.of();
		String state = holder + "|" + annotations.get(DRAINED_ANNOTATION) + "|" + annotations.get(TERM_ANNOTATION);
		return !state.equals(this.watched.put(name, state));
	}

	/**
	 * Returns a new record of what a controller of this replica knows of its labelled
	 * share, in the label-based mode: one per controller, since kinds sharded over one
	 * ring may share names.
	 * @return the share, {@code null} in the filter-based mode
	 */
	public @Nullable LabelShare newLabelShare() {
		return labelBased() ? new LabelShare(this.config.ringName(), this.config.identity(), this.term::held) : null;
	}

	/**
	 * Whether the ring is label-based.
	 * @return {@code true} in the label-based mode
	 */
	public boolean labelBased() {
		return this.config.mode() == ShardingConfig.Mode.LABEL;
	}

	/**
	 * Returns the term of this replica's last answered write of its Lease.
	 * @return the term, {@code null} before its first
	 */
	public @Nullable String term() {
		return this.term.held();
	}

	/**
	 * Returns the members seen live at the last read with their terms, and when that read
	 * was sent.
	 * @return the view
	 */
	View view() {
		return this.view;
	}

	/**
	 * Asks for a read of the ring now rather than at the next retry period.
	 */
	void readSoon() {
		this.wake.release();
	}

	/**
	 * Returns the gate of the sharded controllers.
	 * @return the gate
	 */
	public ShardGate gate() {
		return this.gate;
	}

	/**
	 * Returns the members seen live at the last read, this replica included until a lease
	 * duration after its last renewal (also while its fence is closed by a late renewal,
	 * or its Lease was lost and not yet taken again).
	 * @return the identities, sorted
	 */
	public List<String> members() {
		return this.view.members();
	}

	/**
	 * * Adds a listener called, on the thread that reads the ring, whenever the live
	 * members seen or their terms change.
	 * @param listener the listener
	 */
	public void addMembersListener(java.lang.Runnable listener) {
		this.viewListeners.add(listener);
	}

	/**
	 * Adds a listener called, on the thread that renews the Lease, when this replica's
	 * term changes.
	 * @param listener the listener
	 */
	public void addTermListener(java.lang.Runnable listener) {
		this.termListeners.add(listener);
	}

	/**
	 * Removes a listener added with {@link #addMembersListener}.
	 * @param listener the listener
	 */
	public void removeMembersListener(java.lang.Runnable listener) {
		this.viewListeners.remove(listener);
	}

	/**
	 * Whether this replica holds its Lease within the renew deadline.
	 * @return {@code true} while a member
	 */
	public boolean isMember() {
		return this.elector.isLeader() && this.elector.writeFence().isOpen();
	}

	/**
	 * Returns the fence of the sharded controllers' writes: open a renew deadline after
	 * each successful renewal of this replica's Lease began.
	 * @return the fence
	 */
	public WriteFence writeFence() {
		return this.elector.writeFence();
	}

	/**
	 * Whether this replica is leaving the ring, or left it: its membership was stopped.
	 * @return {@code true} once stopping
	 */
	public boolean isLeaving() {
		return this.leaving;
	}

	/**
	 * Whether this replica ever held its Lease.
	 * @return {@code true} once it did
	 */
	public boolean wasMember() {
		return this.elector.sinceLastRenewal() != null;
	}

	/**
	 * Returns the last error of a request about the ring's Leases: this replica's Lease
	 * (until renewed again) or the read of the ring (until read again).
	 * @return the error, {@code null} if none
	 */
	public @Nullable String lastError() {
		String ofLease = this.elector.lastError();
		return (ofLease != null) ? ofLease : this.readError;
	}

	@Override
	public boolean needsLeaderElection() {
		return false;
	}

	/**
	 * Returns what membership needs RBAC to allow, in a role of its own
	 * ({@code sharding}): {@code create}, {@code list}, {@code watch} and {@code delete}
	 * on leases (to join, to read the ring, and to delete the Leases of members gone for
	 * good), {@code get} and {@code update} on this replica's Lease.
	 * @return the permissions
	 */
	@Override
	public List<Permission> requiredPermissions() {
		String namespace = this.config.namespace();
		return List.of(
				Permission.of(LEASE_GROUP, "leases", "create", "list", "watch", "delete")
					.inNamespace(namespace)
					.inRole("sharding")
					.because("sharding creates this replica's Lease in ring " + this.config.ringName()
							+ ", lists and watches the ring's Leases to learn its members, and deletes the Leases "
							+ "of members gone for good"),
				Permission.of(LEASE_GROUP, "leases", "get", "update")
					.resourceNames(this.config.leaseName())
					.inNamespace(namespace)
					.inRole("sharding")
					.because("sharding renews this replica's Lease and writes its drain acknowledgement"));
	}

	@Override
	public void start(StopSignal stop) throws Exception {
		CountDownLatch stopped = new CountDownLatch(1);
		Thread bridge = new Thread(() -> {
			try {
				stop.await();
			}
			catch (InterruptedException ex) {
				// stopping anyway
			}
			stopped.countDown();
			this.wake.release();
		}, "sharding-" + this.config.ringName() + "-stop");
		bridge.setDaemon(true);
		bridge.start();
		Thread observer = new Thread(() -> observe(stopped), "sharding-" + this.config.ringName() + "-observer");
		observer.start();
		this.ringWatch.start();
		logger.info("Joining shard ring: ring={} lease={}/{} identity={}", this.config.ringName(),
				this.config.namespace(), this.config.leaseName(), this.config.identity());
		boolean holding = false;
		try {
			while (stopped.getCount() > 0) {
				if (!this.elector.acquire(stopped)) {
					break;
				}
				this.wake.release();
				holding = true;
				if (this.elector.renewUntilLost(stopped)) {
					holding = false;
					// the fence closed at the renew deadline; the gate is suspended too,
					// so that once the Lease is held again nothing is permitted before a
					// read of the ring that began after that
					this.gate.suspend();
					logger.error("Shard lease lost, reconciling nothing until it is renewed: ring={} identity={}",
							this.config.ringName(), this.config.identity());
					this.wake.release();
					if (!awaitReconcilesBegunUnderTheLostLease(stopped)) {
						break;
					}
				}
			}
		}
		finally {
			stopped.countDown();
			this.ringWatch.stop();
			observer.interrupt();
			leave(observer, holding);
			bridge.interrupt();
		}
	}

	/**
	 * Waits until the reconciles that began while the Lease was held have ended: once the
	 * Lease is held again the fence opens, and their writes would pass it although their
	 * objects may have been taken over meanwhile.
	 * @return {@code false} if stopped first
	 */
	private boolean awaitReconcilesBegunUnderTheLostLease(CountDownLatch stopped) throws InterruptedException {
		if (this.gate.awaitIdle(Duration.ZERO)) {
			return true;
		}
		this.awaitingReconciles = true;
		logger.warn(
				"Shard lease lost while reconciles begun under it (or fleet clusters engaged under it) still "
						+ "run; taking it again once they ended: " + "ring={} identity={}",
				this.config.ringName(), this.config.identity());
		try {
			while (!this.gate.awaitIdle(this.config.retryPeriod())) {
				if (stopped.getCount() == 0) {
					return false;
				}
			}
			return true;
		}
		finally {
			this.awaitingReconciles = false;
		}
	}

	/**
	 * Whether this replica lost its Lease and waits for the reconciles that began under
	 * it to end before it takes the Lease again.
	 * @return {@code true} while waiting
	 */
	public boolean isAwaitingReconciles() {
		return this.awaitingReconciles;
	}

	/**
	 * Closes the gate, waits for the reconciles in flight, renewing the Lease meanwhile
	 * so that their writes pass the fence and nobody takes their objects over, and
	 * releases the Lease. If interrupted first (the graceful shutdown timeout), the Lease
	 * is left to expire; if it is lost meanwhile, the reconciles' writes are fenced off
	 * and the Lease expires.
	 * @param holding whether this replica holds its Lease
	 */
	private void leave(Thread observer, boolean holding) throws InterruptedException {
		this.leaving = true;
		observer.join();
		this.gate.close();
		if (holding && !awaitIdleRenewing()) {
			return;
		}
		if (!holding && !this.gate.awaitIdle(Duration.ofMillis(-1))) {
			return;
		}
		this.gate.pending(new HashRing(List.of(), this.config.virtualNodes()));
		this.elector.release();
		logger.info("Left shard ring: ring={} identity={}", this.config.ringName(), this.config.identity());
	}

	/**
	 * Waits for the reconciles in flight while renewing the Lease.
	 * @return {@code false} if the Lease was lost first
	 */
	private boolean awaitIdleRenewing() throws InterruptedException {
		CountDownLatch idle = new CountDownLatch(1);
		Thread waiter = new Thread(() -> {
			try {
				if (this.gate.awaitIdle(Duration.ofMillis(-1))) {
					idle.countDown();
				}
			}
			catch (InterruptedException ex) {
				// leaving without waiting
			}
		}, "sharding-" + this.config.ringName() + "-leave");
		waiter.setDaemon(true);
		waiter.start();
		try {
			if (this.elector.renewUntilLost(idle)) {
				logger.error(
						"Shard lease lost while leaving the ring with reconciles in flight, their writes are "
								+ "refused and the Lease is left to expire: ring={} identity={}",
						this.config.ringName(), this.config.identity());
				return false;
			}
			return true;
		}
		finally {
			waiter.interrupt();
		}
	}

	private void observe(CountDownLatch stopped) {
		CoordinationV1Api api = new CoordinationV1Api(this.leaseClient);
		while (stopped.getCount() > 0) {
			try {
				observeOnce(api);
				this.wake.tryAcquire(this.config.retryPeriod().toNanos(), TimeUnit.NANOSECONDS);
				this.wake.drainPermits();
			}
			catch (InterruptedException ex) {
				return;
			}
		}
	}

	private void observeOnce(CoordinationV1Api api) {
		HashRing readAfter = this.gate.published();
		long epoch = this.gate.epoch();
		boolean leaseHeld = this.elector.isLeader();
		// this replica counts itself in until a lease duration after its last renewal (by
		// its own clock), as the others count it: a renewal late for a moment, or a Lease
		// lost and taken again soon, changes no view (the fence and the gate's suspension
		// stop its reconciles), so its keys wait instead of being dropped and the sharder
		// on this replica does not move its objects away and back
		Duration sinceRenewal = this.elector.sinceLastRenewal();
		boolean countsSelf = sinceRenewal != null && sinceRenewal.compareTo(this.config.leaseDuration()) < 0;
		V1LeaseList leases;
		// a Lease counts as unchanged only up to when the read was sent (its answer may
		// come late, and the Lease may have been renewed meanwhile), and a new version
		// counts from when the answer came (it may have been written just before)
		long sent = System.nanoTime();
		try {
			// no resourceVersion: a consistent read, which sees every write that
			// completed before it began
			Call call = api.listNamespacedLease(this.config.namespace())
				.labelSelector(RING_LABEL + "=" + this.config.ringName())
				.buildCall(null);
			call.timeout().timeout(this.leaseConfig.requestTimeout().toNanos(), TimeUnit.NANOSECONDS);
			leases = Answers
				.<V1LeaseList>execute("list Leases of ring " + this.config.ringName(), this.leaseAnswers, call,
						V1LeaseList.class)
				.data();
		}
		catch (ApiException ex) {
			this.readError = StatusMessages.describe(ex);
			logger.warn("Reading the shard ring failed: ring={} identity={} error=\"{}\"", this.config.ringName(),
					this.config.identity(), this.readError);
			return;
		}
		this.readError = null;
		long received = System.nanoTime();
		List<Departed> departed = new ArrayList<>();
		List<String> live = new ArrayList<>();
		Map<String, HashRing> claims = new HashMap<>();
		Map<String, String> terms = new HashMap<>();
		Map<String, Observed> seen = new HashMap<>();
		for (V1Lease lease : leases.getItems()) {
			String name = Objects.requireNonNull(lease.getMetadata()).getName();
			String version = lease.getMetadata().getResourceVersion();
			Observed before = this.observed.get(name);
			Observed current = (before != null && Objects.equals(before.version, version)) ? before
					: new Observed(version, received);
			seen.put(name, current);
			String holder = (lease.getSpec() != null) ? lease.getSpec().getHolderIdentity() : null;
			if (name.equals(this.config.leaseName()) || this.config.identity().equals(holder)) {
				continue;
			}
			Integer seconds = (lease.getSpec() != null) ? lease.getSpec().getLeaseDurationSeconds() : null;
			Duration duration = (seconds != null && seconds > 0) ? Duration.ofSeconds(seconds)
					: this.config.leaseDuration();
			long unchanged = sent - current.sinceNanos;
			boolean released = holder == null || holder.isEmpty();
			// a released Lease carries a duration of 1s; the ring's own lease duration
			// is how long it stays before it is deleted
			Duration keep = released ? this.config.leaseDuration() : duration.multipliedBy(2);
			if (unchanged >= keep.toNanos()) {
				departed.add(new Departed(name, version, released ? "" : holder, Duration.ofNanos(unchanged)));
			}
			if (released || unchanged >= duration.toNanos()) {
				// released, or expired: its holder stopped by its renew deadline
				continue;
			}
			live.add(holder);
			Map<String, String> annotations = (lease.getMetadata().getAnnotations() != null)
					? lease.getMetadata().getAnnotations() : Map.of();
			String termOfHolder = annotations.get(TERM_ANNOTATION);
			if (termOfHolder != null) {
				terms.put(holder, termOfHolder);
			}
			HashRing claim = decode(holder, annotations.get(DRAINED_ANNOTATION));
			if (claim != null) {
				claims.put(holder, claim);
			}
		}
		this.observed.clear();
		this.observed.putAll(seen);
		String ownTerm = this.term.held();
		if (countsSelf) {
			live.add(this.config.identity());
			if (ownTerm != null) {
				terms.put(this.config.identity(), ownTerm);
			}
		}
		HashRing view = new HashRing(live, this.config.virtualNodes());
		if (!this.gate.observe(view, new ShardGate.Claims(claims, readAfter), epoch, leaseHeld)) {
			// the Lease was lost while reading: what was read may predate it
			this.wake.release();
			return;
		}
		View before = this.view;
		this.view = new View(view.members(), Map.copyOf(terms), sent);
		if (!view.members().equals(before.members())) {
			logger.info("Shard ring changed: ring={} identity={} members={}", this.config.ringName(),
					this.config.identity(), view.members());
		}
		if (!view.members().equals(before.members()) || !terms.equals(before.terms())) {
			callAll(this.viewListeners);
		}
		if (!view.equals(this.gate.pending())) {
			// by label, objects move by the drain labels, not by these acknowledgements
			// (the keys in flight are not even ring keys): acknowledged once the held
			// keys allow it, so that ShardRing.owns follows the ring without waiting
			// for an idle moment
			boolean drained = labelBased() ? this.gate.heldDrainedFor(view) : this.gate.drainedFor(view);
			this.drainWaiting = !drained;
			if (drained) {
				this.gate.pending(view);
				this.elector.renewSoon();
			}
		}
		if (!departed.isEmpty() && isMember() && !view.members().isEmpty()
				&& this.config.identity().equals(view.members().get(0))) {
			departed.forEach((lease) -> delete(api, lease));
		}
	}

	/**
	 * Deletes the Lease of a member gone for good, unless it changed since it was read:
	 * one released for a lease duration (a graceful stop), or one not renewed for two (a
	 * replica that died, or one cut off for that long, which rejoins with a new Lease
	 * when it can). Only the first live member in identity order deletes, so that the
	 * ring's Leases of identities that never come back (an identity with a random part,
	 * as the default one) do not pile up.
	 */
	private void delete(CoordinationV1Api api, Departed lease) {
		V1DeleteOptions options = new V1DeleteOptions()
			.preconditions(new V1Preconditions().resourceVersion(lease.version()));
		try {
			Call call = api.deleteNamespacedLease(lease.name(), this.config.namespace()).body(options).buildCall(null);
			call.timeout().timeout(this.leaseConfig.requestTimeout().toNanos(), TimeUnit.NANOSECONDS);
			// the response (the deleted Lease or a Status) is not read
			this.leaseClient.execute(call);
			logger.info("Deleted the Lease of a departed shard member: ring={} lease={}/{} holder={} unchangedFor={}",
					this.config.ringName(), this.config.namespace(), lease.name(),
					lease.holder().isEmpty() ? "none" : lease.holder(), lease.unchanged());
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404 || ex.getCode() == 409) {
				// deleted by another member, or renewed since it was read
				return;
			}
			logger.warn("Could not delete the Lease of a departed shard member: ring={} lease={}/{} error=\"{}\"",
					this.config.ringName(), this.config.namespace(), lease.name(), StatusMessages.describe(ex));
		}
	}

	/**
	 * Calls listeners; one that fails is logged, and neither the others nor the caller
	 * (the reader of the ring, or a write of the Lease) are affected.
	 */
	private void callAll(List<java.lang.Runnable> listeners) {
		for (java.lang.Runnable listener : listeners) {
			try {
				listener.run();
			}
			catch (RuntimeException ex) {
				logger.warn("A shard ring listener failed: ring={} identity={} listener={}", this.config.ringName(),
						this.config.identity(), listener, ex);
			}
		}
	}

	/**
	 * Reads an acknowledgement: {@code null} (claims nothing) if absent or empty; a ring
	 * of the holder alone (claims every key) if malformed, which is safe but holds its
	 * keys back until it writes a readable one.
	 */
	static @Nullable HashRing decode(String holder, @Nullable String value) {
		if (value == null || value.isEmpty()) {
			return null;
		}
		int colon = value.indexOf(':');
		try {
			int virtualNodes = Integer.parseInt(value.substring(0, colon));
			String list = value.substring(colon + 1);
			return new HashRing(list.isEmpty() ? List.of() : Arrays.asList(list.split(",")), virtualNodes);
		}
		catch (RuntimeException ex) {
			logger.warn("Unreadable shard acknowledgement, counting every key as claimed: holder={} value=\"{}\"",
					holder, value);
			return new HashRing(List.of(holder), 1);
		}
	}

	static String encode(@Nullable HashRing view) {
		return (view != null && !view.members().isEmpty())
				? view.virtualNodes() + ":" + String.join(",", view.members()) : "";
	}

	/**
	 * Writes the pending acknowledgement with every write of the Lease, and records it as
	 * published once written.
	 */
	private final class Acknowledgement implements LeaseMetadata {

		@Override
		public Map<String, String> labels() {
			return Map.of(RING_LABEL, ShardMember.this.config.ringName());
		}

		@Override
		public Map<String, String> annotations(Duration timeout) {
			return Map.of(DRAINED_ANNOTATION, encode(ShardMember.this.gate.pending()), TERM_ANNOTATION,
					ShardMember.this.term.forWrite(System.nanoTime(), timeout));
		}

		@Override
		public void written(Map<String, String> annotations) {
			if (ShardMember.this.term.written(annotations.get(TERM_ANNOTATION))) {
				logger.info("Shard term: ring={} identity={} term={}", ShardMember.this.config.ringName(),
						ShardMember.this.config.identity(), annotations.get(TERM_ANNOTATION));
				// the objects stamped with the new term are this replica's from now
				// on; the others' views learn it at their next read
				callAll(ShardMember.this.termListeners);
				ShardMember.this.wake.release();
			}
			HashRing decoded = decode(ShardMember.this.config.identity(), annotations.get(DRAINED_ANNOTATION));
			HashRing written = (decoded != null) ? decoded
					: new HashRing(List.of(), ShardMember.this.config.virtualNodes());
			if (!written.equals(ShardMember.this.gate.published())) {
				ShardMember.this.gate.published(written);
				ShardMember.this.wake.release();
			}
		}

	}

	private record Observed(@Nullable String version, long sinceNanos) {
	}

	/**
	 * The members seen live at a read of the ring.
	 *
	 * @param members their identities, sorted
	 * @param terms the term of each, where its Lease has one
	 * @param readSentNanos when the read was sent: it saw every write of a Lease that
	 * completed before
	 */
	record View(List<String> members, Map<String, String> terms, long readSentNanos) {
	}

	private record Departed(String name, @Nullable String version, String holder, Duration unchanged) {
	}

	@Override
	public String toString() {
		return "ShardMember[" + this.config.ringName() + ", " + this.config.identity() + "]";
	}

}
