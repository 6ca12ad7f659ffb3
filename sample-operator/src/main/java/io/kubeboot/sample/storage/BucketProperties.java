package io.kubeboot.sample.storage;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The {@code sample.buckets.*} settings of the StorageBucket controller (see
 * {@code application.yaml}).
 *
 * @param probeInterval how often every bucket is probed; read by the
 * {@code @PeriodicTrigger} of {@link StorageBucketReconciler}
 * @param probeTimeout how long a probe may take unless the bucket says otherwise
 * @param statusRefreshInterval how old {@code status.lastProbeTime} may get before a
 * probe that changes nothing else is written anyway
 * @param inventoryInterval how often {@link BucketInventoryLogger} logs
 * @param registryUrl the base URL of the {@link BucketRegistry}, {@code null} for none
 * @param regions the regions a bucket may name in {@code spec.region}, empty for any
 * (checked by {@link StorageBucketValidator})
 * @param allowPrivateEndpoints whether endpoints on loopback and private addresses may be
 * probed (see {@link AddressPolicy}); link-local and cloud metadata addresses never are
 */
@ConfigurationProperties("sample.buckets")
record BucketProperties(@DefaultValue("30s") Duration probeInterval, @DefaultValue("5s") Duration probeTimeout,
		@DefaultValue("5m") Duration statusRefreshInterval, @DefaultValue("1m") Duration inventoryInterval,
		@Nullable URI registryUrl, @DefaultValue List<String> regions,
		@DefaultValue("false") boolean allowPrivateEndpoints) {

	BucketProperties {
		requirePositive("probe-interval", probeInterval);
		requirePositive("probe-timeout", probeTimeout);
		requirePositive("status-refresh-interval", statusRefreshInterval);
		requirePositive("inventory-interval", inventoryInterval);
		if (registryUrl != null
				&& (!registryUrl.isAbsolute() || !List.of("http", "https").contains(registryUrl.getScheme()))) {
			throw new IllegalArgumentException(
					"sample.buckets.registry-url must be an absolute http or https URL, not '" + registryUrl + "'");
		}
	}

	private static void requirePositive(String name, Duration value) {
		if (value.isZero() || value.isNegative()) {
			throw new IllegalArgumentException("sample.buckets." + name + " must be positive, not " + value);
		}
	}

}
