package io.kubeboot.operator.benchmarks.harness;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class JosdkClassPathTests {

	private static final String REPOSITORY = "/home/user/.m2/repository/";

	@Test
	void classPathIsTheModulesClassesAndTheListedJars(@TempDir Path target) throws Exception {
		Path list = target.resolve("josdk.classpath");
		String jars = REPOSITORY + "io/javaoperatorsdk/operator-framework-core/5.2.3/operator-framework-core-5.2.3.jar"
				+ File.pathSeparator + REPOSITORY + "io/fabric8/kubernetes-client/7.5.2/kubernetes-client-7.5.2.jar";
		Files.writeString(list, jars + "\n");
		assertThat(JosdkClassPath.get(list)).isEqualTo(target.resolve("classes") + File.pathSeparator + jars);
	}

	@Test
	void describesTheVersionsAndTheHttpClient() {
		String classPath = String.join(File.pathSeparator, "/work/benchmarks-josdk/target/classes",
				"/work/benchmarks-child/target/operator-spring-boot-benchmarks-child-0.1.0-SNAPSHOT.jar",
				REPOSITORY + "io/javaoperatorsdk/operator-framework/5.2.3/operator-framework-5.2.3.jar",
				REPOSITORY + "io/javaoperatorsdk/operator-framework-core/5.2.3/operator-framework-core-5.2.3.jar",
				REPOSITORY + "io/fabric8/kubernetes-client/7.5.2/kubernetes-client-7.5.2.jar",
				REPOSITORY + "io/fabric8/kubernetes-client-api/7.5.2/kubernetes-client-api-7.5.2.jar",
				REPOSITORY + "io/fabric8/kubernetes-httpclient-jdk/7.5.2/kubernetes-httpclient-jdk-7.5.2.jar",
				REPOSITORY + "com/fasterxml/jackson/core/jackson-databind/2.20.0/jackson-databind-2.20.0.jar");
		assertThat(JosdkClassPath.describe(classPath))
			.isEqualTo("operator-framework 5.2.3, fabric8 kubernetes-client 7.5.2, fabric8's HTTP client: jdk");
	}

}
