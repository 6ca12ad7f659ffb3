package io.kubeboot.operator.controller;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubeboot.operator.predicate.Predicates;
import io.kubeboot.operator.reconcile.Request;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link EventSource}.
 */
class EventSourceTests {

	private final FakeInformer<V1ConfigMap> informer = new FakeInformer<>(V1ConfigMap.class);

	private final List<Request> sent = new CopyOnWriteArrayList<>();

	@Test
	void updateOfAnObjectThatMapsToOneRequestSendsItOnce() {
		EventSource<V1ConfigMap> source = new EventSource<>("test", this.informer,
				(object) -> List.of(Request.of(object)), Predicates.all());
		source.register(this.sent::add);
		V1ConfigMap before = configMap("a", "1");
		this.informer.add(before);
		this.sent.clear();

		this.informer.update(before, configMap("a", "2"));

		// sent twice, a worker that takes the first before the second arrives reconciles
		// the object twice
		assertThat(this.sent).containsExactly(Request.of("default", "a"));
	}

	@Test
	void updateThatMovesAnObjectToAnotherRequestSendsBothOnce() {
		EventSource<V1ConfigMap> source = new EventSource<>("test", this.informer,
				(object) -> List.of(Request.of("default", object.getData().get("owner"))), Predicates.all());
		source.register(this.sent::add);
		V1ConfigMap before = configMap("a", "1").putDataItem("owner", "first");
		this.informer.add(before);
		this.sent.clear();

		this.informer.update(before, configMap("a", "2").putDataItem("owner", "second"));

		assertThat(this.sent).containsExactly(Request.of("default", "first"), Request.of("default", "second"));
	}

	private static V1ConfigMap configMap(String name, String resourceVersion) {
		return new V1ConfigMap()
			.metadata(new V1ObjectMeta().namespace("default").name(name).resourceVersion(resourceVersion));
	}

}
