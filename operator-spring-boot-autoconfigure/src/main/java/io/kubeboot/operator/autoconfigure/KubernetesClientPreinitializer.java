package io.kubeboot.operator.autoconfigure;

import java.util.concurrent.ThreadFactory;
import java.util.function.IntSupplier;

import io.kubernetes.client.openapi.ApiClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationStartingEvent;
import org.springframework.context.ApplicationListener;

/**
 * Loads and initialises client-java's classes on a thread of its own as soon as the
 * application starts, while Spring Boot parses its configuration classes on the other
 * core. Creating the first {@link ApiClient} costs most of a second of one CPU: its JSON
 * support registers a type adapter for each of the several hundred model classes. Done
 * here, the auto-configured client is built from initialised classes; a main thread that
 * gets there first waits for the class initialisation in progress instead of repeating
 * it.
 * <p>
 * Like Spring Boot's own background pre-initialisation, this does nothing on a single
 * CPU, where it would only compete with the main thread, or with the system property
 * {@code spring.backgroundpreinitializer.ignore=true}.
 */
class KubernetesClientPreinitializer implements ApplicationListener<ApplicationStartingEvent> {

	/** The system property that turns Spring Boot's background pre-initialisation off. */
	static final String IGNORE_PROPERTY = "spring.backgroundpreinitializer.ignore";

	private static final Logger logger = LoggerFactory.getLogger(KubernetesClientPreinitializer.class);

	private final IntSupplier processors;

	private final ThreadFactory threads;

	KubernetesClientPreinitializer() {
		this(Runtime.getRuntime()::availableProcessors, (task) -> {
			Thread thread = new Thread(task, "operator-preinit");
			thread.setDaemon(true);
			return thread;
		});
	}

	KubernetesClientPreinitializer(IntSupplier processors, ThreadFactory threads) {
		this.processors = processors;
		this.threads = threads;
	}

	@Override
	public void onApplicationEvent(ApplicationStartingEvent event) {
		if (Boolean.getBoolean(IGNORE_PROPERTY) || this.processors.getAsInt() <= 1) {
			return;
		}
		this.threads.newThread(KubernetesClientPreinitializer::initialize).start();
	}

	/**
	 * Creates a client that is thrown away: its classes stay initialised. Once they are,
	 * another call costs a few milliseconds.
	 */
	static void initialize() {
		try {
			new ApiClient();
		}
		catch (Throwable ex) {
			// the auto-configuration creates its client anyway and reports what fails
			logger.debug("Pre-initialising client-java failed", ex);
		}
	}

}
