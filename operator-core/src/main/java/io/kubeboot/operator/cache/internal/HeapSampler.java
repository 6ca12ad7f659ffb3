package io.kubeboot.operator.cache.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import org.jspecify.annotations.Nullable;

/**
 * Estimates the heap an informer's objects take, one pass over its store at a time; one
 * per cache, shared by its informers.
 * <p>
 * A pass picks up to {@value #SAMPLE} objects, each with the same chance
 * ({@link ObjectStore#sample}), and walks them in a random order within one
 * {@link HeapEstimator.Walk} of at most {@value #MAX_VISITS} visits: an object that
 * several sampled objects reference counts once per pass. A pass that runs out of visits
 * stops early, with fewer objects sampled. The values of Secrets' and ConfigMaps' data,
 * most of those objects' heap and the most varied part of it (a Helm release of a
 * megabyte among tokens of a few kilobytes), are counted for every object of the pass,
 * without a walk; the rest of each object is sampled. An object that fails to be read (a
 * cached object changed while it was read, against the cache's contract) is left out and
 * reported in the result.
 * <p>
 * The passes of all informers of a cache walk at most {@value #VISITS_PER_SECOND} objects
 * a second, so that a scrape of many informers' metrics stays cheap: a pass asked for
 * beyond that, other than an informer's first, is refused (see {@link #mayStart}).
 * Thread-safe.
 */
final class HeapSampler {

	/** The most objects one pass samples. */
	static final int SAMPLE = 512;

	/** The most objects one pass walks, the sampled objects and what they reference. */
	static final int MAX_VISITS = 200_000;

	/** The most objects the passes of one cache walk within a second. */
	static final long VISITS_PER_SECOND = 400_000;

	private static final long SECOND = 1_000_000_000L;

	private final HeapEstimator estimator;

	/**
	 * What an informer's store adds per object: a map entry and its share of the table.
	 */
	private final long storeEntryBytes;

	private long windowStartNanos;

	private long visitsInWindow;

	/**
	 * Creates a sampler.
	 * @param estimator estimates an object's heap
	 */
	HeapSampler(HeapEstimator estimator) {
		this.estimator = estimator;
		ObjectLayout layout = estimator.layout();
		// a ConcurrentHashMap node (hash, key, value, next) and about two table slots:
		// the table is between 3/8 and 3/4 full
		this.storeEntryBytes = layout.instance(4 + 3L * layout.reference()) + 2L * layout.reference();
	}

	/**
	 * Returns what an informer's store adds to each object it holds.
	 * @return the bytes per object
	 */
	long storeEntryBytes() {
		return this.storeEntryBytes;
	}

	/**
	 * Tells whether a pass may start now, within the cache's visits per second.
	 * @param nowNanos the time, as {@link System#nanoTime()}
	 * @param first whether the informer has no estimate yet: always allowed
	 * @return {@code true} if it may
	 */
	synchronized boolean mayStart(long nowNanos, boolean first) {
		if (nowNanos - this.windowStartNanos >= SECOND) {
			this.windowStartNanos = nowNanos;
			this.visitsInWindow = 0;
		}
		return first || this.visitsInWindow < VISITS_PER_SECOND;
	}

	private synchronized void spent(long visits) {
		this.visitsInWindow += visits;
	}

	/**
	 * Estimates the heap of a store's objects.
	 * @param store the store
	 * @param random where the sample is drawn from
	 * @return the estimate, {@code null} if the store held no object
	 */
	@Nullable Estimate estimate(ObjectStore<?> store, Random random) {
		Payloads payloads = new Payloads(this.estimator.layout());
		List<Object> sample = new ArrayList<>(store.sample(SAMPLE, random, payloads));
		if (sample.isEmpty()) {
			return null;
		}
		Collections.shuffle(sample, random);
		HeapEstimator.Walk walk = this.estimator.walk(MAX_VISITS);
		long structure = 0;
		int walked = 0;
		int failed = payloads.failed;
		@Nullable RuntimeException failure = payloads.failure;
		for (Object object : sample) {
			try {
				payloadOf(object, walk::exclude);
				long bytes = walk.estimate(object);
				if (!walk.complete()) {
					// out of visits: the first object still counts, as a lower bound
					if (walked == 0) {
						structure = bytes;
						walked = 1;
					}
					break;
				}
				structure += bytes;
				walked++;
			}
			catch (RuntimeException ex) {
				failed++;
				failure = (failure != null) ? failure : ex;
			}
			if (walk.spent()) {
				break;
			}
		}
		spent(walk.visited());
		if (walked == 0) {
			return new Estimate(0, 0, failed, false, failure);
		}
		double data = (payloads.objects > 0) ? (double) payloads.bytes / payloads.objects : 0;
		double average = (double) structure / walked + data + this.storeEntryBytes;
		return new Estimate(average, walked, failed, walked < sample.size() - failed, failure);
	}

	/**
	 * Tells the values of a Secret's or ConfigMap's data, counted for every object.
	 */
	private static void payloadOf(Object object, Consumer<Object> values) {
		if (object instanceof V1Secret secret) {
			each(secret.getData(), values);
			each(secret.getStringData(), values);
		}
		else if (object instanceof V1ConfigMap configMap) {
			each(configMap.getData(), values);
			each(configMap.getBinaryData(), values);
		}
	}

	private static void each(@Nullable Map<String, ?> data, Consumer<Object> values) {
		if (data != null) {
			for (Object value : data.values()) {
				if (value != null) {
					values.accept(value);
				}
			}
		}
	}

	/**
	 * An estimate of one store's objects.
	 *
	 * @param averageBytes the heap an object takes on average, its store entry included
	 * @param sampled how many objects were walked
	 * @param failed how many objects could not be read
	 * @param cut whether the pass ran out of visits before it walked every sampled object
	 * @param failure the first failure to read an object, {@code null} if none
	 */
	record Estimate(double averageBytes, int sampled, int failed, boolean cut, @Nullable RuntimeException failure) {
	}

	/**
	 * Adds up the data values of every object of a pass.
	 */
	private static final class Payloads implements Consumer<Object> {

		private final ObjectLayout layout;

		private long bytes;

		private int objects;

		private int failed;

		private @Nullable RuntimeException failure;

		Payloads(ObjectLayout layout) {
			this.layout = layout;
		}

		@Override
		public void accept(Object object) {
			try {
				long[] sum = { 0 };
				payloadOf(object, (value) -> sum[0] += bytesOf(value));
				this.bytes += sum[0];
				this.objects++;
			}
			catch (RuntimeException ex) {
				this.failed++;
				this.failure = (this.failure != null) ? this.failure : ex;
			}
		}

		private long bytesOf(Object value) {
			if (value instanceof byte[] array) {
				return this.layout.array(array.length, 1);
			}
			return (value instanceof String string) ? this.layout.string(string) : 0;
		}

	}

}
