package io.kubeboot.operator.manager;

import java.time.Duration;
import java.util.List;

import io.kubeboot.operator.cache.internal.InformerCache;
import io.kubeboot.operator.client.ClientConfig;
import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.config.internal.ConfigChecks;
import org.jspecify.annotations.Nullable;

/**
 * The values a manager runs with, besides its client's ({@link ClientConfig}), its
 * controllers' defaults ({@link ControllerConfig}) and leader election's. A
 * {@link ManagerBuilder} collects them one by one and checks them with this record when
 * it builds; the constructor names every value at fault.
 *
 * @param syncPeriod how often every cached object is delivered to the controllers again,
 * zero for never; not negative
 * @param gracefulShutdownTimeout how long in-flight work may take to finish on stop;
 * negative waits without bound
 * @param cacheSyncTimeout how long start-up waits for the caches to sync; positive
 * @param watchTimeout the longest one watch request lasts before it is renewed; at least
 * 2s, since each watch lasts a whole number of seconds between half of it and all of it
 * @param watchSilenceThreshold how long an informer may hear nothing from the API server
 * before it is replaced with a fresh list and watch; longer than {@code watchTimeout}
 * @param watchFailureThreshold how long an informer's list or watch may keep failing, or
 * the API server leave the cache's probe unanswered, before readiness goes down; not
 * negative
 * @param listPageSize the most objects one list request of the caches asks for; at least
 * 1
 * @param streamingLists whether the caches stream their lists where the API server can
 * @param namespaces the namespaces the caches watch, those of every controller that names
 * none (see {@link io.kubeboot.operator.cache.WatchedNamespaces}), each an RFC 1123
 * label; empty for all namespaces. The same namespace twice counts once
 * @param stripManagedFields whether cached objects drop {@code metadata.managedFields}
 */
public record ManagerConfig(Duration syncPeriod, Duration gracefulShutdownTimeout, Duration cacheSyncTimeout,
		Duration watchTimeout, Duration watchSilenceThreshold, Duration watchFailureThreshold, int listPageSize,
		boolean streamingLists, List<String> namespaces, boolean stripManagedFields) {

	/**
	 * The defaults: resync every 10h, 30s to shut down, 2m to sync, watches of at most 2m
	 * replaced after 3m of silence, readiness down after 10s of failing watches, pages of
	 * 500, streamed lists, every namespace, managed fields dropped.
	 */
	public static final ManagerConfig DEFAULT = new ManagerConfig(Duration.ofHours(10), Duration.ofSeconds(30),
			Duration.ofMinutes(2), InformerCache.DEFAULT_WATCH_TIMEOUT, InformerCache.DEFAULT_SILENCE_THRESHOLD,
			Duration.ofSeconds(10), InformerCache.DEFAULT_LIST_PAGE_SIZE, true, List.of(), true);

	/**
	 * Creates the configuration.
	 * @throws InvalidConfigException naming every value that breaks the rules
	 */
	public ManagerConfig {
		ConfigChecks checks = new ConfigChecks();
		checks.notNegative("syncPeriod", syncPeriod);
		checks.notNull("gracefulShutdownTimeout", gracefulShutdownTimeout);
		checks.positive("cacheSyncTimeout", cacheSyncTimeout);
		if (checks.notNull("watchTimeout", watchTimeout)
				&& checks.check(watchTimeout.toMillis() >= 2000, "watchTimeout", watchTimeout, "must be at least 2s")
				&& checks.notNull("watchSilenceThreshold", watchSilenceThreshold)) {
			checks.compare(watchSilenceThreshold.compareTo(watchTimeout) > 0, "watchSilenceThreshold",
					watchSilenceThreshold, "must be longer than", "watchTimeout", watchTimeout);
		}
		checkWatchFailureThreshold(checks, watchFailureThreshold);
		checks.atLeast("listPageSize", listPageSize, 1);
		if (checks.notNull("namespaces", namespaces)) {
			for (int i = 0; i < namespaces.size(); i++) {
				checks.dnsLabel("namespaces[" + i + "]", namespaces.get(i));
			}
		}
		checks.throwIfAny();
		namespaces = List.copyOf(namespaces);
	}

	/**
	 * Checks a watch failure threshold given on its own, to {@link ManagerHealth}.
	 * @param watchFailureThreshold the threshold
	 * @return the threshold
	 * @throws InvalidConfigException if it is negative
	 */
	static Duration requireWatchFailureThreshold(Duration watchFailureThreshold) {
		ConfigChecks checks = new ConfigChecks();
		checkWatchFailureThreshold(checks, watchFailureThreshold);
		checks.throwIfAny();
		return watchFailureThreshold;
	}

	private static void checkWatchFailureThreshold(ConfigChecks checks, @Nullable Duration watchFailureThreshold) {
		checks.notNegative("watchFailureThreshold", watchFailureThreshold);
	}

}
