package io.kubeboot.operator.benchmarks.index;

import java.time.Duration;
import java.util.List;

import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.cache.CacheIndex;
import io.kubeboot.operator.handler.MapFunction;
import io.kubeboot.operator.handler.MapFunctions;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.reconcile.Request;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;

/**
 * A started manager whose cache holds the ConfigMaps of a {@link ScriptedApiServer},
 * indexed by the Secret they name, and the two ways a watch of Secrets maps a Secret
 * event to the ConfigMaps naming it: the scan the guide's example used to do, and the
 * lookup in the index.
 */
final class IndexedMapping implements AutoCloseable {

	/** The ConfigMaps by the Secret their {@code data.secret} names. */
	static final CacheIndex<V1ConfigMap> BY_SECRET = CacheIndex.of(V1ConfigMap.class, "secretRef",
			(configMap) -> List.of(configMap.getData().get("secret")));

	private final ScriptedApiServer server;

	private final Manager manager;

	/** Visits every cached ConfigMap of the Secret's namespace. */
	final MapFunction<V1Secret> scan;

	/** Reads the ConfigMaps the index files under the Secret's name. */
	final MapFunction<V1Secret> index;

	private IndexedMapping(ScriptedApiServer server, Manager manager) {
		this.server = server;
		this.manager = manager;
		Cache cache = manager.cache();
		this.scan = (secret) -> cache.list(V1ConfigMap.class, secret.getMetadata().getNamespace())
			.stream()
			.filter((configMap) -> secret.getMetadata().getName().equals(configMap.getData().get("secret")))
			.map(Request::of)
			.toList();
		this.index = MapFunctions.byIndex(cache, BY_SECRET, (secret) -> secret.getMetadata().getName());
	}

	/**
	 * Starts the server and a manager caching its ConfigMaps, and waits for the cache.
	 * @param configMaps how many ConfigMaps are cached
	 * @param secrets how many Secrets they name
	 * @return the mapping, synced
	 * @throws Exception if the manager does not start
	 */
	static IndexedMapping start(int configMaps, int secrets) throws Exception {
		ScriptedApiServer server = ScriptedApiServer.serving(configMaps, secrets);
		try {
			Manager manager = Manager.builder(server.client())
				.streamingLists(false)
				.cacheSyncTimeout(Duration.ofMinutes(1))
				.build();
			manager.cache().addIndex(BY_SECRET);
			manager.cache().informer(V1ConfigMap.class, ScriptedApiServer.NAMESPACE, null);
			manager.start();
			return new IndexedMapping(server, manager);
		}
		catch (Exception | Error ex) {
			server.close();
			throw ex;
		}
	}

	/**
	 * Returns the Secret a ConfigMap names.
	 * @param i the Secret's number
	 * @return the Secret, as a watch event would bring it
	 */
	static V1Secret secret(int i) {
		return new V1Secret()
			.metadata(new V1ObjectMeta().namespace(ScriptedApiServer.NAMESPACE).name("secret-" + i).uid("s-" + i));
	}

	@Override
	public void close() {
		try {
			this.manager.stop();
		}
		finally {
			this.server.close();
		}
	}

}
