package io.kubeboot.operator.cluster;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

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

	/** How often the provider's thread looks at its stop signal between changes. */
	private static final Duration POLL = Duration.ofMillis(100);

	/**
	 * The changes of the Secrets, applied on the provider's thread while the fleet runs
	 * it, {@code null} otherwise: engaging a cluster again may wait for its old
	 * engagement's controllers, which the informer's event thread must not.
	 */
	private volatile @Nullable BlockingQueue<Change> changes;

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
		BlockingQueue<Change> changes = new LinkedBlockingQueue<>();
		// registered before the list is read: a change during the read is applied after
		// it
		this.changes = changes;
		try {
			Map<String, byte[]> applied = new HashMap<>();
			this.secrets.list().forEach((secret) -> apply(fleet, applied, secret));
			while (!stop.isStopRequested()) {
				Change change = changes.poll(POLL.toMillis(), TimeUnit.MILLISECONDS);
				if (change instanceof Applied applying) {
					apply(fleet, applied, applying.secret());
				}
				else if (change instanceof Removed removing) {
					remove(fleet, applied, removing.secret());
				}
			}
		}
		finally {
			this.changes = null;
		}
	}

	/**
	 * Engages or refuses the cluster of a Secret, unless its kubeconfig is the one
	 * applied already (a resync, or a change of something else).
	 */
	private void apply(Clusters fleet, Map<String, byte[]> applied, V1Secret secret) {
		String name = (secret.getMetadata() != null) ? secret.getMetadata().getName() : null;
		if (name == null) {
			return;
		}
		byte[] data = (secret.getData() != null) ? secret.getData().get(this.key) : null;
		byte[] kubeconfig = (data != null) ? data : new byte[0];
		if (applied.containsKey(name) && Arrays.equals(applied.get(name), kubeconfig)) {
			return;
		}
		applied.put(name, kubeconfig);
		if (data == null) {
			fleet.refuse(name, "Secret " + this.namespace + "/" + name + " has no key '" + this.key + "'");
			return;
		}
		try {
			fleet.engage(name, Kubeconfigs.fromData(new String(data, StandardCharsets.UTF_8)));
		}
		catch (IllegalArgumentException ex) {
			fleet.refuse(name, "Secret " + this.namespace + "/" + name + ": " + ex.getMessage());
		}
	}

	private void remove(Clusters fleet, Map<String, byte[]> applied, V1Secret secret) {
		String name = (secret.getMetadata() != null) ? secret.getMetadata().getName() : null;
		if (name != null) {
			applied.remove(name);
			fleet.disengage(name);
		}
	}

	@Override
	public String toString() {
		return "KubeconfigSecrets[namespace=" + this.namespace + ", selector=" + this.secrets.key().labelSelector()
				+ "]";
	}

	/**
	 * A change of a kubeconfig Secret.
	 */
	private sealed interface Change permits Applied, Removed {

	}

	/**
	 * A Secret added or changed.
	 */
	private record Applied(V1Secret secret) implements Change {
	}

	/**
	 * A Secret deleted, or no longer selected.
	 */
	private record Removed(V1Secret secret) implements Change {
	}

	/**
	 * The Secrets' changes, queued for the provider's thread while the fleet runs it.
	 */
	private final class Changes implements ResourceEventHandler<V1Secret> {

		@Override
		public void onAdd(V1Secret secret) {
			queue(new Applied(secret));
		}

		@Override
		public void onUpdate(V1Secret oldSecret, V1Secret newSecret) {
			queue(new Applied(newSecret));
		}

		@Override
		public void onDelete(V1Secret secret, boolean deletedFinalStateUnknown) {
			queue(new Removed(secret));
		}

		private void queue(Change change) {
			BlockingQueue<Change> current = KubeconfigSecrets.this.changes;
			if (current != null) {
				current.add(change);
			}
		}

	}

}
