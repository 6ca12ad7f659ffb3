package io.kubeboot.operator.cluster;

import java.util.Collection;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;

import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.handler.MapFunction;
import io.kubeboot.operator.manager.StopSignal;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.source.RequestQueue;
import io.kubeboot.operator.source.Source;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A kind of the home cluster whose changes map to requests in every engaged cluster: one
 * handler on the home informer hands each change's requests to the queue of every running
 * member controller, and a member controller that starts gets the requests of every
 * cached object first.
 */
final class HomeFanOut<W extends KubernetesObject> implements ResourceEventHandler<W> {

	private static final Logger logger = LoggerFactory.getLogger(HomeFanOut.class);

	private final String controller;

	private final Informer<W> informer;

	private final MapFunction<W> mapFunction;

	private final Set<RequestQueue> queues = new CopyOnWriteArraySet<>();

	HomeFanOut(String controller, Informer<W> informer, MapFunction<W> mapFunction) {
		this.controller = controller;
		this.informer = informer;
		this.mapFunction = mapFunction;
		informer.addEventHandler(this);
	}

	/**
	 * Returns a source for one member controller: the requests of every cached object at
	 * its start, then those of every change while it runs.
	 */
	Source source() {
		return this::feed;
	}

	private void feed(RequestQueue queue, StopSignal stop) throws InterruptedException {
		this.queues.add(queue);
		try {
			for (W object : this.informer.list()) {
				map(object).forEach(queue::add);
			}
			stop.await();
		}
		finally {
			this.queues.remove(queue);
		}
	}

	@Override
	public void onAdd(W object) {
		send(object);
	}

	/**
	 * Sends the requests of the old object and the new, as controller-runtime's map
	 * handlers do: a home object that now maps elsewhere (another namespace, say) still
	 * reaches the requests it mapped to before, whose objects may have to go.
	 */
	@Override
	public void onUpdate(W oldObject, W newObject) {
		send(oldObject);
		send(newObject);
	}

	@Override
	public void onDelete(W object, boolean deletedFinalStateUnknown) {
		send(object);
	}

	private void send(W object) {
		if (this.queues.isEmpty()) {
			return;
		}
		Collection<Request> requests = map(object);
		for (RequestQueue queue : this.queues) {
			requests.forEach(queue::add);
		}
	}

	private Collection<Request> map(W object) {
		try {
			return this.mapFunction.map(object);
		}
		catch (RuntimeException ex) {
			logger.error("Map function of a home kind failed, its change is dropped: controller={} kind={}",
					this.controller, this.informer.key(), ex);
			return Set.of();
		}
	}

}
