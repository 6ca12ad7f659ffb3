package io.kubeboot.operator.cache.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.cache.InformerEventHandler;
import io.kubeboot.operator.cache.InformerKey;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import org.jspecify.annotations.Nullable;

/**
 * The informer of a kind in the manager's namespace set: one {@link ScopedInformer} per
 * namespace of the set, its members, or a single one of all namespaces for a
 * cluster-scoped kind. It reads from its members and hands their events to its handlers;
 * {@link NamespaceSetInformers} changes its members when the set changes.
 * <p>
 * A member is an informer registered with the cache under its namespace, shared with any
 * code that asked for that namespace by name. Each handler is registered with each member
 * once, through a {@link Forwarder} that goes quiet when the member leaves: a shared
 * member keeps serving the others, and a member that left delivers nothing more here,
 * not even the deletion of the objects it held (they were not deleted). A member that
 * joins replays what it caches to every handler as the adds of an initial list, or lists
 * them first if it is new.
 *
 * @param <T> the model type stored
 */
final class NamespaceSetInformer<T extends KubernetesObject> implements Informer<T> {

	/** The namespace under which the member of all namespaces is kept. */
	static final String ALL = "";

	private final InformerKey key;

	private final List<ResourceEventHandler<T>> handlers = new CopyOnWriteArrayList<>();

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

	@Override
	public List<InformerKey> keys() {
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
			member.forward(handler);
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
		Duration silent = longest(this.members.values().stream().map((member) -> member.informer().silentFor()).toList());
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
	 * One namespace's informer while it belongs to the set.
	 *
	 * @param <T> the model type stored
	 */
	static final class Member<T extends KubernetesObject> {

		private final String namespace;

		private final ScopedInformer<T> informer;

		/** The handlers registered with the informer, each once. */
		private final Set<ResourceEventHandler<T>> forwarded = Collections.newSetFromMap(new IdentityHashMap<>());

		/** Their forwarders, to take back from the informer when the member leaves. */
		private final List<Forwarder<T>> forwarders = new ArrayList<>();

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
		 * Registers a handler with the informer, unless it was registered already or the
		 * member left.
		 * @param handler the handler
		 */
		synchronized void forward(ResourceEventHandler<T> handler) {
			if (!this.active || !this.forwarded.add(handler)) {
				return;
			}
			Forwarder<T> forwarder = new Forwarder<>(this, handler);
			this.forwarders.add(forwarder);
			this.informer.addEventHandler(forwarder);
		}

		/**
		 * Silences the forwarders at once; called under the cache's lock, as the member
		 * leaves the set.
		 */
		void deactivate() {
			this.active = false;
		}

		/**
		 * Takes the forwarders back from the informer, which may go on serving others:
		 * its next runs and restarts leave them out. Called once deactivated, outside the
		 * cache's lock (the informer's lock is taken).
		 */
		synchronized void detach() {
			this.forwarders.forEach(this.informer::removeEventHandler);
			this.forwarders.clear();
		}

		boolean active() {
			return this.active;
		}

	}

	/**
	 * Hands a member's events to one handler while the member belongs to the set, telling
	 * the adds of an initial list from the others as the member told them.
	 *
	 * @param <T> the model type stored
	 */
	private record Forwarder<T extends KubernetesObject>(Member<T> member,
			ResourceEventHandler<T> handler) implements InformerEventHandler<T> {

		@Override
		public void onAdd(T object, boolean inInitialList) {
			if (this.member.active()) {
				if (this.handler instanceof InformerEventHandler<T> aware) {
					aware.onAdd(object, inInitialList);
				}
				else {
					this.handler.onAdd(object);
				}
			}
		}

		@Override
		public void onUpdate(T oldObject, T newObject) {
			if (this.member.active()) {
				this.handler.onUpdate(oldObject, newObject);
			}
		}

		@Override
		public void onDelete(T object, boolean deletedFinalStateUnknown) {
			if (this.member.active()) {
				this.handler.onDelete(object, deletedFinalStateUnknown);
			}
		}

	}

}
