package io.kubeboot.operator.benchmarks.baseline;

import java.net.InetAddress;
import java.time.Duration;
import java.util.UUID;

import io.kubeboot.operator.benchmarks.child.ChildSettings;
import io.kubeboot.operator.benchmarks.child.ClientJavaStatusPatch;
import io.kubeboot.operator.benchmarks.child.Probe;
import io.kubeboot.operator.benchmarks.child.WidgetWorkload;
import io.kubeboot.operator.benchmarks.model.Widget;
import io.kubeboot.operator.benchmarks.model.WidgetList;
import io.kubernetes.client.extended.controller.Controller;
import io.kubernetes.client.extended.controller.ControllerManager;
import io.kubernetes.client.extended.controller.LeaderElectingController;
import io.kubernetes.client.extended.controller.builder.ControllerBuilder;
import io.kubernetes.client.extended.controller.reconciler.Result;
import io.kubernetes.client.extended.leaderelection.LeaderElectionConfig;
import io.kubernetes.client.extended.leaderelection.LeaderElector;
import io.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The baseline: the same controller written on client-java-extended's own
 * {@link ControllerManager}, {@link ControllerBuilder} and (with leader election)
 * {@link LeaderElectingController}, the way its documentation and examples use them.
 */
public final class BaselineOperatorMain {

	private static final Logger logger = LoggerFactory.getLogger(BaselineOperatorMain.class);

	private BaselineOperatorMain() {
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
		ApiClient client = ClientBuilder.standard().build();
		// informers watch with long-running requests: no read timeout
		client.setHttpClient(client.getHttpClient().newBuilder().readTimeout(Duration.ZERO).build());
		WidgetWorkload workload = new WidgetWorkload(probe, new ClientJavaStatusPatch(client));

		SharedInformerFactory factory = new SharedInformerFactory(client);
		GenericKubernetesApi<Widget, WidgetList> api = new GenericKubernetesApi<>(Widget.class, WidgetList.class,
				Widget.GROUP, Widget.VERSION, Widget.PLURAL, client);
		SharedIndexInformer<Widget> informer = factory.sharedIndexInformerFor(api, Widget.class,
				Duration.ofHours(10).toMillis(), settings.namespace());
		Lister<Widget> lister = new Lister<>(informer.getIndexer(), settings.namespace());

		Controller controller = ControllerBuilder.defaultBuilder(factory)
			.watch((queue) -> ControllerBuilder.controllerWatchBuilder(Widget.class, queue).build())
			.withName("widget")
			.withWorkerCount(WidgetWorkload.WORKERS)
			.withReadyFunc(informer::hasSynced)
			.withReconciler((request) -> {
				long started = workload.started();
				try {
					workload.reconcile(lister.get(request.getName()), started);
					return new Result(false);
				}
				catch (Exception ex) {
					logger.error("Reconcile failed: {}", request, ex);
					return new Result(true);
				}
			})
			.build();
		ControllerManager manager = ControllerBuilder.controllerManagerBuilder(factory)
			.addController(controller)
			.build();

		if (!settings.leaderElection()) {
			Runtime.getRuntime().addShutdownHook(new Thread(manager::shutdown, "baseline-stop"));
			Thread readiness = new Thread(() -> reportWhenSynced(informer, probe), "baseline-readiness");
			readiness.setDaemon(true);
			readiness.start();
			manager.run();
			return;
		}
		String identity = InetAddress.getLocalHost().getHostName() + "_" + UUID.randomUUID();
		LeaderElector elector = new LeaderElector(
				new LeaderElectionConfig(new LeaseLock(settings.namespace(), settings.leaseName(), identity, client),
						settings.leaseDuration(), settings.renewDeadline(), settings.retryPeriod()));
		LeaderElectingController leaderElecting = new LeaderElectingController(elector, manager);
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			leaderElecting.shutdown();
			elector.close(); // gives the Lease up if leading
		}, "baseline-stop"));
		probe.ready();
		leaderElecting.run();
	}

	private static void reportWhenSynced(SharedIndexInformer<Widget> informer, Probe probe) {
		try {
			while (!informer.hasSynced()) {
				Thread.sleep(10);
			}
			probe.ready();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
