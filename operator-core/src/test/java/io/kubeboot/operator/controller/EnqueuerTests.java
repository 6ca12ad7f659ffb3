package io.kubeboot.operator.controller;

import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class EnqueuerTests {

	private final Manager manager = Manager.builder(new ApiClient()).build();

	private final Enqueuer enqueuer = new Enqueuer(this.manager);

	@Test
	void controllerOfAKindIsFoundByTheKind() {
		Controller configMaps = Controller.builder(this.manager, V1ConfigMap.class)
			.complete((request) -> Result.done());
		Controller.builder(this.manager, V1Secret.class).complete((request) -> Result.done());
		assertThat(this.enqueuer.controllerFor(V1ConfigMap.class)).isSameAs(configMaps);
	}

	@Test
	void kindWithoutControllerFailsNamingTheControllers() {
		Controller.builder(this.manager, V1Secret.class).complete((request) -> Result.done());
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.enqueuer.enqueue(V1ConfigMap.class, Request.of("ns", "a")))
			.withMessage("No controller reconciles " + V1ConfigMap.class.getName() + "; the controllers are [secret]");
	}

	@Test
	void kindWithTwoControllersFailsAskingForTheName() {
		Controller.builder(this.manager, V1ConfigMap.class).named("first").complete((request) -> Result.done());
		Controller.builder(this.manager, V1ConfigMap.class).named("second").complete((request) -> Result.done());
		assertThatIllegalArgumentException().isThrownBy(() -> this.enqueuer.enqueueAll(V1ConfigMap.class))
			.withMessage("Several controllers reconcile " + V1ConfigMap.class.getName()
					+ ": [first, second]; name the one to use");
		assertThat(Controller.named(this.manager, "second").forType()).isEqualTo(V1ConfigMap.class);
	}

	@Test
	void unknownControllerNameFailsNamingTheControllers() {
		Controller.builder(this.manager, V1Secret.class).complete((request) -> Result.done());
		assertThatIllegalArgumentException().isThrownBy(() -> this.enqueuer.enqueue("secrets", Request.of("ns", "a")))
			.withMessage("No controller named 'secrets'; the controllers are [secret]");
	}

	@Test
	void requestsForAControllerThatDoesNotRunAreDropped() {
		Controller secrets = Controller.builder(this.manager, V1Secret.class).complete((request) -> Result.done());
		assertThat(secrets.enqueue(Request.of("ns", "a"))).isFalse();
		assertThat(secrets.queueDepth()).isZero();
	}

	@Test
	void secondControllerOfTheSameNameIsRefused() {
		Controller.builder(this.manager, V1Secret.class).complete((request) -> Result.done());
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Controller.builder(this.manager, V1Secret.class).complete((request) -> Result.done()))
			.withMessageStartingWith("A controller named 'secret' already exists");
	}

}
