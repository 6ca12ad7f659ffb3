package io.kubeboot.operator.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.model.PartialObjectMetadata;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.util.PatchUtils;
import okhttp3.Interceptor;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.BufferedSource;
import okio.ForwardingSource;
import okio.Okio;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Kinds cached as metadata only against a real kube-apiserver: the lists and watches ask
 * for {@code PartialObjectMetadata}, the API server sends no data, the cache holds the
 * metadata with the kind named, and an owned kind cached so still reconciles its owner.
 */
@WithControlPlane
class MetadataOnlyCacheIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	/** {@code s3cret-value}, base64-encoded, as a Secret's data travels. */
	private static final String SECRET_VALUE = "czNjcmV0LXZhbHVl";

	@RegisterExtension
	private final TestResources resources = new TestResources();

	@Test
	void anOwnedKindCachedAsMetadataOnlyReconcilesItsOwnerAndHoldsNoData(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		String ns = namespace.name();
		CoreV1Api admin = new CoreV1Api(controlPlane.adminClient());
		// listed: it exists before the cache starts
		V1Secret created = createAppSecret(admin, ns);

		Wire wire = new Wire("/api/v1/namespaces/" + ns + "/secrets");
		Manager manager = manager(wire.client(controlPlane.adminClient()), ns);
		Map<String, AtomicInteger> reconciles = new ConcurrentHashMap<>();
		List<PartialObjectMetadata> read = new CopyOnWriteArrayList<>();
		Controller.builder(manager, V1ConfigMap.class).ownsMetadataOnly(V1Secret.class).complete((request) -> {
			reconciles.computeIfAbsent(request.name(), (name) -> new AtomicInteger()).incrementAndGet();
			manager.cache()
				.getMetadata(V1Secret.class, Request.of(request.namespace(), request.name() + "-secret"))
				.ifPresent(read::add);
			return Result.done();
		});
		manager.start();

		// the cache: the Secret's metadata, named as a Secret, without its data
		PartialObjectMetadata cached = manager.cache()
			.getMetadata(V1Secret.class, Request.of(ns, "app-secret"))
			.orElseThrow();
		assertThat(cached.getApiVersion()).isEqualTo("v1");
		assertThat(cached.getKind()).isEqualTo("Secret");
		assertThat(cached.getMetadata().getLabels()).containsEntry("tier", "a");
		assertThat(cached.getMetadata().getResourceVersion()).isEqualTo(created.getMetadata().getResourceVersion());
		assertThat(cached.getMetadata().getOwnerReferences()).singleElement()
			.satisfies((reference) -> assertThat(reference.getName()).isEqualTo("app"));
		assertThat(manager.cache().listMetadata(V1Secret.class, ns)).containsExactly(cached);
		assertThat(manager.cache().listMetadata(V1Secret.class, ns, "tier=b")).isEmpty();
		assertThatIllegalStateException().isThrownBy(() -> manager.cache().get(V1Secret.class, Request.of(ns, "x")))
			.withMessageContaining("it is cached as metadata only; read it with getMetadata or listMetadata");
		await().atMost(WAIT).untilAsserted(() -> assertThat(read).isNotEmpty());

		// a change of the owned Secret on the watch reconciles its owner
		int before = reconciles.get("app").get();
		PatchUtils.patch(V1Secret.class,
				() -> admin
					.patchNamespacedSecret("app-secret", ns,
							new V1Patch("{\"metadata\":{\"labels\":{\"tier\":\"b\"}}}"))
					.buildCall(null),
				V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, controlPlane.adminClient());
		await().atMost(WAIT).until(() -> reconciles.get("app").get() > before);
		await().atMost(WAIT)
			.until(() -> manager.cache()
				.getMetadata(V1Secret.class, Request.of(ns, "app-secret"))
				.map((secret) -> "b".equals(secret.getMetadata().getLabels().get("tier")))
				.orElse(false));

		// so does its deletion
		int beforeDelete = reconciles.get("app").get();
		admin.deleteNamespacedSecret("app-secret", ns).execute();
		await().atMost(WAIT).until(() -> reconciles.get("app").get() > beforeDelete);
		assertThat(manager.cache().getMetadata(V1Secret.class, Request.of(ns, "app-secret"))).isEmpty();

		// on the wire: every list and watch of Secrets asked for metadata only (the list
		// streamed, as a watch), and the API server sent metadata only, never the data
		assertThat(wire.accepts).isNotEmpty()
			.allSatisfy((accept) -> assertThat(accept).startsWith("application/json;as=PartialObjectMetadata;"));
		assertThat(wire.text()).contains("\"kind\":\"PartialObjectMetadata\"")
			.contains("k8s.io/initial-events-end")
			.doesNotContain(SECRET_VALUE);
	}

	@Test
	void aKindCachedAsMetadataOnlyAndListedInPagesAsksForMetadataListsOnly(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		String ns = namespace.name();
		createAppSecret(new CoreV1Api(controlPlane.adminClient()), ns);
		Wire wire = new Wire("/api/v1/namespaces/" + ns + "/secrets");
		Manager manager = Manager.builder(wire.client(controlPlane.adminClient()))
			.namespace(ns)
			.streamingLists(false)
			.build();
		this.resources.manager(manager);
		manager.cache().metadataInformer(V1Secret.class, ns, null);
		manager.start();
		assertThat(manager.cache().getMetadata(V1Secret.class, Request.of(ns, "app-secret"))).isPresent();
		assertThat(wire.accepts).first().asString().startsWith("application/json;as=PartialObjectMetadataList;");
		assertThat(wire.text()).contains("\"kind\":\"PartialObjectMetadataList\"").doesNotContain(SECRET_VALUE);
	}

	@Test
	void aFullAndAMetadataOnlyInformerOfOneKindAreTwoCaches(ApiClient admin, TestNamespace namespace) throws Exception {
		String ns = namespace.name();
		new CoreV1Api(admin)
			.createNamespacedConfigMap(ns,
					new V1ConfigMap().metadata(new V1ObjectMeta().namespace(ns).name("settings"))
						.data(Map.of("k", "v")))
			.execute();
		Manager manager = manager(admin, ns);
		Informer<V1ConfigMap> whole = manager.cache().informer(V1ConfigMap.class, ns, null);
		Informer<PartialObjectMetadata> metadata = manager.cache().metadataInformer(V1ConfigMap.class, ns, null);
		assertThat(manager.cache().metadataInformer(V1ConfigMap.class, ns, null)).isSameAs(metadata);
		assertThat(whole.key()).isNotEqualTo(metadata.key());
		assertThat(metadata.key().metadataOnly()).isTrue();
		manager.start();
		assertThat(manager.cache().get(V1ConfigMap.class, Request.of(ns, "settings")).orElseThrow().getData())
			.containsEntry("k", "v");
		assertThat(manager.cache().getMetadata(V1ConfigMap.class, Request.of(ns, "settings")).orElseThrow())
			.isInstanceOf(PartialObjectMetadata.class)
			.satisfies((partial) -> assertThat(partial.getKind()).isEqualTo("ConfigMap"));
		assertThat(manager.cache().informers()).hasSize(2);
	}

	private Manager manager(ApiClient client, String namespace) {
		return this.resources.manager(Manager.builder(client).namespace(namespace).build());
	}

	/** Creates the ConfigMap {@code app} and the Secret {@code app-secret} it owns. */
	private static V1Secret createAppSecret(CoreV1Api admin, String namespace) throws ApiException {
		V1ConfigMap owner = admin
			.createNamespacedConfigMap(namespace,
					new V1ConfigMap().metadata(new V1ObjectMeta().namespace(namespace).name("app")))
			.execute();
		return admin.createNamespacedSecret(namespace, secret(namespace, "app-secret", owner)).execute();
	}

	private static V1Secret secret(String namespace, String name, V1ConfigMap owner) {
		return new V1Secret()
			.metadata(new V1ObjectMeta().namespace(namespace)
				.name(name)
				.putLabelsItem("tier", "a")
				.addOwnerReferencesItem(new V1OwnerReference().apiVersion("v1")
					.kind("ConfigMap")
					.name(owner.getMetadata().getName())
					.uid(owner.getMetadata().getUid())
					.controller(true)))
			.putDataItem("password", "s3cret-value".getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * Records the Accept header of every request to one collection and every byte the API
	 * server answers, watch streams included.
	 */
	private static final class Wire implements Interceptor {

		private final String path;

		private final List<String> accepts = new CopyOnWriteArrayList<>();

		private final ByteArrayOutputStream received = new ByteArrayOutputStream();

		Wire(String path) {
			this.path = path;
		}

		ApiClient client(ApiClient client) {
			return client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(this).build());
		}

		String text() {
			synchronized (this.received) {
				return this.received.toString(StandardCharsets.UTF_8);
			}
		}

		@Override
		public Response intercept(Chain chain) throws IOException {
			if (!chain.request().url().encodedPath().equals(this.path)) {
				return chain.proceed(chain.request());
			}
			this.accepts.add(chain.request().header("Accept"));
			Response response = chain.proceed(chain.request());
			ResponseBody body = response.body();
			if (body == null) {
				return response;
			}
			BufferedSource copying = Okio.buffer(new ForwardingSource(body.source()) {

				@Override
				public long read(Buffer sink, long byteCount) throws IOException {
					long read = super.read(sink, byteCount);
					if (read > 0) {
						Buffer copy = new Buffer();
						sink.copyTo(copy, sink.size() - read, read);
						synchronized (Wire.this.received) {
							Wire.this.received.writeBytes(copy.readByteArray());
						}
					}
					return read;
				}

			});
			return response.newBuilder().body(ResponseBody.create(copying, body.contentType(), -1)).build();
		}

	}

}
