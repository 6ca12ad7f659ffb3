package io.kubeboot.operator.benchmarks.harness;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import io.kubernetes.client.openapi.ApiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps updating the widgets of a chaos run: at a fixed rate, {@code spec.value} of a
 * random widget goes up by one. Each thread owns its own widgets, so the writes to one
 * widget are sent one after the other; a write that fails is sent again until it succeeds
 * (a merge patch setting a value is idempotent, so a write that went through although its
 * answer was lost does no harm). {@link #expected(int)} is then the last value written to
 * each widget: what its status must show in the end.
 */
final class ChaosDriver {

	private static final Logger logger = LoggerFactory.getLogger(ChaosDriver.class);

	private static final int THREADS = 2;

	private static final Duration GIVE_UP = Duration.ofMinutes(5);

	private final Cluster cluster;

	private final String namespace;

	private final List<String> names;

	private final int perSecond;

	private final long seed;

	private final AtomicLongArray expected;

	private final AtomicLong updates = new AtomicLong();

	private final AtomicLong retries = new AtomicLong();

	private final List<Thread> threads = new ArrayList<>();

	private volatile boolean stopping;

	private volatile Exception failure;

	ChaosDriver(Cluster cluster, String namespace, List<String> names, int perSecond, long seed) {
		this.cluster = cluster;
		this.namespace = namespace;
		this.names = names;
		this.perSecond = perSecond;
		this.seed = seed;
		this.expected = new AtomicLongArray(names.size());
	}

	void start() {
		for (int thread = 0; thread < THREADS; thread++) {
			int first = thread;
			Thread driver = new Thread(() -> drive(first), "chaos-driver-" + thread);
			driver.setDaemon(true);
			this.threads.add(driver);
			driver.start();
		}
	}

	/**
	 * Stops updating and waits until the writes under way have succeeded.
	 * @throws Exception if a write could not be made
	 */
	void stop() throws Exception {
		this.stopping = true;
		for (Thread thread : this.threads) {
			thread.join();
		}
		if (this.failure != null) {
			throw this.failure;
		}
	}

	/**
	 * Returns the value last written to a widget.
	 * @param index the widget's index
	 * @return the value ({@code 0} if never written, as the reconciler reads a missing
	 * value)
	 */
	long expected(int index) {
		return this.expected.get(index);
	}

	long updates() {
		return this.updates.get();
	}

	long retries() {
		return this.retries.get();
	}

	private void drive(int first) {
		Random random = new Random(this.seed + first);
		List<Integer> owned = new ArrayList<>();
		for (int index = first; index < this.names.size(); index += THREADS) {
			owned.add(index);
		}
		if (owned.isEmpty()) {
			return;
		}
		long interval = TimeUnit.SECONDS.toNanos(THREADS) / this.perSecond;
		long next = System.nanoTime();
		try {
			while (!this.stopping) {
				next += interval;
				long now = System.nanoTime();
				if (next - now > 0) {
					TimeUnit.NANOSECONDS.sleep(next - now);
				}
				else if (now - next > TimeUnit.SECONDS.toNanos(1)) {
					// behind after an outage: go on at the rate, not in a burst
					next = now;
				}
				int index = owned.get(random.nextInt(owned.size()));
				long value = this.expected.get(index) + 1;
				write(index, value);
				this.expected.set(index, value);
				this.updates.incrementAndGet();
			}
		}
		catch (Exception ex) {
			this.failure = ex;
			logger.error("Driver failed", ex);
		}
	}

	private void write(int index, long value) throws Exception {
		long deadline = System.nanoTime() + GIVE_UP.toNanos();
		while (true) {
			try {
				this.cluster.setValue(this.namespace, this.names.get(index), value);
				return;
			}
			catch (ApiException ex) {
				if (System.nanoTime() - deadline > 0
						|| (ex.getCode() >= 400 && ex.getCode() < 500 && ex.getCode() != 408 && ex.getCode() != 429)) {
					throw new IllegalStateException("Cannot set spec.value of " + this.names.get(index) + " to " + value
							+ ": " + ex.getCode() + " " + ex.getMessage(), ex);
				}
				this.retries.incrementAndGet();
				Thread.sleep(200);
			}
		}
	}

}
