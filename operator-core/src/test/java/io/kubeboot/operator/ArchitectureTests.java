package io.kubeboot.operator;

import java.net.URL;
import java.util.ArrayList;
import java.util.List;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.tracing.TraceContextAnnotation;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.codeUnits;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMethods;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rules that keep the core a Spring-free library with controller-runtime's package
 * map: they fail the build when broken.
 */
class ArchitectureTests {

	private static JavaClasses core;

	@BeforeAll
	static void importCore() {
		// the core's own classes only, wherever the build put them (directory or jar)
		URL coreClasses = Manager.class.getProtectionDomain().getCodeSource().getLocation();
		core = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.importUrl(coreClasses);
	}

	@Test
	void theCoreIsImported() {
		assertThat(core.containPackage("io.kubeboot.operator.manager")).isTrue();
		assertThat(core.containPackage("io.kubeboot.operator.test")).isFalse();
	}

	@Test
	void coreDependsOnNoSpringClass() {
		ArchRule rule = noClasses().should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.springframework..")
			.because("the core is the Spring-free API and runtime; Spring wiring belongs in "
					+ "operator-spring-boot-autoconfigure");
		rule.check(core);
	}

	@Test
	void conceptPackagesFormNoCycle() {
		// a concept and its internal package are one slice: reconcile, manager,
		// controller, source, handler, cache, client, ...
		ArchRule rule = slices().matching("io.kubeboot.operator.(*)..")
			.should()
			.beFreeOfCycles()
			.because("one change should read as one path through the packages (see ARCHITECTURE.md)");
		rule.check(core);
	}

	@Test
	void theControllerPackageKnowsNothingOfSharding() {
		ArchRule rule = noClasses().that()
			.resideInAPackage("io.kubeboot.operator.controller..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("io.kubeboot.operator.sharding..")
			.because("sharding plugs into the controller through its WorkGate, never the reverse");
		rule.check(core);
	}

	@Test
	void theReconcileLoopUsesNoOtherConceptsInternals() {
		ArchRule rule = noClasses().that()
			.haveFullyQualifiedName(Controller.class.getName())
			.should()
			.dependOnClassesThat()
			.resideInAPackage("..internal..")
			.because("the reconcile loop reads as the plain loop; what gates it plugs in through WorkGate");
		rule.check(core);
	}

	@Test
	void internalPackagesAreUsedOnlyByTheCore() {
		ArchRule rule = classes().that()
			.resideInAPackage("..internal..")
			.should()
			.onlyBeAccessed()
			.byClassesThat()
			.resideInAPackage("io.kubeboot.operator..");
		rule.check(core);
	}

	/**
	 * An API method that takes or returns an internal type makes that type part of the
	 * API in all but name.
	 */
	@Test
	void thePublicApiShowsNoInternalType() {
		ArchRule rule = codeUnits().that()
			.arePublic()
			.and()
			.areDeclaredInClassesThat()
			.arePublic()
			.and()
			.areDeclaredInClassesThat()
			.resideOutsideOfPackage("..internal..")
			.should(new ArchCondition<JavaCodeUnit>("take or return no type of an internal package") {

				@Override
				public void check(JavaCodeUnit codeUnit, ConditionEvents events) {
					List<JavaClass> types = new ArrayList<>(codeUnit.getRawParameterTypes());
					types.add(codeUnit.getRawReturnType());
					for (JavaClass type : types) {
						if (type.getPackageName().contains(".internal")) {
							events.add(SimpleConditionEvent.violated(codeUnit,
									codeUnit.getFullName() + " shows the internal type " + type.getName()));
						}
					}
				}

			});
		rule.check(core);
	}

	/**
	 * Java imports drop the package: a public type named like one an operator's
	 * application imports from its tracer, or like another concept of the operator, reads
	 * as that type.
	 */
	@Test
	void noPublicTypeIsNamedLikeATypeOfATracerOrASource() {
		ArchRule rule = noClasses().that()
			.arePublic()
			.should()
			.haveNameMatching(".*[.$](Tracing|Tracer|Span|Observation|Trigger)")
			.because("Brave's Tracing, Micrometer's and OpenTelemetry's Tracer, Span and Observation are imported "
					+ "beside the operator's types, and a trigger is a source of requests here (IntervalTrigger, "
					+ "@PeriodicTrigger)");
		rule.check(core);
	}

	/**
	 * The tracing API is the SPI and the annotation's name: how a controller reads the
	 * annotation is the core's own business.
	 */
	@Test
	void theTracingPackageShowsOnlyTheSpiAndTheAnnotationsName() {
		ArchRule rule = noMethods().that()
			.areDeclaredIn(TraceContextAnnotation.class)
			.should()
			.bePublic()
			.because("TraceContextAnnotation holds the annotation's name, not helpers");
		rule.allowEmptyShould(true).check(core);
	}

	@Test
	void everyClassSitsInAConceptPackage() {
		ArchRule rule = classes().should()
			.resideInAnyPackage("io.kubeboot.operator.reconcile..", "io.kubeboot.operator.manager..",
					"io.kubeboot.operator.controller..", "io.kubeboot.operator.source..",
					"io.kubeboot.operator.handler..", "io.kubeboot.operator.predicate..",
					"io.kubeboot.operator.client..", "io.kubeboot.operator.cache..", "io.kubeboot.operator.workqueue..",
					"io.kubeboot.operator.leaderelection..", "io.kubeboot.operator.events..",
					"io.kubeboot.operator.healthz..", "io.kubeboot.operator.metrics..", "io.kubeboot.operator.model..",
					"io.kubeboot.operator.micrometer..", "io.kubeboot.operator.webhook..",
					"io.kubeboot.operator.rbac..", "io.kubeboot.operator.sharding..", "io.kubeboot.operator.config..",
					"io.kubeboot.operator.tracing..", "io.kubeboot.operator.cluster..")
			.because("the package map of ARCHITECTURE.md is the architecture");
		rule.check(core);
	}

}
