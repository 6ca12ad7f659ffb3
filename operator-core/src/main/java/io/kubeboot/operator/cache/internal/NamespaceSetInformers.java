package io.kubeboot.operator.cache.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.cache.WatchedNamespaces;
import io.kubeboot.operator.cache.internal.NamespaceSetInformer.Member;
import io.kubeboot.operator.client.internal.ResourceKind;
import io.kubeboot.operator.config.internal.ConfigChecks;
import io.kubernetes.client.common.KubernetesObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The manager's namespaces and the informers that follow them
 * ({@link NamespaceSetInformer}): one per kind, label selector, field selector and form
 * asked for without a namespace, each with a member informer per namespace of the set.
 * <p>
 * A change is worked out under the registry's lock, where the new set and every
 * informer's new members are published (the set first, the members after, each a
 * volatile, immutable value) together with the registrations they make; what takes other
 * locks (registering handlers with the members, starting and stopping them) is done
 * after, outside it. A reader that takes no lock may see the new set with an informer's
 * old members for a moment: a namespace just added is then not synced by that informer
 * (its requests wait), and one just removed is dropped by the set before its members go.
 * Reads of the cache go to a snapshot of the registry, taken under the lock. Changes are
 * applied one at a time, each whole.
 */
final class NamespaceSetInformers implements WatchedNamespaces {

	private static final Logger logger = LoggerFactory.getLogger(NamespaceSetInformers.class);

	private static final Duration SYNC_POLL = Duration.ofMillis(20);

	private final InformerCache cache;

	/** The cache's informers, whose lock guards the set and the informers' members. */
	private final InformerRegistry registry;

	/** Whether every namespace is watched: then no informer follows a set. */
	private final boolean all;

	/** Guarded by the registry's lock, read without it. */
	private volatile Set<String> namespaces;

	/** Guarded by the registry's lock. */
	private final Map<InformerKey, NamespaceSetInformer<?>> informers = new LinkedHashMap<>();

	/** Told of the namespaces that join, once their informers started. */
	private final List<Consumer<Set<String>>> joinedListeners = new CopyOnWriteArrayList<>();

	/** Told of the namespaces that leave, before their informers stop. */
	private final List<Consumer<Set<String>>> leavingListeners = new CopyOnWriteArrayList<>();

	/**
	 * Taken by every change, so that one is started and stopped whole before the next.
	 */
	private final Object changes = new Object();

	private volatile boolean stopped;

	/**
	 * Creates the manager's namespaces.
	 * @param cache the cache whose informers follow them
	 * @param registry the cache's informers
	 * @param namespaces the namespaces, checked already; empty for every namespace
	 */
	NamespaceSetInformers(InformerCache cache, InformerRegistry registry, Collection<String> namespaces) {
		this.cache = cache;
		this.registry = registry;
		this.all = namespaces.isEmpty();
		this.namespaces = Collections.unmodifiableSet(new TreeSet<>(namespaces));
	}

	@Override
	public boolean watchesAll() {
		return this.all;
	}

	@Override
	public Set<String> current() {
		return this.namespaces;
	}

	@Override
	public void set(Collection<String> namespaces) {
		Objects.requireNonNull(namespaces, "namespaces must not be null");
		Set<String> wanted = checked(namespaces);
		change((current) -> wanted);
	}

	@Override
	public void add(String... namespaces) {
		Objects.requireNonNull(namespaces, "namespaces must not be null");
		Set<String> added = checked(Arrays.asList(namespaces));
		change((current) -> {
			Set<String> next = new TreeSet<>(current);
			next.addAll(added);
			return next;
		});
	}

	@Override
	public void remove(String... namespaces) {
		Objects.requireNonNull(namespaces, "namespaces must not be null");
		Set<String> removed = checked(Arrays.asList(namespaces));
		change((current) -> {
			Set<String> next = new TreeSet<>(current);
			removed.forEach(next::remove);
			return next;
		});
	}

