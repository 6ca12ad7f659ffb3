package io.kubeboot.operator.cache;

import java.util.LinkedHashMap;
import java.util.Map;

import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.config.InvalidConfigException.Violation;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link ObjectBudgets}: a budget per informer, overridden by kind, and every
 * value at fault named at once.
 */
class ObjectBudgetsTests {

	@Test
	void byDefaultNoInformerHasABudget() {
		assertThat(ObjectBudgets.NONE.of(new InformerKey(V1Secret.class, null, null))).isZero();
	}

	@Test
	void aKindsBudgetOverridesTheBudgetPerInformerWhateverItsCase() {
		ObjectBudgets budgets = new ObjectBudgets(10_000, Map.of("secret", 500, "Event", 0));
		assertThat(budgets.of(new InformerKey(V1Secret.class, "shop", null))).isEqualTo(500);
		assertThat(budgets.of(new InformerKey(V1Secret.class, null, "app=web", true))).isEqualTo(500);
		assertThat(budgets.of(new InformerKey(V1ConfigMap.class, null, null))).isEqualTo(10_000);
		// a kind may have no budget while every other has one
		assertThat(budgets.of(new InformerKey(CoreV1Event.class, null, null))).isZero();
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
