package io.kubeboot.operator.manager;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.kubeboot.operator.cache.ObjectBudgets;
import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.config.InvalidConfigException.Violation;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ManagerConfigTests {

	@Test
	void aManagerBuiltWithoutSettingsHasTheDefaults() {
		Manager manager = Manager.builder(new ApiClient()).build();
		assertThat(manager.gracefulShutdownTimeout()).isEqualTo(ManagerConfig.DEFAULT.gracefulShutdownTimeout());
		assertThat(manager.watchSilenceThreshold()).isEqualTo(ManagerConfig.DEFAULT.watchSilenceThreshold());
		assertThat(manager.watchFailureThreshold()).isEqualTo(ManagerConfig.DEFAULT.watchFailureThreshold());
		assertThat(manager.listPageSize()).isEqualTo(ManagerConfig.DEFAULT.listPageSize());
		assertThat(manager.controllerDefaults().maxConcurrentReconciles())
			.isEqualTo(ControllerConfig.DEFAULT.maxConcurrentReconciles());
		assertThat(manager.clientTimeout()).isEqualTo(Duration.ofSeconds(30));
	}

	@Test
	void buildNamesEveryValueAtFault() {
		ManagerBuilder builder = Manager.builder(new ApiClient())
			.syncPeriod(Duration.ofSeconds(-1))
			.watchTimeout(Duration.ofMinutes(5))
			.watchSilenceThreshold(Duration.ofMinutes(5))
			.listPageSize(0)
			.namespace("Team_A")
			.clientRateLimit(-1, 0)
			.maxConcurrentReconciles(0);
		assertThatExceptionOfType(InvalidConfigException.class).isThrownBy(builder::build)
			.satisfies((ex) -> assertThat(ex.violations()).extracting(Violation::setting)
				.containsExactly("syncPeriod", "watchSilenceThreshold", "listPageSize", "namespaces[0]", "qps", "burst",
						"maxConcurrentReconciles"))
			.withMessageContaining("watchSilenceThreshold (PT5M) must be longer than watchTimeout (PT5M)");
	}

	@Test
	void aNamespaceOfTheSetThatIsNoNamespaceNameIsNamedByItsPosition() {
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> Manager.builder(new ApiClient()).namespaces(List.of("shop", " ", "Team_A")).build())
			.satisfies((ex) -> assertThat(ex.violations()).extracting(Violation::setting)
				.containsExactly("namespaces[1]", "namespaces[2]"));
	}

	@Test
	void theSameNamespaceTwiceIsWatchedOnce() {
		Manager manager = Manager.builder(new ApiClient()).namespaces(List.of("shop", "ops", "shop")).build();
		assertThat(manager.namespaces().current()).containsExactly("ops", "shop");
		assertThat(manager.namespaces().watchesAll()).isFalse();
		assertThat(Manager.builder(new ApiClient()).namespace(" ").build().namespaces().watchesAll()).isTrue();
	}

	@Test
	void aWatchMustLastAtLeastTwoSeconds() {
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> Manager.builder(new ApiClient()).watchTimeout(Duration.ofSeconds(1)).build())
			.withMessage("watchTimeout (PT1S) must be at least 2s");
	}

	@Test
	void aManagerWithABudgetOfAKindNoInformerCachesFailsToStartBeforeCallingTheApiServer() {
		Manager manager = Manager.builder(new ApiClient().setBasePath("https://127.0.0.1:1"))
			.objectBudgets(new ObjectBudgets(0, Map.of("secrets", 10)))
			.build();
		manager.cache().informer(V1Secret.class, null, null);
		assertThatExceptionOfType(InvalidConfigException.class).isThrownBy(manager::start)
			.withMessageStartingWith("perKind.secrets (10) names no kind an informer caches (Secret)");
		assertThat(manager.state()).isNotEqualTo(ManagerState.RUNNING);
	}

	@Test
	void theHealthOfAManagerTakesItsWatchFailureThreshold() {
		Manager manager = Manager.builder(new ApiClient()).watchFailureThreshold(Duration.ofSeconds(3)).build();
		assertThat(manager.watchFailureThreshold()).isEqualTo(Duration.ofSeconds(3));
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> new ManagerHealth(manager, Duration.ofSeconds(-1)))
			.withMessage("watchFailureThreshold (PT-1S) must not be negative");
	}

}