	/**
	 * Checks namespaces given to a change.
	 * @throws io.kubeboot.operator.config.InvalidConfigException naming each value that
	 * is no namespace name
	 */
	private static Set<String> checked(Collection<String> namespaces) {
		ConfigChecks checks = new ConfigChecks();
		int i = 0;
		for (String namespace : namespaces) {
			checks.dnsLabel("namespaces[" + i++ + "]", namespace);
		}
		checks.throwIfAny();
		return new TreeSet<>(namespaces);
	}

	private void change(UnaryOperator<Set<String>> next) {
		if (this.all) {
			throw new IllegalStateException("The manager watches all namespaces, which cannot change while it runs: "
					+ "build it with the namespaces to watch (ManagerBuilder.namespaces, operator.namespaces) "
					+ "to change them at run time");
		}
		synchronized (this.changes) {
			if (this.stopped) {
				throw new IllegalStateException("The manager stopped: its namespaces no longer change");
			}
			Set<String> before = this.namespaces;
			Set<String> after = Collections.unmodifiableSet(new TreeSet<>(next.apply(before)));
			if (after.equals(before)) {
				return;
			}
			Set<String> leaving = new TreeSet<>(before);
			leaving.removeAll(after);
			if (!leaving.isEmpty()) {
				tellLeaving(Collections.unmodifiableSet(leaving));
			}
			Plan plan = new Plan();
			synchronized (this.registry) {
				this.namespaces = after;
				for (NamespaceSetInformer<?> informer : this.informers.values()) {
					reconcile(informer, targets(informer), plan);
				}
			}
			Set<String> added = new TreeSet<>(after);
			added.removeAll(before);
			try {
				apply(plan);
			}
			finally {
				logger.info("Watched namespaces changed: added={} removed={} namespaces={}", added, leaving, after);
				if (!added.isEmpty()) {
					this.joinedListeners.forEach((listener) -> listener.accept(Collections.unmodifiableSet(added)));
				}
			}
		}
	}

	/**
	 * Calls a listener with the namespaces that join the set at each change, once their
	 * informers started.
	 * @param listener the listener; it must not block nor change the set
	 */
	void onJoined(Consumer<Set<String>> listener) {
		this.joinedListeners.add(listener);
	}

	/**
	 * Calls a listener with the namespaces that leave the set at each change, before
	 * their informers stop: they still hold the namespaces' objects.
	 * @param listener the listener; it must not change the set
	 */
	void onLeaving(Consumer<Set<String>> listener) {
		this.leavingListeners.add(listener);
	}

	private void tellLeaving(Set<String> leaving) {
		for (Consumer<Set<String>> listener : this.leavingListeners) {
			try {
				listener.accept(leaving);
			}
			catch (RuntimeException ex) {
				logger.warn("A listener of the namespaces leaving the set failed, going on: namespaces={}", leaving,
						ex);
			}
		}
	}

	/**
	 * Returns the informer of a kind in the set, registering it if it is new, and asks
	 * for it: its members are asked for while anyone asks for it.
	 * @param <T> the model type stored
	 * @param key the key, without a namespace
	 * @return the informer
	 */
	@SuppressWarnings("unchecked")
	<T extends KubernetesObject> NamespaceSetInformer<T> informer(InformerKey key) {
		synchronized (this.changes) {
			Plan plan = new Plan();
			NamespaceSetInformer<T> informer;
			synchronized (this.registry) {
				informer = (NamespaceSetInformer<T>) this.informers.get(key);
				boolean created = informer == null;
				if (created) {
					informer = new NamespaceSetInformer<>(key);
					this.informers.put(key, informer);
				}
				informer.asked(informer.asked() + 1);
				if (created) {
					reconcile(informer, targets(informer), plan);
				}
				else if (informer.asked() == 1) {
					// asked for again after it was given back: so are its members
					for (Member<T> member : informer.members().values()) {
						this.registry.register(member.informer().key(), true);
						plan.start(member.informer());
					}
				}
			}
			apply(plan);
			return informer;
		}
	}

