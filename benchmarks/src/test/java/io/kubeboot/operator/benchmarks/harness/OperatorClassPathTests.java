package io.kubeboot.operator.benchmarks.harness;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class OperatorClassPathTests {

	@Test
	void classesBecomeTheModulesJarAndTestClassesAndPomsAreLeftOut(@TempDir Path directory) throws Exception {
		Path target = Files.createDirectories(directory.resolve("module").resolve("target"));
		Path classes = Files.createDirectories(target.resolve("classes"));
		Files.writeString(classes.resolve("A.class"), "x");
		Path testClasses = Files.createDirectories(target.resolve("test-classes"));
		Files.writeString(testClasses.resolve("ATests.class"), "x");
		Path jar = Files.writeString(target.resolve("module-1.0.jar"), "x");
		Files.writeString(target.resolve("module-1.0-sources.jar"), "x");
		Path pom = Files.writeString(directory.resolve("pom.xml"), "x");
		Path library = Files.writeString(directory.resolve("library-2.0.jar"), "x");
		OperatorClassPath classPath = OperatorClassPath.of(String.join(File.pathSeparator, testClasses.toString(),
				classes.toString(), pom.toString(), library.toString()));
		assertThat(classPath.jarsOnly()).isTrue();
		assertThat(classPath.classPath()).isEqualTo(jar + File.pathSeparator + library);
	}

	@Test
	void aModuleWithoutItsJarKeepsTheHarnessesClassPathAndSaysWhy(@TempDir Path directory) throws Exception {
		Path classes = Files.createDirectories(directory.resolve("module").resolve("target").resolve("classes"));
		Files.writeString(classes.resolve("A.class"), "x");
		OperatorClassPath classPath = OperatorClassPath.of(classes.toString());
		assertThat(classPath.jarsOnly()).isFalse();
		assertThat(classPath.classPath()).isEqualTo(classes.toString());
		assertThat(classPath.problem()).contains(classes.toString(), "has 0 jars", "mvn -pl benchmarks -am package");
		assertThat(AotCache.unavailable(classPath))
			.startsWith("a class-data archive needs a class path of jar files only");
	}

	@Test
	void aClassPathOfJarsTakesAnArchive() {
		assertThat(AotCache.unavailable(new OperatorClassPath("a.jar", true, null))).isNull();
	}

	@Test
	void springAotSitsBesideSpringInTheTables() {
		assertThat(Report.columnOrder(List.of(Implementation.BASELINE, Implementation.SPRING, Implementation.MANAGER,
				Implementation.SPRING_AOT)))
			.containsExactly(Implementation.BASELINE, Implementation.SPRING, Implementation.SPRING_AOT,
					Implementation.MANAGER);
	}

}
