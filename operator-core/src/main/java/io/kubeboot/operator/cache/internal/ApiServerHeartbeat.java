package io.kubeboot.operator.cache.internal;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import io.kubeboot.operator.client.internal.StatusMessages;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import okhttp3.Call;
import okhttp3.Response;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the API server for {@code /version} every second, so that an outage shows while
 * the informers' watches are still open. An API server stopped gracefully (SIGTERM, as a
 * control-plane upgrade stops it) closes its listener at once but holds the watches open,
 * silent, until its shutdown timeout or its exit: no watch fails meanwhile, and without
 * this probe readiness would say nothing for that long.
 * <p>
 * Any HTTP answer counts, 401, 403 and 429 included: the server is there. No answer does
 * not (a refused or reset connection, no answer within five seconds), nor does a 502, 503
 * or 504, which a proxy in front of an absent server gives. Runs on a thread of its own
 * between {@link #start} and {@link #stop}, over the watch client's connections.
 * <p>
 * An informer that heard from the API server within the last period (an event, a
 * bookmark, a list answered, a watch opened) answers for it: no probe is sent then, so a
 * busy operator, whose watches deliver events all the time, asks nothing more.
 */
final class ApiServerHeartbeat {

	private static final Logger logger = LoggerFactory.getLogger(ApiServerHeartbeat.class);

	static final Duration PERIOD = Duration.ofSeconds(1);

	static final Duration TIMEOUT = Duration.ofSeconds(5);

	/** How long probes fail before it is logged: a restart of a few seconds is not. */
	static final Duration LOG_GRACE = Duration.ofSeconds(5);

	private final Prober prober;

	private final String server;

	private final LongSupplier nanoTime;

	/** When an informer last heard from the API server, empty if none has. */
	private final Supplier<OptionalLong> lastHeard;

	/** When the last probe that was answered was sent. */
	private volatile long answeredNanos;

	/**
	 * The error of the probes failing since the last answer, {@code null} while answered.
	 */
	private volatile @Nullable String error;

	private boolean logged;

	private @Nullable Thread thread;

	ApiServerHeartbeat(ApiClient watchClient, Supplier<OptionalLong> lastHeard) {
		this(versionProber(watchClient), watchClient.getBasePath(), System::nanoTime, lastHeard);
	}

	ApiServerHeartbeat(Prober prober, String server, LongSupplier nanoTime, Supplier<OptionalLong> lastHeard) {
		this.prober = prober;
		this.server = server;
		this.nanoTime = nanoTime;
		this.lastHeard = lastHeard;
		this.answeredNanos = nanoTime.getAsLong();
	}

	synchronized void start() {
		if (this.thread == null) {
			this.answeredNanos = this.nanoTime.getAsLong();
			Thread started = new Thread(this::run, "api-server-heartbeat");
			started.setDaemon(true);
			this.thread = started;
			started.start();
		}
	}

	synchronized void stop() {
		if (this.thread != null) {
			this.thread.interrupt();
			this.thread = null;
		}
	}

	/**
	 * Returns for how long the API server has not answered: since the last answered probe
	 * was sent.
	 * @return the duration, {@code null} while the last probe was answered
	 */
	@Nullable Duration unansweredFor() {
		return (this.error != null) ? Duration.ofNanos(this.nanoTime.getAsLong() - this.answeredNanos) : null;
	}

	/**
	 * Returns why the probes fail.
	 * @return the last probe's error, {@code null} while answered
	 */
	@Nullable String lastError() {
		return this.error;
	}

	private void run() {
		try {
			// the first probe a period after the start, which the informers' first
			// requests answer for: no request on the way to the first reconcile
			while (!Thread.currentThread().isInterrupted()) {
				Thread.sleep(PERIOD.toMillis());
				tick();
			}
		}
		catch (InterruptedException ex) {
			// stopped
		}
	}

	/**
	 * Counts what an informer heard within the last period as an answer, else probes.
	 */
	void tick() {
		OptionalLong heard = this.lastHeard.get();
		if (heard.isPresent() && this.nanoTime.getAsLong() - heard.getAsLong() < PERIOD.toNanos()) {
			answered(heard.getAsLong());
		}
		else {
			probe();
		}
	}

	void probe() {
		long sent = this.nanoTime.getAsLong();
		String failure;
		try {
			int status = this.prober.probe();
			failure = (status == 502 || status == 503 || status == 504) ? "HTTP " + status : null;
		}
		catch (IOException ex) {
			failure = StatusMessages.describe(new ApiException(ex));
		}
		if (failure == null) {
			answered(sent);
		}
		else {
			failed(failure);
		}
	}

	private void answered(long sent) {
		Duration outage = unansweredFor();
		this.answeredNanos = sent;
		this.error = null;
		if (this.logged && outage != null) {
			logger.info("API server answers again: server={} unansweredFor={}ms", this.server, outage.toMillis());
		}
		this.logged = false;
	}

	private void failed(String failure) {
		this.error = failure;
		Duration unanswered = unansweredFor();
		if (!this.logged && unanswered != null && unanswered.compareTo(LOG_GRACE) >= 0) {
			this.logged = true;
			logger.warn("API server does not answer, the informers may miss changes until it does: server={} "
					+ "unansweredFor={}ms error=\"{}\"", this.server, unanswered.toMillis(), failure);
		}
	}

	private static Prober versionProber(ApiClient client) {
		return () -> {
			Call call;
			try {
				call = client.buildCall(null, "/version", "GET", List.of(), List.of(), null,
						new java.util.HashMap<>(Map.of("Accept", "application/json")), Map.of(), Map.of(),
						new String[] { "BearerToken" }, null);
			}
			catch (ApiException ex) {
				throw new IOException(ex);
			}
			call.timeout().timeout(TIMEOUT.toNanos(), TimeUnit.NANOSECONDS);
			try (Response response = call.execute()) {
				return response.code();
			}
		};
	}

	/** Sends one probe. */
	@FunctionalInterface
	interface Prober {

		/**
		 * Sends one probe and waits for its answer.
		 * @return the answer's HTTP status
		 * @throws IOException if there was no answer
		 */
		int probe() throws IOException;

	}

}
