package io.kubeboot.operator.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.bootstrap.DefaultBootstrapContext;
import org.springframework.boot.context.event.ApplicationStartingEvent;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When {@link KubernetesClientPreinitializer} starts its thread.
 */
class KubernetesClientPreinitializerTests {

	private final List<Thread> started = new ArrayList<>();

	private final ThreadFactory threads = (task) -> {
		Thread thread = new Thread(task, "operator-preinit-test");
		this.started.add(thread);
		return thread;
	};

	@AfterEach
	void clearProperty() throws InterruptedException {
		System.clearProperty(KubernetesClientPreinitializer.IGNORE_PROPERTY);
		for (Thread thread : this.started) {
			thread.join();
		}
	}

	@Test
	void startsOneThreadWhenTheApplicationStartsOnSeveralCpus() {
		new KubernetesClientPreinitializer(() -> 2, this.threads).onApplicationEvent(starting());
		assertThat(this.started).hasSize(1);
	}

	@Test
	void doesNothingOnOneCpu() {
		new KubernetesClientPreinitializer(() -> 1, this.threads).onApplicationEvent(starting());
		assertThat(this.started).isEmpty();
	}

	@Test
	void doesNothingWhenSpringBootsBackgroundPreinitializationIsTurnedOff() {
		System.setProperty(KubernetesClientPreinitializer.IGNORE_PROPERTY, "true");
		new KubernetesClientPreinitializer(() -> 2, this.threads).onApplicationEvent(starting());
		assertThat(this.started).isEmpty();
	}

	@Test
	void isRegisteredAsAnApplicationListener() {
		assertThat(new SpringApplication().getListeners())
			.hasAtLeastOneElementOfType(KubernetesClientPreinitializer.class);
	}

	private static ApplicationStartingEvent starting() {
		return new ApplicationStartingEvent(new DefaultBootstrapContext(), new SpringApplication(), new String[0]);
	}

}
