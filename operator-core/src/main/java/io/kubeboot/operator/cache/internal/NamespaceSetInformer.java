package io.kubeboot.operator.cache.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.cache.InformerCost;
import io.kubeboot.operator.cache.InformerKey;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The informer of a kind in the manager's namespace set: one {@link ScopedInformer} per
 * namespace of the set, its members, or a single one of all namespaces for a
 * cluster-scoped kind. It reads from its members and hands their events to its handlers;
 * {@link NamespaceSetInformers} changes its members when the set changes.
 * <p>
 * A member is an informer registered with the cache under its namespace, shared with any
 * code that asked for that namespace by name. Each handler is registered with each member
 * informer once, through a {@link Forwarder} that goes quiet when the membership ends: a
 * shared member keeps serving the others, and a member that left delivers nothing more
 * here once the change returned, not even the deletion of the objects it held (they were
 * not deleted). A member that joins hands what it caches to every handler as the adds of
 * an initial list, or lists them first if it is new.
 * <p>
 * Reads of a namespace it has no member for find nothing; the cache's reads refuse such a
 * namespace instead ({@code NamespaceNotWatchedException}).
 *
 * @param <T> the model type stored
 */
final class NamespaceSetInformer<T extends KubernetesObject> implements Informer<T> {

	/** The namespace under which the member of all namespaces is kept. */
	static final String ALL = "";

	/**
	 * How long a change waits for a handler busy with an event of a namespace that left.
	 */
	static final Duration DELIVERY_WAIT = Duration.ofSeconds(10);

	private static final Logger logger = LoggerFactory.getLogger(NamespaceSetInformer.class);

	private final InformerKey key;

	private final List<ResourceEventHandler<T>> handlers = new CopyOnWriteArrayList<>();

	/**
	 * The forwarder of each handler by member informer, kept while that informer is
	 * registered with the cache, whether or not it is a member now; guarded by itself.
	 */
	private final Map<ScopedInformer<T>, Map<ResourceEventHandler<T>, Forwarder<T>>> forwarders = new IdentityHashMap<>();

	/** The members by namespace, replaced whole under the cache's lock. */
	private volatile Map<String, Member<T>> members = Map.of();

	/**
	 * How often it was asked for and not given back, guarded by the cache's lock: while
	 * none asks for it, its members are not asked for either.
	 */
	private int asked;

	NamespaceSetInformer(InformerKey key) {
		this.key = key;
	}

	@Override
	public InformerKey key() {
		return this.key;
	}

	/**
	 * Returns the keys of its members, as the set is now.
	 * @return the keys, in the order of the namespaces
	 */
	List<InformerKey> memberKeys() {
		return this.members.values()
			.stream()
			.sorted(Comparator.comparing(Member::namespace))
			.<InformerKey>map((member) -> member.informer().key())
			.toList();
	}

	/**
	 * Returns the key of the member of a namespace.
	 * @param namespace a namespace, or {@link #ALL}
	 * @return the key
	 */
	InformerKey memberKey(String namespace) {
		return new InformerKey(this.key.type(), namespace.equals(ALL) ? null : namespace, this.key.labelSelector(),
				this.key.fieldSelector(), this.key.metadataOnly());
	}

	Map<String, Member<T>> members() {
		return this.members;
	}

	/**
	 * Replaces the members; called under the cache's lock.
	 * @param members the members by namespace
	 */
	void members(Map<String, Member<T>> members) {
		this.members = Map.copyOf(members);
	}

	int asked() {
		return this.asked;
	}

	void asked(int asked) {
		this.asked = asked;
	}

	List<ResourceEventHandler<T>> handlers() {
		return this.handlers;
	}

	/**
	 * Adds a handler: every member, present and future, hands it its events.
	 * @param handler the handler
	 */
	@Override
	public void addEventHandler(ResourceEventHandler<T> handler) {
		this.handlers.add(handler);
		for (Member<T> member : this.members.values()) {
			forward(member, handler);
		}
	}

