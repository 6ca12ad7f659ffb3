package io.kubeboot.operator.deploy;

import java.util.List;

import io.kubeboot.operator.deploy.LabelSelectors.Requirement;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Label selectors in Kubernetes' string form, as the match expressions of a webhook's
 * selectors.
 */
class LabelSelectorsTests {

	@Test
	void everyFormBecomesItsMatchExpression() {
		assertThat(LabelSelectors.parse("a=1, b==2,c!=3, d in (x, y),e notin(z),f,!g", "selector")).containsExactly(
				new Requirement("a", "In", List.of("1")), new Requirement("b", "In", List.of("2")),
				new Requirement("c", "NotIn", List.of("3")), new Requirement("d", "In", List.of("x", "y")),
				new Requirement("e", "NotIn", List.of("z")), new Requirement("f", "Exists", List.of()),
				new Requirement("g", "DoesNotExist", List.of()));
		assertThat(LabelSelectors.parse("", "selector")).isEmpty();
	}

	@Test
	void whatIsNoSelectorIsRefusedNamingIt() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LabelSelectors.parse("a in (x", "@Webhook: objectSelector"))
			.withMessage("@Webhook: objectSelector 'a in (x': 'a in (x' is no label key");
		assertThatIllegalArgumentException().isThrownBy(() -> LabelSelectors.parse("a=b c", "namespaceSelector"))
			.withMessage("namespaceSelector 'a=b c': 'b c' is no label value");
	}

}
