package io.kubeboot.operator.sharding.internal;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import com.google.gson.Gson;
import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

/**
 * What one controller of a replica of the label-based mode knows of its share: which
 * cached objects carry its shard label and the replica's current {@linkplain MemberTerm
 * term}, which of them it was asked to give back, which it gave back (so a copy its cache
 * still holds is never reconciled again), and which were deleted while they were its own
 * (so their deletion is reconciled, while an object that merely moved to another replica,
 * which its cache also sees disappear, is not).
 * <p>
 * Thread-safe.
 */
public final class LabelShare {

	private static final Gson GSON = new Gson();

	private final String shardKey;

	private final String drainKey;

	private final String self;

	private final String termKey;

	private final Supplier<@Nullable String> term;

	/**
	 * Objects given back, by key, with the resourceVersion they had when acknowledged.
	 */
	private final Map<String, String> released = new ConcurrentHashMap<>();

	/**
	 * Objects deleted while labelled as this replica's, by key: {@code true} if the
	 * informer only inferred the deletion (the object was missing from a relist), which
	 * may also mean it moved while the watch was down.
	 */
	private final Map<String, Boolean> tombstones = new ConcurrentHashMap<>();

	/**
	 * Creates the share of a replica in a ring.
	 * @param ring the ring's name
	 * @param identity the replica's identity
	 * @param term the replica's current term, {@code null} before it held its Lease
	 */
	public LabelShare(String ring, String identity, Supplier<@Nullable String> term) {
		this.shardKey = ShardLabels.shardKey(ring);
		this.drainKey = ShardLabels.drainKey(ring);
		this.termKey = ShardLabels.termKey(ring);
		this.self = ShardLabels.shardId(identity);
		this.term = term;
	}

	/**
	 * Returns the selector of this replica's cache: the controller's own and its shard
	 * label.
	 * @param labelSelector the controller's selector, {@code null} for all objects
	 * @return the selector
	 */
	public String selector(@Nullable String labelSelector) {
		String own = this.shardKey + "=" + this.self;
		return (labelSelector == null || labelSelector.isBlank()) ? own : labelSelector + "," + own;
	}

	/**
	 * Whether an object carries this replica's shard label and its current term: one
	 * assigned in an earlier term may have been moved to another replica while this one
	 * counted as gone, and its cache may not have seen the move yet.
	 * @param object the object
	 * @return {@code true} if it is assigned to this replica
	 */
	public boolean isMine(KubernetesObject object) {
		String current = this.term.get();
		return current != null && this.self.equals(label(object, this.shardKey))
				&& current.equals(annotation(object, this.termKey));
	}

	/**
	 * Whether an update makes an object this replica's (a new term stamped on it), which
	 * must reach the controller whatever its event filters say.
	 * @param oldObject the object before
	 * @param newObject the object after
	 * @return {@code true} if it is this replica's now and was not before
	 */
	public boolean gained(KubernetesObject oldObject, KubernetesObject newObject) {
		return isMine(newObject) && !isMine(oldObject);
	}

	/**
	 * Whether an object of this replica's carries the drain label.
	 * @param object the object
	 * @return {@code true} if this replica is asked to give it back
	 */
	public boolean isDraining(KubernetesObject object) {
		return isMine(object) && label(object, this.drainKey) != null;
	}

	/**
	 * Whether an update asks this replica to give the object back, which must reach the
	 * controller whatever its event filters say.
	 * @param oldObject the object before
	 * @param newObject the object after
	 * @return {@code true} if the drain label was added
	 */
	public boolean drainRequested(KubernetesObject oldObject, KubernetesObject newObject) {
		return isDraining(newObject) && !isDraining(oldObject);
	}

	/**
	 * Records that an object left the cache: a deletion if it still carried this
	 * replica's label, else a move, which is no news for the reconciler.
	 * @param key the object's key
	 * @param finalState the object as last seen
	 * @param finalStateUnknown whether the informer inferred the deletion from a relist
	 * @return {@code true} if the deletion is to be reconciled
	 */
	public boolean left(String key, KubernetesObject finalState, boolean finalStateUnknown) {
		if (this.released.remove(key) != null || !isMine(finalState)) {
			return false;
		}
		this.tombstones.put(key, finalStateUnknown);
		return true;
	}

