package io.kubeboot.operator.sharding.internal;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.cache.InformerCost;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.client.internal.WriteFence;
import io.kubeboot.operator.manager.StopSignal;
import io.kubeboot.operator.model.PartialObjectMetadata;
import io.kubeboot.operator.sharding.ShardingConfig;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link Sharder}: a leader-only runnable that starts again with every term of
 * the leader Lease (lost-lease policy {@code RE_ELECT}), against a cache whose informer
 * cannot drop a handler. Its view of the ring is empty, so it writes nothing.
 */
class SharderTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final RecordingInformer informer = new RecordingInformer();

	private final List<Informer<?>> released = new CopyOnWriteArrayList<>();

	private final Cache cache = (Cache) Proxy.newProxyInstance(Cache.class.getClassLoader(),
			new Class<?>[] { Cache.class }, (proxy, method, args) -> switch (method.getName()) {
				case "metadataInformer" -> this.informer;
				case "release" -> {
					this.released.add((Informer<?>) args[0]);
					yield null;
				}
				default -> throw new UnsupportedOperationException(method.getName());
			});

	@Test
	void itsWorkersWriteUnderTheFenceOfTheSharder() throws Exception {
		WriteFence fence = new WriteFence(Duration.ofSeconds(2), System::nanoTime);
		AtomicReference<WriteFence> seen = new AtomicReference<>();
		Thread worker;
		WriteFence.enter(fence);
		try {
			worker = Sharder.worker(() -> seen.set(WriteFence.current()), "test-sharder-worker");
		}
		finally {
			WriteFence.enter(null);
		}
		worker.start();
		worker.join(WAIT.toMillis());
		assertThat(seen.get()).isSameAs(fence);
	}

	@Test
	void aSharderThatStoppedKeepsNoHandlerFeedingItNorItsInformer() throws Exception {
		ShardingConfig config = new ShardingConfig("default", "widgets", "pod-a", Duration.ofSeconds(3),
				Duration.ofSeconds(2), Duration.ofMillis(500), 100, ShardingConfig.Mode.LABEL);
		// nothing reaches the API server: the member is not started, the view is empty
		Sharder sharder = new Sharder(new ShardMember(new ApiClient(), config), config, this.cache, null);
		sharder.shard(V1ConfigMap.class, "default", null);
		for (int run = 1; run <= 3; run++) {
			StopSignal stop = new StopSignal();
			Thread thread = new Thread(() -> {
				try {
					sharder.start(stop);
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			}, "test-sharder");
			thread.start();
			await().atMost(WAIT).until(() -> {
				this.informer.update(object("1"));
				return sharder.seenObjects() == 1;
			});
			stop.fire();
			thread.join(WAIT.toMillis());
			assertThat(thread.isAlive()).isFalse();
			// given back each time: the cache stops it unless someone else asked for it
			assertThat(this.released).hasSize(run).containsOnly(this.informer);
		}
		// before, each run added a handler that outlived it
		assertThat(this.informer.handlers).hasSize(1);
		this.informer.update(object("2"));
		assertThat(sharder.seenObjects()).as("nothing recorded between runs").isZero();
	}

	private static PartialObjectMetadata object(String resourceVersion) {
		return new PartialObjectMetadata()
			.metadata(new V1ObjectMeta().namespace("default").name("o").resourceVersion(resourceVersion));
	}

	/**
	 * An informer that, like client-java's, cannot drop a handler.
	 */
	private static final class RecordingInformer implements Informer<PartialObjectMetadata> {

		private final List<ResourceEventHandler<PartialObjectMetadata>> handlers = new CopyOnWriteArrayList<>();

		private final Map<String, PartialObjectMetadata> objects = new ConcurrentHashMap<>();

		void update(PartialObjectMetadata object) {
			PartialObjectMetadata old = this.objects.put(object.getMetadata().getName(), object);
			this.handlers.forEach((handler) -> handler.onUpdate((old != null) ? old : object, object));
		}

		@Override
		public InformerKey key() {
			return new InformerKey(V1ConfigMap.class, "default", null, true);
		}

		@Override
		public void addEventHandler(ResourceEventHandler<PartialObjectMetadata> handler) {
			this.handlers.add(handler);
		}

		@Override
		public boolean hasSynced() {
			return true;
		}

		@Override
		public List<PartialObjectMetadata> list() {
			return List.copyOf(this.objects.values());
		}

		@Override
		public InformerCost cost() {
			return InformerCost.counted(this.objects.size());
		}

		@Override
		public List<PartialObjectMetadata> list(String namespace) {
			return list();
		}

		@Override
		public Optional<PartialObjectMetadata> get(@Nullable String namespace, String name) {
			return Optional.ofNullable(this.objects.get(name));
		}

		@Override
		public @Nullable String lastError() {
			return null;
		}

		@Override
		public @Nullable Duration failingFor() {
			return null;
		}

		@Override
		public Duration silentFor() {
			return Duration.ZERO;
		}

		@Override
		public long restarts() {
			return 0;
		}

		@Override
		public @Nullable Duration restartingFor() {
			return null;
		}

	}

}