	/**
	 * Returns the member that holds a namespace's objects.
	 * @param namespace a namespace, {@code null} for cluster-scoped objects
	 * @return the member, or {@code null} if none holds them
	 */
	private @Nullable Member<T> memberFor(@Nullable String namespace) {
		Map<String, Member<T>> current = this.members;
		Member<T> all = current.get(ALL);
		if (all != null) {
			return all;
		}
		return (namespace != null) ? current.get(namespace) : null;
	}

	/**
	 * Whether every member has synced: none has to list again, nor has yet to list a
	 * namespace just added.
	 */
	@Override
	public boolean hasSynced() {
		return this.members.values().stream().allMatch((member) -> member.informer().hasSynced());
	}

	@Override
	public boolean hasSynced(@Nullable String namespace) {
		if (namespace == null) {
			return hasSynced();
		}
		Member<T> member = memberFor(namespace);
		return member != null && member.informer().hasSynced();
	}

	@Override
	public List<T> list() {
		Map<String, Member<T>> current = this.members;
		if (current.size() == 1) {
			return current.values().iterator().next().informer().list();
		}
		List<T> objects = new ArrayList<>();
		for (Member<T> member : current.values()) {
			objects.addAll(member.informer().list());
		}
		return objects;
	}

	@Override
	public List<T> list(String namespace) {
		Member<T> member = memberFor(namespace);
		return (member != null) ? member.informer().list(namespace) : new ArrayList<>();
	}

	@Override
	public Optional<T> get(@Nullable String namespace, String name) {
		Member<T> member = memberFor(namespace);
		return (member != null) ? member.informer().get(namespace, name) : Optional.empty();
	}

	@Override
	public @Nullable String lastError() {
		String errors = this.members.values()
			.stream()
			.filter((member) -> member.informer().lastError() != null)
			.map((member) -> member.informer().key() + ": " + member.informer().lastError())
			.collect(Collectors.joining("; "));
		return errors.isEmpty() ? null : errors;
	}

	@Override
	public @Nullable Duration failingFor() {
		return longest(this.members.values().stream().map((member) -> member.informer().failingFor()).toList());
	}

	@Override
	public Duration silentFor() {
		Duration silent = longest(
				this.members.values().stream().map((member) -> member.informer().silentFor()).toList());
		return (silent != null) ? silent : Duration.ZERO;
	}

	@Override
	public long restarts() {
		return this.members.values().stream().mapToLong((member) -> member.informer().restarts()).sum();
	}

	@Override
	public long undecodableObjects() {
		return this.members.values().stream().mapToLong((member) -> member.informer().undecodableObjects()).sum();
	}

	@Override
	public Optional<String> undecodableVersion(@Nullable String namespace, String name) {
		Member<T> member = memberFor(namespace);
		return (member != null) ? member.informer().undecodableVersion(namespace, name) : Optional.empty();
	}

	/**
	 * The sum of its members' costs: their objects, the heap of those whose estimate is
	 * known (none if no member's is), their budget crossings. Budgets are the members'
	 * own, each informer of the set with its own: the sum has none.
	 */
	@Override
	public InformerCost cost() {
		int objects = 0;
		long bytes = -1;
		long crossings = 0;
		for (Member<T> member : this.members.values()) {
			InformerCost cost = member.informer().cost();
			objects += cost.objects();
			if (cost.estimatedBytes().isPresent()) {
				bytes = Math.max(bytes, 0) + cost.estimatedBytes().getAsLong();
			}
			crossings += cost.budgetCrossings();
		}
		return InformerCost.of(objects, bytes, 0, crossings);
	}

	@Override
	public @Nullable Duration restartingFor() {
		return longest(this.members.values().stream().map((member) -> member.informer().restartingFor()).toList());
	}

