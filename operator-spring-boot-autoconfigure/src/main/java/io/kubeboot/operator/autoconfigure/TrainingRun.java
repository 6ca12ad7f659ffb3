package io.kubeboot.operator.autoconfigure;

import org.springframework.context.support.DefaultLifecycleProcessor;
import org.springframework.core.SpringProperties;

/**
 * Whether this JVM is the training run of an AOT cache (JDK 25's
 * {@code -XX:AOTCacheOutput}) or a CDS archive: started with
 * {@code -Dspring.context.exit=onRefresh}, it refreshes the application context and halts
 * before any lifecycle starts, so the manager never connects. Such a run happens while an
 * image is built, where there is no cluster, no kubeconfig and no mounted webhook
 * certificate; the auto-configuration then stands in for what it would read.
 */
final class TrainingRun {

	private TrainingRun() {
	}

	/**
	 * Tells whether this JVM exits once its context is refreshed, as Spring Framework's
	 * lifecycle processor reads it.
	 * @return whether this is a training run
	 */
	static boolean isActive() {
		return DefaultLifecycleProcessor.ON_REFRESH_VALUE
			.equalsIgnoreCase(SpringProperties.getProperty(DefaultLifecycleProcessor.EXIT_PROPERTY_NAME));
	}

}
