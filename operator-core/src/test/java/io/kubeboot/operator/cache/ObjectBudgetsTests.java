package io.kubeboot.operator.cache;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.config.InvalidConfigException.Violation;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link ObjectBudgets}: a budget per informer, overridden by kind and by kind
 * of one API group, every value at fault named at once, and kinds no informer caches.
 */
class ObjectBudgetsTests {

	@Test
	void byDefaultNoInformerHasABudget() {
		assertThat(ObjectBudgets.NONE.budgetOf(new InformerKey(V1Secret.class, null, null))).isZero();
	}

	@Test
	void aKindsBudgetOverridesTheBudgetPerInformerWhateverItsCase() {
		ObjectBudgets budgets = new ObjectBudgets(10_000, Map.of("secret", 500, "Event", 0));
		assertThat(budgets.budgetOf(new InformerKey(V1Secret.class, "shop", null))).isEqualTo(500);
		assertThat(budgets.budgetOf(new InformerKey(V1Secret.class, null, "app=web", true))).isEqualTo(500);
		assertThat(budgets.budgetOf(new InformerKey(V1ConfigMap.class, null, null))).isEqualTo(10_000);
		// a kind may have no budget while every other has one
		assertThat(budgets.budgetOf(new InformerKey(CoreV1Event.class, null, null))).isZero();
	}

	@Test
	void aKindOfOneApiGroupWinsOverTheBareKind() {
		ObjectBudgets budgets = new ObjectBudgets(0, Map.of("Event", 100, "event.events.k8s.io", 50));
		assertThat(budgets.budgetOf(new InformerKey(CoreV1Event.class, null, null))).isEqualTo(100);
		assertThat(budgets.budgetOf(new InformerKey(EventsV1Event.class, null, null))).isEqualTo(50);
		ObjectBudgets bare = new ObjectBudgets(0, Map.of("Event", 100));
		assertThat(bare.budgetOf(new InformerKey(EventsV1Event.class, null, null))).isEqualTo(100);
	}

	@Test
	void kindsThatNoInformerCachesAreNamedWithTheKindsThatAre() {
		Map<String, Integer> perKind = new LinkedHashMap<>();
		perKind.put("secrets", 10);
		perKind.put("Secrte", 20);
		perKind.put("configmap", 30);
		perKind.put("Event.events.k8s.io", 40);
		ObjectBudgets budgets = new ObjectBudgets(0, perKind);
		List<InformerKey> informers = List.of(new InformerKey(V1Secret.class, null, null),
				new InformerKey(V1ConfigMap.class, "shop", null, true), new InformerKey(CoreV1Event.class, null, null));
		assertThatExceptionOfType(InvalidConfigException.class).isThrownBy(() -> budgets.requireKindsOf(informers))
			.satisfies((ex) -> assertThat(ex.violations()).extracting(Violation::setting)
				.containsExactly("perKind.secrets", "perKind.Secrte", "perKind.Event.events.k8s.io"))
			.withMessageContaining("perKind.secrets (10) names no kind an informer caches (ConfigMap, Event, Secret): "
					+ "name a kind as the metrics' kind label does, such as Secret, or as kind.group for one API "
					+ "group's, such as Event.events.k8s.io");
		new ObjectBudgets(0, Map.of("SECRET", 1, "Event", 2)).requireKindsOf(informers);
		ObjectBudgets.NONE.requireKindsOf(List.of());
	}

	@Test
	void negativeBudgetsBlankKindsAndKindsNamedTwiceAreNamedAtOnce() {
		Map<String, Integer> perKind = new LinkedHashMap<>();
		perKind.put("Secret", -1);
		perKind.put(" ", 5);
		perKind.put("ConfigMap", 5);
		perKind.put("configmap", 6);
		assertThatExceptionOfType(InvalidConfigException.class).isThrownBy(() -> new ObjectBudgets(-5, perKind))
			.satisfies((ex) -> assertThat(ex.violations()).extracting(Violation::setting)
				.containsExactly("perInformer", "perKind.Secret", "perKind. ", "perKind.configmap"))
			.withMessageContaining("perInformer (-5) must be at least 0")
			.withMessageContaining("perKind.Secret (-1) must be at least 0")
			.withMessageContaining("perKind.configmap (6) names the same kind, case aside, as perKind.ConfigMap (5)");
	}

}
