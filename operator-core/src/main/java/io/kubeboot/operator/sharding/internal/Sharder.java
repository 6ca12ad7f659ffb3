package io.kubeboot.operator.sharding.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.cache.InformerEventHandler;
import io.kubeboot.operator.client.ApiServerException;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.client.Fences;
import io.kubeboot.operator.client.Patch;
import io.kubeboot.operator.client.internal.KindResolver;
import io.kubeboot.operator.client.internal.KindResolver.DeclaredKind;
import io.kubeboot.operator.manager.ManagerRunnable;
import io.kubeboot.operator.manager.StopSignal;
import io.kubeboot.operator.model.PartialObjectMetadata;
import io.kubeboot.operator.rbac.Permission;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.sharding.ShardingConfig;
import io.kubeboot.operator.workqueue.RateLimiters;
import io.kubeboot.operator.workqueue.WorkQueue;
import io.kubeboot.operator.workqueue.WorkQueues;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sharder of the label-based mode: a leader-only runnable that keeps the shard label
 * of every object of the sharded kinds naming the member the ring gives it to
 * ({@link Assignment}). It caches the metadata of those kinds only while it runs, so the
 * replicas that do not lead cache nothing but their own share: it gives the informers
 * back to the cache when it stops ({@link Cache#release}). It looks at an object when it
 * is added or changed, at every object when it starts and when the ring changes, and at
 * every object once per {@link #RESYNC}. Its writes are leader-only work, fenced by the
 * leader Lease.
 */
public final class Sharder implements ManagerRunnable {

	/** How often every object is looked at although nothing changed. */
	static final Duration RESYNC = Duration.ofMinutes(5);

	/**
	 * The threads writing labels: a write takes a round trip, and a ring change moves
	 * many objects at once (the work queue never hands one object to two of them); the
	 * time a departed replica's objects take to move is their count over the write rate.
	 */
	static final int WORKERS = 16;

	/**
	 * How long a move waits for a newer view of the ring before it is decided again (a
	 * read is asked for at once).
	 */
	static final Duration DEFERRED = Duration.ofMillis(100);

	private static final Logger logger = LoggerFactory.getLogger(Sharder.class);

	private final ShardMember member;

	private final ShardingConfig config;

	private final Cache cache;

	private final Client client;

	private final String shardKey;

	private final String drainKey;

	private final String termKey;

	private final List<Target> targets = new CopyOnWriteArrayList<>();

	/**
	 * The current run, from a start to its stop; {@code null} while the sharder does not
	 * run (on a replica that does not lead). An informer cannot drop a handler, so the
	 * handlers are added once and hand their events to whichever run is current, and drop
	 * them between runs (a run looks at every object when it starts); a run's records die
	 * with it, so an event racing its stop fills nothing that outlives it.
	 */
	private volatile @Nullable Run running;

	/** The targets whose informer has the sharder's handler: added at the first start. */
	private final Set<Target> handled = ConcurrentHashMap.newKeySet();

	/**
	 * Creates the sharder of a ring.
	 * @param member this replica's membership, whose view of the ring it follows
	 * @param config the ring's settings
	 * @param cache the manager's cache, for the metadata informers
	 * @param client the manager's client, for the label writes
	 */
	public Sharder(ShardMember member, ShardingConfig config, Cache cache, Client client) {
		this.member = member;
		this.config = config;
		this.cache = cache;
		this.client = client;
		this.shardKey = ShardLabels.shardKey(config.ringName());
		this.drainKey = ShardLabels.drainKey(config.ringName());
		this.termKey = ShardLabels.termKey(config.ringName());
	}

	/**
	 * Adds the objects of a kind a sharded controller reconciles. Call before the manager
	 * starts.
	 * @param kind the model class
	 * @param namespace the controller's namespace, {@code null} for all
	 * @param labelSelector the controller's own selector, {@code null} for all objects
	 */
	public void shard(Class<? extends KubernetesObject> kind, @Nullable String namespace,
			@Nullable String labelSelector) {
		this.targets.add(new Target(kind, namespace, labelSelector));
	}

	@Override
	public boolean needsLeaderElection() {
		return true;
	}

	/**
	 * Returns what the sharder needs RBAC to allow: {@code list}, {@code watch} and
	 * {@code patch} of every sharded kind, where its controller works.
	 * @return the permissions
	 */
	@Override
	public List<Permission> requiredPermissions() {
		List<Permission> permissions = new ArrayList<>();
		for (Target target : this.targets) {
			Permission permission = Permission.of(target.kind(), "list", "watch", "patch")
				.because("the sharder of ring " + this.config.ringName() + " labels every "
						+ KindResolver.declaredKind(target.kind()).kind() + " with the member that reconciles it");
			permissions.add((target.namespace() != null) ? permission.inNamespace(target.namespace()) : permission);
		}
		return permissions;
	}

	@Override
	public void start(StopSignal stop) throws Exception {
		WorkQueue<Item> queue = WorkQueues.newRateLimitingQueue("sharder-" + this.config.ringName(),
				RateLimiters.defaultControllerRateLimiter());
		Run run = new Run(queue, new ConcurrentHashMap<>());
		// before the informers are asked for: one the last run released lists again at
		// once, and its adds must reach this run
		this.running = run;
		List<Informer<PartialObjectMetadata>> informers = new ArrayList<>();
		java.lang.Runnable all = () -> {
			for (int i = 0; i < informers.size(); i++) {
				Target target = this.targets.get(i);
				informers.get(i)
					.list()
					.forEach((object) -> queue.add(new Item(target, Request.of(object)), WorkQueue.LOW_PRIORITY));
			}
		};
		List<Thread> workers = new ArrayList<>();
		try {
			for (Target target : this.targets) {
				Informer<PartialObjectMetadata> informer = this.cache.metadataInformer(target.kind(),
						target.namespace(), target.labelSelector());
				informers.add(informer);
				if (this.handled.add(target)) {
					informer.addEventHandler(handler(target));
				}
			}
			this.member.addMembersListener(all);
			for (int i = 0; i < WORKERS; i++) {
				Thread worker = worker(() -> work(run, informers), "sharder-" + this.config.ringName() + "-" + i);
				worker.start();
				workers.add(worker);
			}
			logger.info("Sharder started: ring={} kinds={}", this.config.ringName(),
					this.targets.stream().map((target) -> target.kind().getSimpleName()).toList());
			// an informer that kept running (someone else asked for it too) replays
			// nothing to a handler added in an earlier run
			all.run();
			while (!stop.await(RESYNC)) {
				all.run();
			}
		}
		finally {
			this.running = null;
			this.member.removeMembersListener(all);
			queue.shutDown();
			// a replica that does not lead keeps no metadata of others' objects; a worker
			// still busy finds its object gone from the cache, and ends
			informers.forEach(this.cache::release);
			for (Thread worker : workers) {
				worker.interrupt();
			}
			for (Thread worker : workers) {
				worker.join();
			}
		}
	}

	/**
	 * Returns the handler of a target's informer, added once: it records and queues each
	 * object added or changed for the current run, if there is one.
	 */
	private InformerEventHandler<PartialObjectMetadata> handler(Target target) {
		return new InformerEventHandler<>() {

			@Override
			public void onAdd(PartialObjectMetadata object, boolean inInitialList) {
				observed(target, object);
			}

			@Override
			public void onUpdate(PartialObjectMetadata oldObject, PartialObjectMetadata newObject) {
				observed(target, newObject);
			}

			@Override
			public void onDelete(PartialObjectMetadata object, boolean deletedFinalStateUnknown) {
				// nothing to assign
				Run run = Sharder.this.running;
				if (run != null) {
					run.seen().remove(new Item(target, Request.of(object)));
				}
			}

		};
	}

	private void observed(Target target, PartialObjectMetadata object) {
		Run run = this.running;
		if (run == null) {
			// between runs: the next one looks at every object when it starts
			return;
		}
		Item item = new Item(target, Request.of(object));
		seen(run, item, object);
		run.queue().add(item);
	}

	/**
	 * Creates a worker that writes under the fence of the calling thread, the sharder's:
	 * its label writes are leader-only work, refused once the leader Lease can no longer
	 * be vouched for. A thread does not inherit its creator's fence.
	 */
	static Thread worker(java.lang.Runnable work, String name) {
		return new Thread(Fences.runnable(work), name);
	}

	/**
	 * Returns how many objects the current run has a record of, none between runs.
	 * @return the number of records
	 */
	int seenObjects() {
		Run run = this.running;
		return (run != null) ? run.seen().size() : 0;
	}

	private void work(Run run, List<Informer<PartialObjectMetadata>> informers) {
		WorkQueue<Item> queue = run.queue();
		while (true) {
			Item item;
			try {
				item = queue.get();
			}
			catch (InterruptedException ex) {
				return;
			}
			if (item == null) {
				return;
			}
			try {
				if (assign(run, item, informers.get(this.targets.indexOf(item.target())))) {
					queue.forget(item);
				}
				else {
					// the view of the ring predates the object's labels: again once a
					// read began after them
					queue.forget(item);
					this.member.readSoon();
					queue.addAfter(item, DEFERRED);
				}
			}
			catch (ApiServerException.NotFoundException ex) {
				queue.forget(item);
			}
			catch (RuntimeException ex) {
				logger.warn("Sharder could not label an object, retrying: ring={} object={} error=\"{}\"",
						this.config.ringName(), item.request(), ex.getMessage());
				queue.addRateLimited(item);
			}
			finally {
				queue.done(item);
			}
		}
	}

	/**
	 * Records when an object's assignment was first seen: only a change of it counts, so
	 * that an object written often does not keep its move waiting for a newer view.
	 * Called by the event handlers and by the workers, which may read an object from the
	 * cache before its handler ran.
	 * @return the record
	 */
	private Seen seen(Run run, Item item, PartialObjectMetadata object) {
		List<@Nullable String> assignment = assignment(object);
		return run.seen()
			.compute(item, (key, before) -> (before != null && before.assignment().equals(assignment)) ? before
					: new Seen(assignment, System.nanoTime()));
	}

	/**
	 * Returns what an object's assignment consists of: its shard label and its term.
	 */
	private List<@Nullable String> assignment(PartialObjectMetadata object) {
		V1ObjectMeta metadata = object.getMetadata();
		Map<String, String> labels = (metadata != null) ? metadata.getLabels() : null;
		Map<String, String> annotations = (metadata != null) ? metadata.getAnnotations() : null;
		return Arrays.asList((labels != null) ? labels.get(this.shardKey) : null,
				(annotations != null) ? annotations.get(this.termKey) : null);
	}

	/**
	 * Labels an object as the ring says.
	 * @return {@code false} if a move had to wait for a newer view of the ring
	 */
	private boolean assign(Run run, Item item, Informer<PartialObjectMetadata> informer) {
		PartialObjectMetadata object = informer.get(item.request().namespace(), item.request().name()).orElse(null);
		// an object being deleted is assigned too: its finalizers need a replica
		if (object == null || object.getMetadata() == null) {
			return true;
		}
		V1ObjectMeta metadata = object.getMetadata();
		Map<String, String> labels = (metadata.getLabels() != null) ? metadata.getLabels() : Map.of();
		Map<String, String> annotations = (metadata.getAnnotations() != null) ? metadata.getAnnotations() : Map.of();
		ShardMember.View view = this.member.view();
		HashRing ring = new HashRing(view.members(), this.config.virtualNodes());
		DeclaredKind kind = KindResolver.declaredKind(item.target().kind());
		String owner = ring
			.owner(HashRing.key(kind.group(), kind.kind(), item.request().namespace(), item.request().name()));
		Map<String, String> live = new HashMap<>();
		view.terms().forEach((identity, term) -> live.put(ShardLabels.shardId(identity), term));
		String ownerId = (owner != null) ? ShardLabels.shardId(owner) : null;
		String current = labels.get(this.shardKey);
		boolean draining = labels.containsKey(this.drainKey);
		Assignment decision = Assignment.decide(current, annotations.get(this.termKey), draining, ownerId, live);
		if (decision == Assignment.MOVE && view.readSentNanos() - seen(run, item, object).nanos() < 0) {
			return false;
		}
		String version = metadata.getResourceVersion();
		switch (decision) {
			case ASSIGN, MOVE -> {
				JsonObject labelChanges = new JsonObject();
				labelChanges.addProperty(this.shardKey, ownerId);
				if (draining) {
					labelChanges.add(this.drainKey, JsonNull.INSTANCE);
				}
				JsonObject annotationChanges = new JsonObject();
				annotationChanges.addProperty(this.termKey, live.get(ownerId));
				patch(item, informer, version, labelChanges, annotationChanges);
				logger.debug("Assigned: ring={} object={} shard={} term={} from={}", this.config.ringName(),
						item.request(), ownerId, live.get(ownerId), current);
			}
			case DRAIN -> {
				JsonObject labelChanges = new JsonObject();
				labelChanges.addProperty(this.drainKey, ShardLabels.DRAIN_VALUE);
				patch(item, informer, version, labelChanges, null);
				logger.debug("Draining: ring={} object={} shard={} for={}", this.config.ringName(), item.request(),
						current, ownerId);
			}
			case NONE -> {
			}
		}
		return true;
	}

	/**
	 * Sets and removes labels and sets annotations with a JSON merge patch, which touches
	 * only the keys it names (the cache may hold the object transformed, its annotations
	 * dropped), and which carries the resourceVersion the decision was made on: a cache
	 * that is behind must not overwrite a newer assignment (the API server answers 409).
	 * A conflict or failed validation with the cache still at that version is retried
	 * with backoff; with the cache past it, the watch brought the object again already.
	 */
	private void patch(Item item, Informer<PartialObjectMetadata> informer, @Nullable String version, JsonObject labels,
			@Nullable JsonObject annotations) {
		JsonObject metadata = new JsonObject();
		if (version != null) {
			metadata.addProperty("resourceVersion", version);
		}
		metadata.add("labels", labels);
		if (annotations != null) {
			metadata.add("annotations", annotations);
		}
		JsonObject body = new JsonObject();
		body.add("metadata", metadata);
		try {
			// a JsonObject writes its nulls, which remove
			this.client.patch(typed(item), Patch.merge(body.toString()));
		}
		catch (ApiServerException ex) {
			if (ex.code() == 409 || ex.code() == 422) {
				String cached = informer.get(item.request().namespace(), item.request().name())
					.map((object) -> (object.getMetadata() != null) ? object.getMetadata().getResourceVersion() : null)
					.orElse(null);
				if (cached != null && !cached.equals(version)) {
					logger.debug("Object changed before its label was written: ring={} object={} error=\"{}\"",
							this.config.ringName(), item.request(), ex.getMessage());
					return;
				}
			}
			throw ex;
		}
	}

	/**
	 * Returns one operation of a JSON patch on a label, its members in the usual order.
	 * @param op the operation: {@code add}, {@code remove}, {@code test}
	 * @param key the label's key
	 * @param value the value, {@code null} for none
	 * @return the operation
	 */
	static Map<String, Object> operation(String op, String key, @Nullable String value) {
		return entry(op, "/metadata/labels", key, value);
	}

	/**
	 * Returns one operation of a JSON patch on an annotation.
	 * @param op the operation: {@code add}, {@code remove}, {@code test}
	 * @param key the annotation's key
	 * @param value the value, {@code null} for none
	 * @return the operation
	 */
	static Map<String, Object> annotationOperation(String op, String key, @Nullable String value) {
		return entry(op, "/metadata/annotations", key, value);
	}

	private static Map<String, Object> entry(String op, String path, String key, @Nullable String value) {
		Map<String, Object> operation = new LinkedHashMap<>();
		operation.put("op", op);
		operation.put("path", path + "/" + key.replace("~", "~0").replace("/", "~1"));
		if (value != null) {
			operation.put("value", value);
		}
		return operation;
	}

	private KubernetesObject typed(Item item) {
		V1ObjectMeta metadata = new V1ObjectMeta().namespace(item.request().namespace()).name(item.request().name());
		try {
			KubernetesObject object = item.target().kind().getDeclaredConstructor().newInstance();
			item.target().kind().getMethod("setMetadata", V1ObjectMeta.class).invoke(object, metadata);
			return object;
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException(item.target().kind().getName()
					+ " needs a public no-argument constructor and setMetadata(V1ObjectMeta) to be sharded by label",
					ex);
		}
	}

	@Override
	public String toString() {
		return "Sharder[" + this.config.ringName() + "]";
	}

	private record Target(Class<? extends KubernetesObject> kind, @Nullable String namespace,
			@Nullable String labelSelector) {
	}

	private record Item(Target target, Request request) {
	}

	private record Seen(List<@Nullable String> assignment, long nanos) {
	}

	/**
	 * One run of the sharder (a term of the leader Lease), from its start to its stop.
	 *
	 * @param queue its work queue
	 * @param seen each object's assignment (shard label and term) and when this run first
	 * saw it, on the monotonic clock: a move away from a member waits for a view of the
	 * ring read after that
	 */
	private record Run(WorkQueue<Item> queue, Map<Item, Seen> seen) {
	}

}