	/**
	 * Takes the tombstone of an object, if it was deleted while this replica's: a worker
	 * takes it whatever it does with the request, and a deletion filtered out leaves
	 * none.
	 * @param key the object's key
	 * @return {@code null} if there is none (the object moved away, or was never this
	 * replica's), else whether the deletion was only inferred
	 */
	public @Nullable Boolean takeTombstone(String key) {
		return this.tombstones.remove(key);
	}

	/**
	 * Whether a cached object may be reconciled: it carries this replica's label, is not
	 * being drained, and is not the copy of an object already given back.
	 * @param key the object's key
	 * @param object the cached object
	 * @return {@code true} if the reconciler may see it
	 */
	public boolean mayReconcile(String key, KubernetesObject object) {
		if (!isMine(object) || isDraining(object)) {
			return false;
		}
		String given = this.released.get(key);
		return given == null || !given.equals(resourceVersion(object));
	}

	/**
	 * Records that an object is given back, before the write that gives it back.
	 * @param key the object's key
	 * @param object the object as it was when given back
	 */
	public void released(String key, KubernetesObject object) {
		this.released.put(key, Objects.requireNonNullElse(resourceVersion(object), ""));
	}

	/**
	 * Forgets that an object was being given back: the write failed, it is still this
	 * replica's, or the sharder changed its labels first (422: it moved it already, or
	 * stamped it for this replica in a new term). Should the watch then tell of a move,
	 * the uncached read behind the tombstone tells it from a deletion.
	 * @param key the object's key
	 */
	public void kept(String key) {
		this.released.remove(key);
	}

	/**
	 * Records that a give-back found the object gone (404): deleted while still this
	 * replica's, a deletion to reconcile. If the watch told of it first, it took it for
	 * the give-back's move, and the deletion is recorded here.
	 * @param key the object's key
	 * @return {@code true} if the request is to be queued again for the deletion,
	 * {@code false} if the watch has yet to tell of it and then finds it this replica's
	 */
	public boolean goneBeforeGivenBack(String key) {
		if (this.released.remove(key) != null) {
			return false;
		}
		this.tombstones.put(key, Boolean.FALSE);
		return true;
	}

	/**
	 * Records that the cache holds an object: one of this replica's, not being drained,
	 * in another version than the one given back, was never given back or came back (a
	 * relist may show it back without its leaving), so its later disappearance is no
	 * give-back's move.
	 * @param key the object's key
	 * @param object the object as cached now
	 */
	public void cached(String key, KubernetesObject object) {
		if (isMine(object) && !isDraining(object)) {
			String version = Objects.requireNonNullElse(resourceVersion(object), "");
			this.released.computeIfPresent(key, (given, at) -> at.equals(version) ? at : null);
		}
	}

	/**
	 * Returns the JSON patch that gives an object back: it tests that the shard label
	 * still names this replica in the term the object was drained in (else the sharder
	 * already moved it, and the patch fails) and removes the shard and the drain label.
	 * @param object the object as drained
	 * @return the JSON patch
	 */
	public String releasePatch(KubernetesObject object) {
		return GSON.toJson(List.of(Sharder.operation("test", this.shardKey, this.self),
				Sharder.annotationOperation("test", this.termKey,
						Objects.requireNonNullElse(annotation(object, this.termKey), "")),
				Sharder.operation("remove", this.shardKey, null), Sharder.operation("remove", this.drainKey, null)));
	}

	/**
	 * Returns this replica's shard id.
	 * @return the value of its shard label
	 */
	public String self() {
		return this.self;
	}

	private static @Nullable String label(KubernetesObject object, String key) {
		Map<String, String> labels = (object.getMetadata() != null) ? object.getMetadata().getLabels() : null;
		return (labels != null) ? labels.get(key) : null;
	}

	private static @Nullable String annotation(KubernetesObject object, String key) {
		Map<String, String> annotations = (object.getMetadata() != null) ? object.getMetadata().getAnnotations() : null;
		return (annotations != null) ? annotations.get(key) : null;
	}

	private static @Nullable String resourceVersion(KubernetesObject object) {
		return (object.getMetadata() != null) ? object.getMetadata().getResourceVersion() : null;
	}

}