	/**
	 * Gives an informer back: once given back as often as it was asked for, its members
	 * are given back too, and pause unless someone else asks for them.
	 * @param informer an informer of the set
	 */
	void release(NamespaceSetInformer<?> informer) {
		synchronized (this.changes) {
			synchronized (this.registry) {
				if (this.informers.get(informer.key()) != informer || informer.asked() == 0) {
					return;
				}
				informer.asked(informer.asked() - 1);
				if (informer.asked() == 0) {
					for (Member<?> member : informer.members().values()) {
						this.registry.release(member.informer());
					}
				}
			}
		}
	}

	/**
	 * Gives every informer of a cluster-scoped kind its member of all namespaces in place
	 * of those of each namespace, once the kinds are resolved.
	 */
	void resolved() {
		synchronized (this.changes) {
			Plan plan = new Plan();
			synchronized (this.registry) {
				for (NamespaceSetInformer<?> informer : this.informers.values()) {
					reconcile(informer, targets(informer), plan);
				}
			}
			apply(plan);
		}
	}

	/**
	 * Refuses every change from now on; the cache stops the informers.
	 */
	void stop() {
		synchronized (this.changes) {
			this.stopped = true;
		}
	}

	/**
	 * The namespaces an informer has members for: the set, or all namespaces at once for
	 * a cluster-scoped kind (known once resolved).
	 */
	private Set<String> targets(NamespaceSetInformer<?> informer) {
		ResourceKind<?> kind = this.cache.resolvedKind(informer.key().type());
		return (kind != null && !kind.namespaced()) ? Set.of(NamespaceSetInformer.ALL) : this.namespaces;
	}

	/**
	 * Gives an informer the members of its target namespaces; called under the registry's
	 * lock. Leaving members are silenced at once and given back; joining ones are
	 * registered (and asked for while the informer is), their handlers and start left to
	 * the plan.
	 */
	private <T extends KubernetesObject> void reconcile(NamespaceSetInformer<T> informer, Set<String> targets,
			Plan plan) {
		Map<String, Member<T>> next = new HashMap<>(informer.members());
		boolean asked = informer.asked() > 0;
		for (Member<T> member : informer.members().values()) {
			if (!targets.contains(member.namespace())) {
				next.remove(member.namespace());
				member.deactivate();
				plan.leave(informer, member, this.registry.leave(member.informer(), asked));
			}
		}
		for (String namespace : targets) {
			if (!next.containsKey(namespace)) {
				ScopedInformer<T> joining = this.registry.register(informer.memberKey(namespace), asked);
				Member<T> member = new Member<>(namespace, joining);
				next.put(namespace, member);
				plan.join(informer, member, asked);
			}
		}
		informer.members(next);
	}

	/**
	 * Does what a change left for after the registry's lock: waits for the events under
	 * way from the members that left and stops those nobody asks for any more, then
	 * registers the handlers with the members that joined and starts them.
	 */
	private void apply(Plan plan) {
		for (Leaving<?> leaving : plan.leaving) {
			leaving.leave(this.cache);
		}
		RuntimeException failure = null;
		for (Joining<?> joining : plan.joining) {
			joining.forwardHandlers();
			if (joining.start()) {
				try {
					this.cache.startIfStarted(joining.member().informer());
				}
				catch (RuntimeException ex) {
					failure = (failure != null) ? failure : ex;
				}
			}
		}
		for (ScopedInformer<?> informer : plan.starting) {
			this.cache.startIfStarted(informer);
		}
		if (failure != null) {
			throw failure;
		}
	}

	/**
	 * Returns every informer of the set with its members, as they are now.
	 * @return the informers, in the order they were first asked for
	 */
	List<InformerCache.SetInformer> informers() {
		synchronized (this.registry) {
			return this.informers.values()
				.stream()
				.map((informer) -> new InformerCache.SetInformer(informer.key(), informer.asked() > 0,
						informer.members()
							.values()
							.stream()
							.sorted(Comparator.comparing(Member::namespace))
							.<Informer<?>>map(Member::informer)
							.toList()))
				.toList();
		}
	}