	private static @Nullable Duration longest(List<@Nullable Duration> durations) {
		Duration longest = null;
		for (Duration duration : durations) {
			if (duration != null && (longest == null || duration.compareTo(longest) > 0)) {
				longest = duration;
			}
		}
		return longest;
	}

	@Override
	public String toString() {
		return "NamespaceSetInformer[" + this.key + ", namespaces=" + this.members.keySet() + "]";
	}

	/**
	 * Hands a member's events to a handler, through the forwarder of that handler and
	 * informer: created and registered with the informer the first time, serving the new
	 * membership (with a replay of what the informer holds) after. Nothing for a member
	 * that left meanwhile.
	 * @param member the member
	 * @param handler the handler
	 */
	void forward(Member<T> member, ResourceEventHandler<T> handler) {
		if (!member.active()) {
			return;
		}
		Forwarder<T> forwarder;
		boolean created = false;
		synchronized (this.forwarders) {
			Map<ResourceEventHandler<T>, Forwarder<T>> ofInformer = this.forwarders.computeIfAbsent(member.informer(),
					(informer) -> new IdentityHashMap<>());
			forwarder = ofInformer.get(handler);
			if (forwarder == null) {
				forwarder = new Forwarder<>(member.informer(), handler, member);
				ofInformer.put(handler, forwarder);
				created = true;
			}
		}
		if (created) {
			// client-java hands it what the informer holds, or its first list
			member.informer().addEventHandler(forwarder);
		}
		else {
			forwarder.serve(member);
		}
	}

	/**
	 * Waits until no event of a member that left is being handed to a handler, so that
	 * none reaches a handler once the change returns. Called outside the cache's lock,
	 * which a handler may take to read the cache.
	 * @param member the member that left
	 * @throws InterruptedException if interrupted while waiting
	 */
	void awaitDelivered(Member<T> member) throws InterruptedException {
		List<Forwarder<T>> forwarding;
		synchronized (this.forwarders) {
			forwarding = List.copyOf(this.forwarders.getOrDefault(member.informer(), Map.of()).values());
		}
		for (Forwarder<T> forwarder : forwarding) {
			if (!forwarder.awaitDelivered(DELIVERY_WAIT)) {
				logger.warn("A handler is still busy with an event of a namespace that left the set, going on: "
						+ "informer={} waited={}ms", member.informer().key(), DELIVERY_WAIT.toMillis());
			}
		}
	}

	/**
	 * Drops the forwarders registered with a member informer the cache stopped.
	 * @param informer the informer
	 */
	void forget(ScopedInformer<T> informer) {
		synchronized (this.forwarders) {
			this.forwarders.remove(informer);
		}
	}

	/**
	 * Returns the forwarders registered with a member informer.
	 * @param informer the informer
	 * @return the forwarders, one per handler
	 */
	List<Forwarder<T>> forwarders(ScopedInformer<T> informer) {
		synchronized (this.forwarders) {
			return List.copyOf(this.forwarders.getOrDefault(informer, Map.of()).values());
		}
	}

	/**
	 * One namespace's informer while it belongs to the set: a membership, active from its
	 * join until it leaves.
	 *
	 * @param <T> the model type stored
	 */
	static final class Member<T extends KubernetesObject> {

		private final String namespace;

		private final ScopedInformer<T> informer;

		private volatile boolean active = true;

		Member(String namespace, ScopedInformer<T> informer) {
			this.namespace = namespace;
			this.informer = informer;
		}

		String namespace() {
			return this.namespace;
		}

		ScopedInformer<T> informer() {
			return this.informer;
		}

		/**
		 * Ends the membership at once: its forwarders deliver nothing from now on, save
		 * what is under way ({@link NamespaceSetInformer#awaitDelivered}). Called under
		 * the cache's lock, as the member leaves the set.
		 */
		void deactivate() {
			this.active = false;
		}

		boolean active() {
			return this.active;
		}

	}

}
