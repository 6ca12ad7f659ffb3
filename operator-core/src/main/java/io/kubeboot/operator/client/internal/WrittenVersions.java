package io.kubeboot.operator.client.internal;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.kubeboot.operator.client.ApiServerException;
import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

/**
 * What this process wrote last, per object, so that its cached reads never return an
 * older version (read your own writes, which controller-runtime still lacks): after a
 * write the cache may take a few milliseconds to see it, and a reconcile that reads the
 * object in that window would act on the state before its own write. Only writes of
 * objects the cache holds are recorded, and an entry is dropped as soon as the cache sees
 * the written version (or the object's deletion), so the map holds only writes in flight.
 */
public final class WrittenVersions {

	/** How long a read waits for the cache to catch up before it fails. */
	public static final Duration DEFAULT_WAIT = Duration.ofSeconds(5);

	private static final long POLL_MILLIS = 2;

	private final Map<Key, Written> written = new ConcurrentHashMap<>();

	private final Duration wait;

	/**
	 * Creates an empty record.
	 * @param wait how long a read waits for the cache to catch up
	 */
	public WrittenVersions(Duration wait) {
		this.wait = wait;
	}

	/**
	 * Records a write.
	 * @param stored the object as the API server stored it
	 */
	public void wrote(KubernetesObject stored) {
		Key key = Key.of(stored);
		Long version = version(stored);
		if (key != null && version != null) {
			this.written.merge(key, new Written(version, null), (old, now) -> (old.version >= now.version) ? old : now);
		}
	}

	/**
	 * Records a write of an object answered with its resourceVersion alone, such as a
	 * delete that left the object marked for deletion.
	 * @param object the object written
	 * @param resourceVersion the resourceVersion the API server answered with
	 */
	public void wrote(KubernetesObject object, String resourceVersion) {
		Key key = Key.of(object);
		Long version = parse(resourceVersion);
		if (key != null && version != null) {
			this.written.merge(key, new Written(version, null), (old, now) -> (old.version >= now.version) ? old : now);
		}
	}

	/**
	 * Records a delete.
	 * @param deleted the object that was deleted
	 */
	public void deleted(KubernetesObject deleted) {
		Key key = Key.of(deleted);
		if (key != null && deleted.getMetadata().getUid() != null) {
			this.written.put(key, new Written(Long.MIN_VALUE, deleted.getMetadata().getUid()));
		}
	}

	/**
	 * Tells that the cache saw an object change: drops the entry of a write it has caught
	 * up with.
	 * @param object the object as the cache now holds it, or as it was when deleted
	 * @param deleted whether the cache saw its deletion
	 */
	public void observed(KubernetesObject object, boolean deleted) {
		observed(object.getClass(), object, deleted);
	}

	/**
	 * Tells that the cache saw an object of a kind change, whatever class it is cached as
	 * (a kind cached as metadata only holds {@code PartialObjectMetadata}): drops the
	 * entry of a write it has caught up with.
	 * @param type the model class of the object's kind, as writes record it
	 * @param object the object as the cache now holds it, or as it was when deleted
	 * @param deleted whether the cache saw its deletion
	 */
	public void observed(Class<?> type, KubernetesObject object, boolean deleted) {
		if (this.written.isEmpty()) {
			return;
		}
		Key key = Key.of(type, object);
		Written expected = (key != null) ? this.written.get(key) : null;
		if (expected != null && (deleted || caughtUp(expected, object))) {
			this.written.remove(key, expected);
		}
	}

	/**
	 * Forgets the writes of a kind's objects in a namespace that the cache no longer
	 * watches: it will never see them, and a read must not wait for it.
	 * @param type the model class of the kind
	 * @param namespace the namespace
	 */
	public void forget(Class<?> type, String namespace) {
		this.written.keySet().removeIf((key) -> key.type() == type && namespace.equals(key.namespace()));
	}

	/**
	 * Returns how many writes the cache has not seen yet.
	 * @return the number of writes in flight
	 */
	public int inFlight() {
		return this.written.size();
	}