	/**
	 * Returns the kinds of the informers of the set.
	 * @return the model classes
	 */
	List<Class<? extends KubernetesObject>> types() {
		synchronized (this.registry) {
			return this.informers.keySet().stream().<Class<? extends KubernetesObject>>map(InformerKey::type).toList();
		}
	}

	/**
	 * Whether an informer of the set caches a kind in a form, members or not.
	 * @param type the model class
	 * @param metadataOnly the form
	 * @return {@code true} if one does
	 */
	boolean caches(Class<?> type, boolean metadataOnly) {
		synchronized (this.registry) {
			return this.informers.keySet()
				.stream()
				.anyMatch((key) -> key.type() == type && key.metadataOnly() == metadataOnly);
		}
	}

	/**
	 * Returns the namespaces of the set that an informer asked for has not synced: each
	 * namespace whose own member has not, and every namespace while the one member of a
	 * cluster-scoped kind has not (their requests wait for it too).
	 */
	@Override
	public Set<String> unsynced() {
		Set<String> current = this.namespaces;
		Set<String> unsynced = new TreeSet<>();
		for (NamespaceSetInformer<?> informer : askedFor()) {
			for (Member<?> member : informer.members().values()) {
				if (member.informer().hasSynced()) {
					continue;
				}
				if (member.namespace().equals(NamespaceSetInformer.ALL)) {
					unsynced.addAll(current);
				}
				else {
					unsynced.add(member.namespace());
				}
			}
		}
		return Collections.unmodifiableSet(unsynced);
	}

	@Override
	public boolean awaitSynced(Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!askedFor().stream().allMatch(NamespaceSetInformer::hasSynced)) {
			if (System.nanoTime() - deadline >= 0) {
				return false;
			}
			Thread.sleep(SYNC_POLL.toMillis());
		}
		return true;
	}

	private List<NamespaceSetInformer<?>> askedFor() {
		synchronized (this.registry) {
			return this.informers.values().stream().filter((informer) -> informer.asked() > 0).toList();
		}
	}

	/**
	 * What a change leaves for after the registry's lock.
	 */
	private static final class Plan {

		final List<Leaving<?>> leaving = new ArrayList<>();

		final List<Joining<?>> joining = new ArrayList<>();

		final List<ScopedInformer<?>> starting = new ArrayList<>();

		<T extends KubernetesObject> void leave(NamespaceSetInformer<T> informer, Member<T> member, boolean stop) {
			this.leaving.add(new Leaving<>(informer, member, stop));
		}

		<T extends KubernetesObject> void join(NamespaceSetInformer<T> informer, Member<T> member, boolean start) {
			this.joining.add(new Joining<>(informer, member, start));
		}

		void start(ScopedInformer<?> informer) {
			this.starting.add(informer);
		}

	}

	/**
	 * A member that left, and whether nobody else asks for its informer, which then
	 * stops.
	 */
	private record Leaving<T extends KubernetesObject>(NamespaceSetInformer<T> informer, Member<T> member,
			boolean stop) {

		/**
		 * Waits for the events under way from the member to reach their handlers, then
		 * stops its informer (dropping the forwarders with it) if nobody asks for it.
		 */
		void leave(InformerCache cache) {
			try {
				this.informer.awaitDelivered(this.member);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			if (this.stop) {
				cache.stopRemoved(this.member.informer());
				this.informer.forget(this.member.informer());
			}
		}

	}

	/**
	 * A member that joined, and whether to start it (its informer of the set is asked
	 * for).
	 */
	private record Joining<T extends KubernetesObject>(NamespaceSetInformer<T> informer, Member<T> member,
			boolean start) {

		void forwardHandlers() {
			this.informer.handlers().forEach((handler) -> this.informer.forward(this.member, handler));
		}

	}

}
