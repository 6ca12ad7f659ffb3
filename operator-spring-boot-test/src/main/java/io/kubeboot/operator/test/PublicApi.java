package io.kubeboot.operator.test;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * Checks that code built on the operator framework uses only its public API: no class may
 * depend on a package named {@code internal} of {@code io.kubeboot.operator}, which may
 * change in any release. Call it from a test of your own:
 *
 * <pre class="code">
 * &#64;Test
 * void operatorUsesOnlyThePublicApi() {
 *     PublicApi.assertUsedOnlyBy("com.example.operator");
 * }
 * </pre>
 */
public final class PublicApi {

	private PublicApi() {
	}

	/**
	 * Asserts that the compiled classes of the given packages (main and test classes
	 * found on the class path outside jars) depend on no internal package of the
	 * framework.
	 * @param packages the packages to check, with their sub-packages
	 * @throws AssertionError naming every class and the internal type it uses
	 */
	public static void assertUsedOnlyBy(String... packages) {
		check(new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS), packages);
	}

	/**
	 * Asserts that the compiled test classes of the given packages depend on no internal
	 * package of the framework, for a module whose main classes may (the framework's own
	 * wiring).
	 * @param packages the packages to check, with their sub-packages
	 * @throws AssertionError naming every class and the internal type it uses
	 */
	public static void assertUsedOnlyByTestsIn(String... packages) {
		check(new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
			.withImportOption(ImportOption.Predefined.ONLY_INCLUDE_TESTS), packages);
	}

	private static void check(ClassFileImporter importer, String... packages) {
		JavaClasses classes = importer.importPackages(packages);
		if (classes.isEmpty()) {
			throw new AssertionError("No classes found in " + String.join(", ", packages) + " to check");
		}
		ArchRule rule = noClasses().should()
			.dependOnClassesThat()
			.resideInAPackage("io.kubeboot.operator..internal..")
			.because("packages named 'internal' are not an API and may change in any release");
		rule.check(classes);
	}

}
