package io.kubeboot.operator.cache.internal;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import io.kubeboot.operator.client.ApiClients;
import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replaces informers whose watch went silent: a few times per silence threshold it looks
 * at every informer and, if one has heard nothing from the API server for longer than the
 * threshold, closes the watch client's idle connections (they may have died as silently)
 * and starts a replacement with a fresh list; a replacement that stays silent as well is
 * replaced again. Runs on a thread of its own between {@link #start} and {@link #stop}.
 */
final class InformerWatchdog {

	private static final Logger logger = LoggerFactory.getLogger(InformerWatchdog.class);

	private final ApiClient watchClient;

	private final Duration silenceThreshold;

	private final Supplier<List<ScopedInformer<?>>> informers;

	private @Nullable Thread thread;

	InformerWatchdog(ApiClient watchClient, Duration silenceThreshold, Supplier<List<ScopedInformer<?>>> informers) {
		this.watchClient = watchClient;
		this.silenceThreshold = silenceThreshold;
		this.informers = informers;
	}

	synchronized void start() {
		if (this.thread == null) {
			Thread started = new Thread(this::run, "informer-watchdog");
			started.setDaemon(true);
			this.thread = started;
			started.start();
		}
	}

	synchronized void stop() {
		if (this.thread != null) {
			this.thread.interrupt();
		}
	}

	private void run() {
		long period = Math.max(100, Math.min(this.silenceThreshold.toMillis() / 4, 10_000));
		try {
			while (!Thread.currentThread().isInterrupted()) {
				Thread.sleep(period);
				for (ScopedInformer<?> informer : this.informers.get()) {
					try {
						check(informer);
					}
					catch (RuntimeException ex) {
						logger.error("Watchdog check failed: informer={}", informer.key(), ex);
					}
				}
			}
		}
		catch (InterruptedException ex) {
			// stopped
		}
	}

	void check(ScopedInformer<?> informer) {
		Duration restarting = informer.restartingFor();
		if (restarting != null) {
			if (informer.completeRestart()) {
				logger.info("Informer restarted with a fresh list: informer={} restarts={} took={}ms", informer.key(),
						informer.restarts(), restarting.toMillis());
				return;
			}
			Duration silent = informer.silentFor();
			if (silent.compareTo(this.silenceThreshold) <= 0) {
				return; // the replacement is listing or watching
			}
			logger.warn(
					"Replacement informer silent for too long as well, starting another: informer={} "
							+ "silentFor={}ms lastError=\"{}\"",
					informer.key(), silent.toMillis(), informer.lastError());
			informer.abandonRestart();
		}
		else {
			Duration silent = informer.silentFor();
			if (!informer.hasSynced() || silent.compareTo(this.silenceThreshold) <= 0) {
				return;
			}
			logger.warn(
					"Watch silent for too long, restarting the informer with a fresh list: informer={} "
							+ "silentFor={}ms threshold={}ms",
					informer.key(), silent.toMillis(), this.silenceThreshold.toMillis());
		}
		// idle pooled connections may have died as silently as the watch
		ApiClients.evictIdleConnections(this.watchClient);
		informer.beginRestart();
	}

}