	/**
	 * Reads through a cache lookup, waiting while the cache holds an object older than
	 * this process's last write of it (or still holds one this process deleted).
	 * @param <T> the model type
	 * @param type the model class
	 * @param namespace the namespace, {@code null} for cluster-scoped
	 * @param name the name
	 * @param lookup reads the cache
	 * @return the cached object, at least as new as the last write
	 * @throws CacheBehindException if the cache did not catch up within the wait
	 * @throws InterruptedException if interrupted while waiting
	 */
	public <T extends KubernetesObject> @Nullable T read(Class<?> type, @Nullable String namespace, String name,
			Lookup<T> lookup) throws InterruptedException {
		Key key = new Key(type, namespace, name);
		Written expected = this.written.get(key);
		T cached = lookup.get();
		if (expected == null) {
			return cached;
		}
		long deadline = System.nanoTime() + this.wait.toNanos();
		while (!caughtUp(expected, cached)) {
			Written current = this.written.get(key);
			if (current == null) {
				// the cache saw the write or the object's deletion meanwhile
				return lookup.get();
			}
			expected = current;
			if (System.nanoTime() - deadline >= 0) {
				// once: the object may have been deleted by someone else meanwhile
				this.written.remove(key, expected);
				throw new CacheBehindException("The cache has not seen this process's last write of "
						+ type.getSimpleName() + " " + ((namespace != null) ? namespace + "/" : "") + name + " within "
						+ this.wait + "; try again");
			}
			Thread.sleep(POLL_MILLIS);
			cached = lookup.get();
		}
		this.written.remove(key, expected);
		return cached;
	}

	private static boolean caughtUp(Written expected, @Nullable KubernetesObject cached) {
		if (expected.deletedUid != null) {
			return cached == null || !expected.deletedUid.equals(cached.getMetadata().getUid());
		}
		if (cached == null) {
			return false; // the cache has not seen the create yet (or someone deleted it)
		}
		Long version = version(cached);
		return version == null || version >= expected.version;
	}

	private static @Nullable Long version(KubernetesObject object) {
		return parse((object.getMetadata() != null) ? object.getMetadata().getResourceVersion() : null);
	}

	private static @Nullable Long parse(@Nullable String version) {
		try {
			return (version != null) ? Long.parseLong(version) : null;
		}
		catch (NumberFormatException notEtcd) {
			return null; // opaque versions cannot be compared: no waiting
		}
	}

	/**
	 * A reader that keeps track of a process's writes: a client writing for it records
	 * them here.
	 */
	public interface Tracking {

		/**
		 * Returns where writes are recorded.
		 * @return the written versions
		 */
		WrittenVersions writtenVersions();

		/**
		 * Tells whether the cache holds an object like this one (its kind, namespace,
		 * labels and fields match one of its informers): only writes of such objects are
		 * recorded, since the cache would never see the others.
		 * @param object the object as written
		 * @return whether the cache holds it
		 */
		boolean holds(KubernetesObject object);

		/**
		 * Records a write of an object if the cache holds it, as one step with respect to
		 * the cache's informers coming and going: a write recorded for an informer that
		 * stops meanwhile is forgotten with it, never left for good.
		 * @param object the object as written
		 * @param record records the write in {@link #writtenVersions()}
		 */
		default void recordIfHeld(KubernetesObject object, Runnable record) {
			if (holds(object)) {
				record.run();
			}
		}

	}

	/**
	 * Reads one object from the cache.
	 *
	 * @param <T> the model type
	 */
	@FunctionalInterface
	public interface Lookup<T> {

		/**
		 * Reads the object.
		 * @return the object, or {@code null} if not cached
		 */
		@Nullable T get();

	}

	/**
	 * The cache did not catch up with this process's own write in time; the controller
	 * retries the reconcile at once.
	 */
	public static final class CacheBehindException extends ApiServerException.ConflictException {

		private static final long serialVersionUID = 1L;

		CacheBehindException(String message) {
			super(message, null);
		}

	}

	private record Key(Class<?> type, @Nullable String namespace, String name) {

		static @Nullable Key of(KubernetesObject object) {
			return of(object.getClass(), object);
		}

		static @Nullable Key of(Class<?> type, KubernetesObject object) {
			if (object.getMetadata() == null || object.getMetadata().getName() == null) {
				return null;
			}
			return new Key(type, object.getMetadata().getNamespace(), object.getMetadata().getName());
		}

	}

	private record Written(long version, @Nullable String deletedUid) {
	}

}
