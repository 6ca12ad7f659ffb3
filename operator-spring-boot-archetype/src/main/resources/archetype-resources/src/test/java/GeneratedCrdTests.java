package ${package};

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

import ${package}.v1alpha1.${kind};
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.fail;

/**
 * {@code deploy/crd.yaml} is the CRD that the build generates from the model in
 * {@code v1alpha1} (operator-crd-generator, on the compiler's processor path): a change
 * to the model that is not copied to {@code deploy/} fails the build, with the lines that
 * differ and the command that copies it.
 */
class GeneratedCrdTests {

	static final Path GENERATED = Path.of("target", "classes", "META-INF", "kubeboot", "crds",
			${kind}.PLURAL + "." + ${kind}.GROUP + ".yaml");

	static final Path CHECKED_IN = Path.of("deploy", "crd.yaml");

	@Test
	void deployHoldsTheGeneratedCrd() throws IOException {
		if (!Files.exists(GENERATED)) {
			fail("%s is missing: operator-crd-generator writes it when the model compiles (mvn compile)", GENERATED);
		}
		if (Boolean.getBoolean("crd.update")) {
			Files.copy(GENERATED, CHECKED_IN, StandardCopyOption.REPLACE_EXISTING);
		}
		List<String> generated = Files.readAllLines(GENERATED, StandardCharsets.UTF_8);
		List<String> checkedIn = Files.readAllLines(CHECKED_IN, StandardCharsets.UTF_8);
		if (!generated.equals(checkedIn)) {
			fail("%s differs from the CRD generated from the model (- %s, + generated):%n%s%n"
					+ "Copy the generated one: cp %s %s (after mvn compile), or run mvn test -Dcrd.update=true",
					CHECKED_IN, CHECKED_IN, LineDiff.of(checkedIn, generated), GENERATED, CHECKED_IN);
		}
	}

}
