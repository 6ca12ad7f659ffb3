package io.kubeboot.operator.benchmarks.spring;

import java.util.ArrayList;
import java.util.List;

import io.kubeboot.operator.benchmarks.child.ChildSettings;
import io.kubeboot.operator.benchmarks.child.ClientStatusPatch;
import io.kubeboot.operator.benchmarks.child.Probe;
import io.kubeboot.operator.benchmarks.child.WidgetWorkload;
import io.kubeboot.operator.client.Client;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.core.metrics.jfr.FlightRecorderApplicationStartup;

/**
 * "Ours": a minimal Spring Boot application on the starter with one
 * {@code @Reconciles(Widget.class)} ({@link WidgetReconciler}). The harness configures it
 * through {@code operator.*} properties derived from {@link ChildSettings}, as an
 * {@code application.yaml} would.
 */
@SpringBootApplication
public class SpringOperatorApplication {

	/**
	 * The system property the harness sets when it records a JFR profile of the process.
	 */
	public static final String JFR_PROPERTY = "benchmark.jfr";

	public static void main(String[] args) {
		try {
			List<String> arguments = new ArrayList<>(List.of(args));
			// unset where Spring AOT processes the application at build time, which then
			// sees the defaults, as a user's build sees application.yaml's values
			if (System.getenv(ChildSettings.NAMESPACE) != null) {
				arguments.addAll(operatorProperties(ChildSettings.fromEnvironment()));
			}
			SpringApplication application = new SpringApplication(SpringOperatorApplication.class);
			if (Boolean.getBoolean(JFR_PROPERTY)) {
				// the start-up steps (each bean's instantiation, each configuration
				// class's processing) as JFR events beside the profile
				application.setApplicationStartup(new FlightRecorderApplicationStartup());
			}
			application.run(arguments.toArray(String[]::new));
		}
		catch (SpringApplication.AbandonedRunException ex) {
			// how Spring AOT's processing at build time ends the run
			throw ex;
		}
		catch (Throwable ex) {
			ex.printStackTrace();
			System.exit(1);
		}
	}

	static List<String> operatorProperties(ChildSettings settings) {
		List<String> properties = new ArrayList<>();
		properties.add("--operator.namespace=" + settings.namespace());
		if (!settings.priorityQueue()) {
			properties.add("--operator.controller.priority-queue=false");
		}
		if (settings.leaderElection()) {
			properties.add("--operator.leader-election.enabled=true");
			properties.add("--operator.leader-election.namespace=" + settings.namespace());
			properties.add("--operator.leader-election.lease-name=" + settings.leaseName());
			properties.add("--operator.leader-election.lease-duration=" + settings.leaseDuration().toMillis() + "ms");
			properties.add("--operator.leader-election.renew-deadline=" + settings.renewDeadline().toMillis() + "ms");
			properties.add("--operator.leader-election.retry-period=" + settings.retryPeriod().toMillis() + "ms");
		}
		if (settings.identity() != null) {
			properties.add("--operator.leader-election.identity=" + settings.identity());
		}
		if (settings.sharding() != null) {
			properties.add("--operator.sharding.enabled=true");
			properties.add("--operator.sharding.mode=" + settings.sharding());
			properties.add("--operator.sharding.ring=benchmark");
			properties.add("--operator.sharding.namespace=" + settings.namespace());
		}
		return properties;
	}

	@Bean
	Probe probe() {
		return Probe.start(ChildSettings.fromEnvironment());
	}

	@Bean
	WidgetWorkload widgetWorkload(Probe probe, Client client) {
		return new WidgetWorkload(probe, new ClientStatusPatch(client));
	}

	@Bean
	ApplicationListener<ApplicationReadyEvent> probeReady(Probe probe) {
		return (event) -> probe.ready();
	}

}
