package io.kubeboot.operator.deploy;

import io.kubeboot.operator.test.PublicApi;
import org.junit.jupiter.api.Test;

/**
 * The generator may use the core's internal packages, as the wiring does; its tests, like
 * a user's, may not.
 */
class PublicApiTests {

	@Test
	void testsUseOnlyThePublicApi() {
		PublicApi.assertUsedOnlyByTestsIn("io.kubeboot.operator.deploy");
	}

}
