package io.kubeboot.operator.controller;

import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

import io.kubeboot.operator.cache.Informer;
import io.kubernetes.client.common.KubernetesObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warns, as namespaces leave the manager's set, about the objects of a controller's kind
 * there that carry its finalizer: no controller will remove it any more, so deleting
 * them, or their namespace, waits until someone does. Told while the namespaces'
 * informers still hold their objects.
 */
final class StrandedFinalizers implements Consumer<Set<String>> {

	private static final Logger logger = LoggerFactory.getLogger(Controller.class);

	/** How many of the objects the warning names. */
	private static final int NAMED = 5;

	private final String controller;

	private final String finalizer;

	private final Informer<?> informer;

	/**
	 * Creates the warning of a controller.
	 * @param controller the controller's name
	 * @param finalizer its finalizer
	 * @param informer the informer of its kind, which follows the set
	 */
	StrandedFinalizers(String controller, String finalizer, Informer<?> informer) {
		this.controller = controller;
		this.finalizer = finalizer;
		this.informer = informer;
	}

	@Override
	public void accept(Set<String> namespaces) {
		for (String namespace : namespaces) {
			List<String> stranded = this.informer.list(namespace)
				.stream()
				.filter(this::carriesFinalizer)
				.map((object) -> object.getMetadata().getName())
				.sorted()
				.toList();
			if (!stranded.isEmpty()) {
				logger.warn(
						"Namespace leaves the watched set with objects that carry the controller's finalizer: "
								+ "deleting them, or the namespace, waits until it is removed, which this operator no "
								+ "longer does there; add the namespace back until they are deleted, or remove the "
								+ "finalizer from them: controller={} namespace={} finalizer={} objects={} names={}",
						this.controller, namespace, this.finalizer, stranded.size(),
						(stranded.size() > NAMED) ? stranded.subList(0, NAMED) + " ..." : stranded);
			}
		}
	}

	private boolean carriesFinalizer(KubernetesObject object) {
		List<String> finalizers = object.getMetadata().getFinalizers();
		return finalizers != null && finalizers.contains(this.finalizer);
	}

}
