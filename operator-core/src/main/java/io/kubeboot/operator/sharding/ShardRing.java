package io.kubeboot.operator.sharding;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

import io.kubeboot.operator.client.internal.KindResolver.DeclaredKind;
import io.kubeboot.operator.client.internal.KindResolver;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.controller.WorkGate;
import io.kubeboot.operator.healthz.Check;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.sharding.internal.FilterGate;
import io.kubeboot.operator.sharding.internal.HashRing;
import io.kubeboot.operator.sharding.internal.HeldKeys;
import io.kubeboot.operator.sharding.internal.LabelGate;
import io.kubeboot.operator.sharding.internal.ShardLabels;
import io.kubeboot.operator.sharding.internal.ShardMember;
import io.kubeboot.operator.sharding.internal.Sharder;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;

/**
 * This replica's membership in a ring of replicas that share the objects of sharded
 * controllers (filter-based: every replica caches every object and reconciles only the
 * ones the ring gives it). Join a ring, then opt controllers in with
 * {@code ControllerBuilder.gatedBy(ring)}:
 *
 * <pre class="code">
 * ShardRing ring = ShardRing.join(manager, apiClient, new ShardingConfig("operators", "widgets", identity,
 *         Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(2), ShardingConfig.DEFAULT_VIRTUAL_NODES));
 * Controller.builder(manager, Widget.class).gatedBy(ring).complete(reconciler);
 * </pre>
 *
 * Each replica holds a Lease of its own, labelled {@value #RING_LABEL}{@code =<ring>} and
 * renewed like the leader Lease; an object ({@code group/kind/namespace/name}) belongs to
 * a live member by consistent hashing with virtual nodes. When the members change, an
 * object moves from a live replica only after that replica acknowledged, in its Lease's
 * {@value #DRAINED_ANNOTATION} annotation, a view under which it no longer owns the
 * object, with no reconcile of it in flight; from a replica that stopped renewing only
 * once its Lease expired. A replica past its renew deadline reconciles nothing. Sharded
 * controllers run on every replica; leader-only runnables and unsharded controllers keep
 * using leader election beside the ring. See ARCHITECTURE.md for the protocol.
 * <p>
 * Thread-safe.
 */
public final class ShardRing implements WorkGate.Factory {

	/** The label naming the ring on every member's Lease. */
	public static final String RING_LABEL = ShardMember.RING_LABEL;

	/** The annotation holding the view a member acknowledged (drained up to). */
	public static final String DRAINED_ANNOTATION = ShardMember.DRAINED_ANNOTATION;

	private final ShardingConfig config;

	private final ShardMember member;

	/** The sharder of the label-based mode, {@code null} in the filter-based mode. */
	private final @Nullable Sharder sharder;

	private ShardRing(ShardingConfig config, ShardMember member, @Nullable Sharder sharder) {
		this.config = config;
		this.member = member;
		this.sharder = sharder;
	}

	/**
	 * Joins a ring: adds this replica's membership to the manager as an every-replica
	 * runnable named {@code sharding-<ring>}, which holds the Lease while the manager
	 * runs and releases it on stop, once the sharded controllers' reconciles in flight
	 * finished, and a readiness check named {@code shard-ring-<ring>}, which fails while
	 * this replica is not a member (before its Lease is first held, and after it was not
	 * renewed within the renew deadline).
	 * @param manager the manager
	 * @param client the client to reach the API server with (Lease requests use
	 * connections of their own)
	 * @param config the ring settings
	 * @return the membership, to hand to sharded controllers
	 */
	public static ShardRing join(Manager manager, ApiClient client, ShardingConfig config) {
		Objects.requireNonNull(config, "config must not be null");
		ShardMember member = new ShardMember(client, config);
		manager.add("sharding-" + config.ringName(), member);
		Sharder sharder = null;
		if (config.mode() == ShardingConfig.Mode.LABEL) {
			if (manager.leaderElection() == null) {
				throw new IllegalArgumentException("Shard ring " + config.ringName()
						+ " is label-based: its sharder runs on the leader, so the manager needs leader election");
			}
			sharder = new Sharder(member, config, manager.cache(), manager.client());
			manager.add("sharder-" + config.ringName(), sharder);
		}
		ShardRing ring = new ShardRing(config, member, sharder);
		HeldKeys.register(ring, member);
		manager.addCheck(Check.readiness(checkName(config.ringName()), () -> {
			if (!member.isMember()) {
				String why = member.isLeaving() ? " is given back: this replica is leaving the ring" : member
					.isAwaitingReconciles()
							? " was lost while reconciles begun under it (or fleet clusters engaged under it) still run; "
									+ "it is taken again once they ended"
							: (member.wasMember() ? " was not renewed within the renew deadline" : " is not held yet");
				throw new IllegalStateException("not a member of shard ring " + config.ringName() + ": its Lease "
						+ config.namespace() + "/" + config.leaseName() + why);
			}
		}));
		return ring;
	}

