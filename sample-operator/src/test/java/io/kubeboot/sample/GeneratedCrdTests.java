package io.kubeboot.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * {@code deploy/crd.yaml} is what the build generates from the model in
 * {@code storage.v1alpha1}: a change to the model that is not copied to {@code deploy/}
 * fails the build, with the difference and the command that copies it.
 */
class GeneratedCrdTests {

	static final Path GENERATED = Path
		.of("target/classes/META-INF/kubeboot/crds/storagebuckets.storage.kubeboot.io.yaml");

	static final Path CHECKED_IN = Manifests.DEPLOY.resolve("crd.yaml");

	@Test
	void deployHoldsTheGeneratedCrd() throws IOException {
		if (!Files.exists(GENERATED)) {
			fail("%s is missing: it is written when the model compiles with operator-crd-generator on the annotation "
					+ "processor path (mvn compile)", GENERATED);
		}
		List<String> generated = Files.readAllLines(GENERATED, StandardCharsets.UTF_8);
		List<String> checkedIn = Files.readAllLines(CHECKED_IN, StandardCharsets.UTF_8);
		if (!generated.equals(checkedIn)) {
			fail("sample-operator/deploy/crd.yaml differs from the CRD generated from the model (- deploy, + generated):%n"
					+ "%s%nCopy the generated one after a build (mvn compile is enough):%n"
					+ "  cp sample-operator/%s sample-operator/%s", LineDiff.of(checkedIn, generated), GENERATED,
					CHECKED_IN);
		}
	}

	@Test
	void theDifferenceShowsTheLinesThatDiffer() {
		assertThat(LineDiff.of(List.of("a", "b", "c", "d"), List.of("a", "c", "x", "d")))
			.isEqualTo(String.join(System.lineSeparator(), "   2 - b", "   4 + x"));
	}

}
