package io.kubeboot.operator.benchmarks.josdk;

import java.net.InetAddress;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;

import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.kubeboot.operator.benchmarks.child.ChildSettings;
import io.kubeboot.operator.benchmarks.child.Probe;
import io.kubeboot.operator.benchmarks.child.Workload;

/**
 * The same controller on the Java Operator SDK (JOSDK 5, {@code operator-framework}) and
 * the fabric8 client it creates by default, configured like the others: 4 reconcile
 * threads, the given namespace only, generation-aware (an update that leaves
 * {@code metadata.generation} unchanged, such as the echo of a status write, is not
 * reconciled: JOSDK's default, like the starter's {@code GenerationChangedPredicate}), a
 * reconcile at the latest every 10 hours (JOSDK's default, like the others' resync
 * period), server-side apply off. With leader election, the Lease and its timings of the
 * settings, and JOSDK's defaults otherwise: it does not give the Lease up when it stops,
 * and exits when it stops leading.
 */
public final class JosdkOperatorMain {

	private JosdkOperatorMain() {
	}

	public static void main(String[] args) {
		try {
			run();
		}
		catch (Throwable ex) {
			ex.printStackTrace();
			System.exit(1);
		}
	}

	private static void run() throws Exception {
		ChildSettings settings = ChildSettings.fromEnvironment();
		Probe probe = Probe.start(settings);
		String identity = InetAddress.getLocalHost().getHostName() + "_" + UUID.randomUUID();
		Operator operator = new Operator((overrider) -> {
			overrider.withConcurrentReconciliationThreads(Workload.WORKERS).withUseSSAToPatchPrimaryResource(false);
			if (settings.leaderElection()) {
				// an identity of its own: JOSDK's default is $HOSTNAME, the same for
				// every process on this machine
				overrider.withLeaderElectionConfiguration(new LeaderElectionConfiguration(settings.leaseName(),
						settings.namespace(), settings.leaseDuration(), settings.renewDeadline(),
						settings.retryPeriod(), identity, null, true));
			}
		});
		operator.register(new WidgetReconciler(new Workload(probe)),
				(configuration) -> configuration.withName("widget")
					.settingNamespace(settings.namespace())
					.withGenerationAware(true)
					.withReconciliationMaxInterval(Duration.ofHours(10)));
		CountDownLatch stopped = new CountDownLatch(1);
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			operator.stop();
			stopped.countDown();
		}, "josdk-stop"));
		// returns when the informer has synced; without leader election it reconciles
		// from then on, with it once it leads
		operator.start();
		probe.ready();
		stopped.await();
	}

}