	/**
	 * Returns the ring a controller shares its objects over.
	 * @param controller the controller
	 * @return the ring, {@code null} if the controller is not sharded
	 */
	public static @Nullable ShardRing of(Controller controller) {
		WorkGate gate = controller.gate();
		if (gate instanceof FilterGate filter) {
			return filter.ring();
		}
		return (gate instanceof LabelGate label) ? label.ring() : null;
	}

	/**
	 * Creates the gate of a controller that shares its objects over this ring: it runs on
	 * every replica and reconciles the objects the ring gives this replica (see the class
	 * description). Called by {@code ControllerBuilder.gatedBy(ring)}.
	 * @param target the controller
	 * @return its gate
	 */
	@Override
	public WorkGate create(WorkGate.Target target) {
		return (this.sharder != null) ? new LabelGate(this, this.member, this.sharder, target)
				: new FilterGate(this, this.member, target.kind());
	}

	/**
	 * The name of a ring's readiness check: {@code shard-ring-<ring>}, lower case, with
	 * every character a check name cannot hold replaced by {@code -}.
	 */
	static String checkName(String ringName) {
		String cleaned = ringName.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
		return "shard-ring" + (cleaned.isEmpty() ? "" : "-" + cleaned);
	}

	/**
	 * Returns the settings.
	 * @return the configuration
	 */
	public ShardingConfig config() {
		return this.config;
	}

	/**
	 * Returns the members this replica saw live at its last read of the ring.
	 * @return their identities, sorted
	 */
	public List<String> members() {
		return this.member.members();
	}

	/**
	 * Whether this replica holds its Lease within the renew deadline.
	 * @return {@code true} while a member
	 */
	public boolean isMember() {
		return this.member.isMember();
	}

	/**
	 * Whether this replica may reconcile an object of a kind now, by the ring: in the
	 * filter-based mode, it is this replica's and no other member still claims it. In the
	 * label-based mode the labels decide, and this tells only where the ring puts the
	 * object: another replica may still reconcile it until it gave it back and the
	 * sharder labelled it for this one.
	 * @param kind the reconciled model class
	 * @param request the object
	 * @return {@code true} if the ring gives it to this replica (and, by filter, no other
	 * member still claims it)
	 */
	public boolean owns(Class<? extends KubernetesObject> kind, Request request) {
		return this.member.gate().permits(key(kind, request));
	}

	/**
	 * Returns the error of the last request about the ring's Leases that failed, if the
	 * Lease has not been renewed since.
	 * @return the error, {@code null} if none
	 */
	public @Nullable String lastError() {
		return this.member.lastError();
	}

	/**
	 * Returns the key an object has on the ring: {@code group/kind/namespace/name}.
	 * @param kind the model class
	 * @param request the object
	 * @return the key
	 */
	public static String key(Class<? extends KubernetesObject> kind, Request request) {
		DeclaredKind declared = KindResolver.declaredKind(kind);
		return HashRing.key(declared.group(), declared.kind(), request.namespace(), request.name());
	}

	/**
	 * Returns the key of a ring's shard label in the label-based mode,
	 * {@code shard.sharding.kubeboot.io/<ring>}: its value names the member an object is
	 * assigned to ({@link #shardId}), so
	 * {@code kubectl get widgets -l shard.sharding.kubeboot.io/widgets=<shard id>} lists
	 * a member's share.
	 * @param ringName the ring's name
	 * @return the label's key
	 */
	public static String shardLabel(String ringName) {
		return ShardLabels.shardKey(ringName);
	}

	/**
	 * Returns the key of a ring's drain label in the label-based mode,
	 * {@code drain.sharding.kubeboot.io/<ring>}: present (value {@code true}) while the
	 * sharder waits for the member named by the shard label to give the object back.
	 * @param ringName the ring's name
	 * @return the label's key
	 */
	public static String drainLabel(String ringName) {
		return ShardLabels.drainKey(ringName);
	}

	/**
	 * Returns the key of a ring's term annotation in the label-based mode,
	 * {@code term.sharding.kubeboot.io/<ring>}: the term of the member named by the shard
	 * label when the sharder assigned the object to it. A member reconciles only objects
	 * of its current term, which is new each time it starts and each time it takes its
	 * Lease again after the others may have counted it gone (see {@link #term()}).
	 * @param ringName the ring's name
	 * @return the annotation's key
	 */
	public static String termAnnotation(String ringName) {
		return ShardLabels.termKey(ringName);
	}

	/**
	 * Returns this replica's current term: the value of the annotation
	 * {@code sharding.kubeboot.io/term} of its last answered write of its Lease.
	 * @return the term, {@code null} before this replica held its Lease
	 */
	public @Nullable String term() {
		return this.member.term();
	}

	/**
	 * Returns the value of the shard label that assigns an object to a member: the
	 * identity itself if it is a label value, else a label value made from it (characters
	 * a label value cannot hold replaced, cut, and a hash of the identity appended).
	 * @param identity the member's identity
	 * @return the shard id
	 */
	public static String shardId(String identity) {
		return ShardLabels.shardId(identity);
	}

	@Override
	public String toString() {
		return "ShardRing[" + this.config.ringName() + ", " + this.config.identity() + "]";
	}

}
