package io.kubeboot.operator.controller;

import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;

import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.handler.MapFunction;
import io.kubeboot.operator.reconcile.Request;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One kind a controller reacts to: an informer and the mapping from its objects to
 * requests. Registers a handler on the informer that feeds every mapped request to the
 * controller.
 *
 * @param <T> the watched model type
 */
final class EventSource<T extends KubernetesObject> {

	private static final Logger logger = LoggerFactory.getLogger(EventSource.class);

	private final String controller;

	private final Informer<T> informer;

	private final MapFunction<T> mapFunction;

	EventSource(String controller, Informer<T> informer, MapFunction<T> mapFunction) {
		this.controller = controller;
		this.informer = informer;
		this.mapFunction = mapFunction;
	}

	Informer<T> informer() {
		return this.informer;
	}

	void register(Consumer<Request> sink) {
		this.informer.addEventHandler(new ResourceEventHandler<>() {

			@Override
			public void onAdd(T object) {
				map(object).forEach(sink);
			}

			@Override
			public void onUpdate(T oldObject, T newObject) {
				// both: an owner reference or a mapped field may have moved from one
				// request to another
				map(oldObject).forEach(sink);
				map(newObject).forEach(sink);
			}

			@Override
			public void onDelete(T object, boolean deletedFinalStateUnknown) {
				map(object).forEach(sink);
			}

		});
	}

	/**
	 * Feeds every cached object through the mapping, as a freshly added handler would see
	 * them.
	 */
	void replay(Consumer<Request> sink) {
		for (T object : this.informer.list()) {
			map(object).forEach(sink);
		}
	}

	private Collection<Request> map(T object) {
		try {
			Collection<Request> requests = this.mapFunction.map(object);
			return (requests != null) ? requests : List.of();
		}
		catch (RuntimeException ex) {
			logger.error("Mapping an event to requests failed, event skipped: controller={} informer={} object={}",
					this.controller, this.informer.key(), describe(object), ex);
			return List.of();
		}
	}

	private static String describe(KubernetesObject object) {
		return (object.getMetadata() != null)
				? object.getMetadata().getNamespace() + "/" + object.getMetadata().getName() : "?";
	}

}
