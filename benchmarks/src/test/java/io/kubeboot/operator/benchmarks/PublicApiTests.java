package io.kubeboot.operator.benchmarks;

import io.kubeboot.operator.test.PublicApi;
import org.junit.jupiter.api.Test;

class PublicApiTests {

	@Test
	void benchmarksUseOnlyThePublicApi() {
		PublicApi.assertUsedOnlyBy("io.kubeboot.operator.benchmarks");
	}

}
