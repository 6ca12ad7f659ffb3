package io.kubeboot.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.fail;

/**
 * {@code deploy/policy.yaml} is what the build generates from the
 * {@code @AdmissionPolicy} of {@code StorageBucket}: a change to the model that is not
 * copied to {@code deploy/} fails the build, with the difference and the command that
 * copies it.
 */
class GeneratedPolicyTests {

	static final Path GENERATED = Path
		.of("target/classes/META-INF/kubeboot/policies/storagebuckets.storage.kubeboot.io.yaml");

	static final Path CHECKED_IN = Manifests.DEPLOY.resolve("policy.yaml");

	@Test
	void deployHoldsTheGeneratedPolicy() throws IOException {
		if (!Files.exists(GENERATED)) {
			fail("%s is missing: it is written when the model compiles with operator-crd-generator on the annotation "
					+ "processor path (mvn compile)", GENERATED);
		}
		List<String> generated = Files.readAllLines(GENERATED, StandardCharsets.UTF_8);
		List<String> checkedIn = Files.readAllLines(CHECKED_IN, StandardCharsets.UTF_8);
		if (!generated.equals(checkedIn)) {
			fail("sample-operator/deploy/policy.yaml differs from the policy generated from the model (- deploy, "
					+ "+ generated):%n%s%nCopy the generated one after a build (mvn compile is enough):%n"
					+ "  cp sample-operator/%s sample-operator/%s", LineDiff.of(checkedIn, generated), GENERATED,
					CHECKED_IN);
		}
	}

}
