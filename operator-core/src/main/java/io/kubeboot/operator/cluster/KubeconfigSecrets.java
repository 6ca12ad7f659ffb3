package io.kubeboot.operator.cluster;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.StopSignal;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.openapi.models.V1Secret;
import org.jspecify.annotations.Nullable;

/**
 * Clusters from kubeconfig Secrets in a namespace of the home cluster, selected by a
 * label, the way multicluster-runtime's kubeconfig provider finds them: each Secret is a
 * cluster of its name, engaged while the Secret exists, engaged again when its kubeconfig
 * changes, and disengaged when it is deleted or loses the label.
 * <p>
 * The kubeconfig is read from the Secret's {@code kubeconfig} key, with its current
 * context. It may hold only data (a token, certificates and keys inline): one that runs a
 * command or names a file is refused, as is one that is missing or does not parse; a
 * refused Secret is reported in the fleet's status and stops no other cluster. The
 * Secrets are read through the home manager's cache, which lists and watches them in
 * their namespace only.
 */
public final class KubeconfigSecrets implements ClusterProvider {

	/** The label that marks a kubeconfig Secret unless another selector is given. */
	public static final String DEFAULT_LABEL_SELECTOR = "cluster.kubeboot.io/kubeconfig=true";

	/** The key of a Secret's data that holds the kubeconfig unless another is given. */
	public static final String DEFAULT_KEY = "kubeconfig";

	private final String namespace;

	private final String key;

	private final Informer<V1Secret> secrets;

	/** The kubeconfig of each cluster engaged or refused in the current run. */
	private final Map<String, byte[]> applied = new HashMap<>();

	private @Nullable Clusters fleet;

	private KubeconfigSecrets(Manager home, String namespace, String labelSelector, String key) {
		if (namespace == null || namespace.isBlank()) {
			throw new IllegalArgumentException("the kubeconfig Secrets' namespace must not be blank");
		}
		if (key == null || key.isBlank()) {
			throw new IllegalArgumentException("the kubeconfig Secrets' key must not be blank");
		}
		this.namespace = namespace;
		this.key = key;
		this.secrets = Objects.requireNonNull(home, "home must not be null")
			.cache()
			.informer(V1Secret.class, namespace, labelSelector);
		this.secrets.addEventHandler(new Changes());
	}

	/**
	 * Returns a provider of the Secrets labelled {@value #DEFAULT_LABEL_SELECTOR} in a
	 * namespace of the home cluster, their kubeconfig under {@value #DEFAULT_KEY}.
	 * @param home the home manager, whose cache watches the Secrets
	 * @param namespace the namespace of the Secrets
	 * @return the provider
	 */
	public static KubeconfigSecrets in(Manager home, String namespace) {
		return in(home, namespace, DEFAULT_LABEL_SELECTOR, DEFAULT_KEY);
	}

	/**
	 * Returns a provider of the Secrets a label selector selects in a namespace of the
	 * home cluster.
	 * @param home the home manager, whose cache watches the Secrets
	 * @param namespace the namespace of the Secrets
	 * @param labelSelector selects the kubeconfig Secrets
	 * @param key the key of their data that holds the kubeconfig
	 * @return the provider
	 */
	public static KubeconfigSecrets in(Manager home, String namespace, String labelSelector, String key) {
		return new KubeconfigSecrets(home, namespace, labelSelector, key);
	}

	@Override
	public void run(Clusters fleet, StopSignal stop) throws InterruptedException {
		synchronized (this) {
			this.fleet = fleet;
			this.applied.clear();
			this.secrets.list().forEach(this::apply);
		}
		try {
			stop.await();
		}
		finally {
			synchronized (this) {
				this.fleet = null;
			}
		}
	}

	private synchronized void apply(V1Secret secret) {
		Clusters current = this.fleet;
		String name = (secret.getMetadata() != null) ? secret.getMetadata().getName() : null;
		if (current == null || name == null) {
			return;
		}
		byte[] data = (secret.getData() != null) ? secret.getData().get(this.key) : null;
		byte[] kubeconfig = (data != null) ? data : new byte[0];
		if (this.applied.containsKey(name) && Arrays.equals(this.applied.get(name), kubeconfig)) {
			return; // a resync, or a change of something else
		}
		this.applied.put(name, kubeconfig);
		if (data == null) {
			current.refuse(name, "Secret " + this.namespace + "/" + name + " has no key '" + this.key + "'");
			return;
		}
		try {
			current.engage(name, Kubeconfigs.fromData(new String(data, StandardCharsets.UTF_8)));
		}
		catch (IllegalArgumentException ex) {
			current.refuse(name, "Secret " + this.namespace + "/" + name + ": " + ex.getMessage());
		}
	}

	private synchronized void remove(V1Secret secret) {
		Clusters current = this.fleet;
		String name = (secret.getMetadata() != null) ? secret.getMetadata().getName() : null;
		if (current == null || name == null) {
			return;
		}
		this.applied.remove(name);
		current.disengage(name);
	}

	@Override
	public String toString() {
		return "KubeconfigSecrets[namespace=" + this.namespace + ", selector=" + this.secrets.key().labelSelector()
				+ "]";
	}

	/**
	 * The Secrets' changes, applied while the fleet runs this provider.
	 */
	private final class Changes implements ResourceEventHandler<V1Secret> {

		@Override
		public void onAdd(V1Secret secret) {
			apply(secret);
		}

		@Override
		public void onUpdate(V1Secret oldSecret, V1Secret newSecret) {
			apply(newSecret);
		}

		@Override
		public void onDelete(V1Secret secret, boolean deletedFinalStateUnknown) {
			remove(secret);
		}

	}

}
