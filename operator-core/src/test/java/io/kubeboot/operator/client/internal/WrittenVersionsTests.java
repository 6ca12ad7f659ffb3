package io.kubeboot.operator.client.internal;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import io.kubeboot.operator.client.internal.WrittenVersions.CacheBehindException;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class WrittenVersionsTests {

	private final WrittenVersions written = new WrittenVersions(Duration.ofMillis(50));

	@Test
	void readWaitsUntilTheCacheHasTheWrittenVersion() throws Exception {
		this.written.wrote(configMap("5"));
		AtomicReference<V1ConfigMap> cache = new AtomicReference<>(configMap("4"));
		Thread catchUp = new Thread(() -> cache.set(configMap("5")));
		catchUp.start();
		V1ConfigMap read = this.written.read(V1ConfigMap.class, "ns", "cm", cache::get);
		assertThat(read.getMetadata().getResourceVersion()).isEqualTo("5");
		assertThat(this.written.inFlight()).isZero();
	}

	@Test
	void readOfACacheThatNeverCatchesUpFailsOnceAsABehindCache() throws Exception {
		this.written.wrote(configMap("5"));
		assertThatExceptionOfType(CacheBehindException.class)
			.isThrownBy(() -> this.written.read(V1ConfigMap.class, "ns", "cm", () -> configMap("4")));
		assertThat(this.written.read(V1ConfigMap.class, "ns", "cm", () -> configMap("4"))
			.getMetadata()
			.getResourceVersion()).isEqualTo("4");
	}

	@Test
	void writeIsForgottenOnceTheCacheSeesItWithoutAnyRead() {
		this.written.wrote(configMap("5"));
		this.written.observed(configMap("4"), false);
		assertThat(this.written.inFlight()).isOne();
		this.written.observed(configMap("6"), false);
		assertThat(this.written.inFlight()).isZero();
	}

	@Test
	void writeIsForgottenOnceTheCacheSeesTheObjectDeleted() {
		this.written.wrote(configMap("5"));
		this.written.observed(configMap("4"), true);
		assertThat(this.written.inFlight()).isZero();
	}

	@Test
	void deleteIsForgottenOnceTheCacheSeesIt() {
		V1ConfigMap deleted = configMap("5");
		deleted.getMetadata().setUid("u1");
		this.written.deleted(deleted);
		assertThat(this.written.inFlight()).isOne();
		this.written.observed(deleted, true);
		assertThat(this.written.inFlight()).isZero();
	}

	@Test
	void aWriteTheCacheSawGoWhileAReadWaitedEndsTheWait() throws Exception {
		// an update that removed the last finalizer: recorded at its version, and the
		// cache then sees the object deleted rather than at that version
		WrittenVersions patient = new WrittenVersions(Duration.ofSeconds(5));
		patient.wrote(configMap("5"));
		AtomicReference<V1ConfigMap> cache = new AtomicReference<>(configMap("4"));
		Thread deletion = new Thread(() -> {
			cache.set(null);
			patient.observed(configMap("4"), true);
		});
		deletion.start();
		assertThat(patient.read(V1ConfigMap.class, "ns", "cm", cache::get)).isNull();
		deletion.join();
		assertThat(patient.inFlight()).isZero();
	}

	@Test
	void aWriteAnsweredWithAVersionAloneIsAwaitedAsAnyWrite() throws Exception {
		this.written.wrote(configMap("4"), "6");
		assertThatExceptionOfType(CacheBehindException.class)
			.isThrownBy(() -> this.written.read(V1ConfigMap.class, "ns", "cm", () -> configMap("5")));
		this.written.wrote(configMap("4"), "6");
		assertThat(this.written.read(V1ConfigMap.class, "ns", "cm", () -> configMap("6"))
			.getMetadata()
			.getResourceVersion()).isEqualTo("6");
	}

	@Test
	void writesOfANamespaceTheCacheNoLongerWatchesAreForgottenAndReadsDoNotWait() throws Exception {
		this.written.wrote(configMap("5"));
		this.written.forget(V1ConfigMap.class, "other");
		this.written.forget(V1Secret.class, "ns");
		assertThat(this.written.inFlight()).isOne();
		this.written.forget(V1ConfigMap.class, "ns");
		assertThat(this.written.inFlight()).isZero();
		V1ConfigMap read = this.written.read(V1ConfigMap.class, "ns", "cm", () -> null);
		assertThat(read).isNull();
	}

	private static V1ConfigMap configMap(String resourceVersion) {
		return new V1ConfigMap()
			.metadata(new V1ObjectMeta().namespace("ns").name("cm").resourceVersion(resourceVersion));
	}

}
