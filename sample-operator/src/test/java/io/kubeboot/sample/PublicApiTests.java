package io.kubeboot.sample;

import io.kubeboot.operator.test.PublicApi;
import org.junit.jupiter.api.Test;

class PublicApiTests {

	@Test
	void sampleUsesOnlyThePublicApi() {
		PublicApi.assertUsedOnlyBy("io.kubeboot.sample");
	}

}
