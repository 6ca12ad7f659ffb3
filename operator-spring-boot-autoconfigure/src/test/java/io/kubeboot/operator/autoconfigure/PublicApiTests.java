package io.kubeboot.operator.autoconfigure;

import io.kubeboot.operator.test.PublicApi;
import org.junit.jupiter.api.Test;

/**
 * The wiring may use the core's internal packages; its tests, like a user's, may not.
 */
class PublicApiTests {

	@Test
	void testsUseOnlyThePublicApi() {
		PublicApi.assertUsedOnlyByTestsIn("io.kubeboot.operator");
	}

}
