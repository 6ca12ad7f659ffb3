package io.kubeboot.operator.client.internal;

import java.util.List;

import io.kubernetes.client.openapi.models.V1ResourceAttributes;
import io.kubernetes.client.openapi.models.V1ResourceRule;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AccessReviewsTests {

	private static final V1ResourceAttributes LIST_WIDGETS = new V1ResourceAttributes().verb("list")
		.group("bench.kubeboot.io")
		.resource("widgets");

	private static final V1ResourceAttributes PATCH_STATUS = new V1ResourceAttributes().verb("patch")
		.group("bench.kubeboot.io")
		.resource("widgets")
		.subresource("status");

	@Test
	void aRuleAllowsWhatItNamesOrStars() {
		assertThat(AccessReviews.allows(rule(List.of("get", "list"), "bench.kubeboot.io", List.of("widgets")),
				LIST_WIDGETS))
			.isTrue();
		assertThat(AccessReviews.allows(rule(List.of("*"), "*", List.of("*")), PATCH_STATUS)).isTrue();
		assertThat(AccessReviews.allows(rule(List.of("watch"), "bench.kubeboot.io", List.of("widgets")), LIST_WIDGETS))
			.isFalse();
		assertThat(AccessReviews.allows(rule(List.of("list"), "", List.of("widgets")), LIST_WIDGETS)).isFalse();
	}

	@Test
	void aSubresourceIsNamedWithItsResourceOrStarredAlone() {
		assertThat(AccessReviews.allows(rule(List.of("patch"), "bench.kubeboot.io", List.of("widgets")), PATCH_STATUS))
			.isFalse();
		assertThat(AccessReviews.allows(rule(List.of("patch"), "bench.kubeboot.io", List.of("widgets/status")),
				PATCH_STATUS))
			.isTrue();
		assertThat(AccessReviews.allows(rule(List.of("patch"), "bench.kubeboot.io", List.of("*/status")), PATCH_STATUS))
			.isTrue();
		assertThat(AccessReviews.allows(rule(List.of("list"), "bench.kubeboot.io", List.of("*/status")), LIST_WIDGETS))
			.isFalse();
	}

	@Test
	void namesLimitARuleToRequestsForThem() {
		V1ResourceRule named = rule(List.of("get"), "bench.kubeboot.io", List.of("widgets"))
			.resourceNames(List.of("a"));
		V1ResourceAttributes get = new V1ResourceAttributes().verb("get")
			.group("bench.kubeboot.io")
			.resource("widgets");
		assertThat(AccessReviews.allows(named, get)).isFalse();
		assertThat(AccessReviews.allows(named, get.name("a"))).isTrue();
		assertThat(AccessReviews.allows(named,
				new V1ResourceAttributes().verb("get").group("bench.kubeboot.io").resource("widgets").name("b")))
			.isFalse();
	}

	private static V1ResourceRule rule(List<String> verbs, String group, List<String> resources) {
		return new V1ResourceRule().verbs(verbs).apiGroups(List.of(group)).resources(resources);
	}

}
