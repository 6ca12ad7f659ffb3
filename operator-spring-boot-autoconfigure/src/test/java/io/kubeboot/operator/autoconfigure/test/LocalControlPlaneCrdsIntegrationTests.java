package io.kubeboot.operator.autoconfigure.test;

import java.nio.file.Files;
import java.nio.file.Path;

import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.ControlPlaneException;
import io.kubeboot.operator.test.WithControlPlane;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * How {@code operator.local-control-plane.crd-locations} is read: patterns may match
 * nothing, {@code optional:} locations may be missing, other missing locations fail
 * naming the property, as do blank locations and unknown keys, a file matched twice is
 * applied once, and a file holding anything but CRDs fails naming the file.
 */
@WithControlPlane
class LocalControlPlaneCrdsIntegrationTests {

	private static final String PROPERTY = "operator.local-control-plane.crd-locations";

	@TempDir
	Path directory;

	@Test
	void appliesEveryLocationOnce(ControlPlane controlPlane) {
		MockEnvironment environment = new MockEnvironment().withProperty(PROPERTY,
				"classpath:devloop/gadgets-crd.yaml,classpath*:devloop/*.yaml,classpath*:no/such/*.yaml,"
						+ "optional:file:no/such/crd.yaml");

		assertThat(LocalControlPlaneCrds.apply(controlPlane, environment, new DefaultResourceLoader(), true))
			.containsExactly("gadgets.devloop.test.kubeboot.io");
	}

	@Test
	void byDefaultTheGeneratedCrdsOfTheClassPathOfWhichTheseTestsHaveNone(ControlPlane controlPlane) {
		assertThat(LocalControlPlaneCrds.apply(controlPlane, new MockEnvironment(), new DefaultResourceLoader(), true))
			.isEmpty();
	}

	@Test
	void aMissingLocationFailsNamingTheProperty(ControlPlane controlPlane) {
		MockEnvironment environment = new MockEnvironment().withProperty(PROPERTY, "file:no/such/crd.yaml");

		assertThatIllegalStateException()
			.isThrownBy(() -> LocalControlPlaneCrds.apply(controlPlane, environment, new DefaultResourceLoader(), true))
			.withMessageStartingWith("operator.local-control-plane.crd-locations names 'file:no/such/crd.yaml', "
					+ "which does not exist (" + Path.of("no/such/crd.yaml").toAbsolutePath())
			.withMessageEndingWith("); fix the location, or prefix it with optional: if it may be missing");
	}

	@Test
	void aBlankLocationFailsNamingTheProperty(ControlPlane controlPlane) {
		MockEnvironment environment = new MockEnvironment().withProperty(PROPERTY + "[0]", "file:deploy/crd.yaml")
			.withProperty(PROPERTY + "[1]", " ");

		assertThatIllegalStateException()
			.isThrownBy(() -> LocalControlPlaneCrds.apply(controlPlane, environment, new DefaultResourceLoader(), true))
			.withMessage("operator.local-control-plane.crd-locations[1] is blank: name a location such as "
					+ "file:deploy/crd.yaml, or remove the entry");
	}

	@Test
	void anUnknownKeyFailsNamingIt(ControlPlane controlPlane) {
		MockEnvironment environment = new MockEnvironment().withProperty("operator.local-control-plane.crd-location",
				"file:deploy/crd.yaml");

		assertThatExceptionOfType(BindException.class)
			.isThrownBy(() -> LocalControlPlaneCrds.apply(controlPlane, environment, new DefaultResourceLoader(), true))
			.withStackTraceContaining("operator.local-control-plane.crd-location");
	}

	@Test
	void aFileHoldingAnythingButCrdsFailsNamingIt(ControlPlane controlPlane) throws Exception {
		Path file = Files.writeString(this.directory.resolve("all.yaml"), """
				apiVersion: v1
				kind: ConfigMap
				metadata:
				  name: not-a-crd
				""");
		MockEnvironment environment = new MockEnvironment().withProperty(PROPERTY, file.toUri().toString());

		assertThatExceptionOfType(ControlPlaneException.class)
			.isThrownBy(() -> LocalControlPlaneCrds.apply(controlPlane, environment, new DefaultResourceLoader(), true))
			.withMessage(file.toRealPath() + ": document 1 is a ConfigMap (v1), not a CustomResourceDefinition "
					+ "(apiextensions.k8s.io/v1); only CRDs are applied from it");
	}

}
