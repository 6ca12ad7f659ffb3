package io.kubeboot.operator.micrometer;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.kubeboot.operator.cache.ObjectBudgets;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LostLeasePolicy;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.metrics.ControllerMetrics.Outcome;
import io.kubeboot.operator.metrics.ControllerMetrics;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.reconcile.ReconcileTrigger;
import io.kubeboot.operator.workqueue.WorkQueueMetrics;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link OperatorMetrics}: the exact text a Prometheus registry renders.
 */
class OperatorMetricsTests {

	private static final String CONTROLLER = "{controller=\"configmap\"}";

	private static final String QUEUE = "{controller=\"configmap\",name=\"configmap\"}";

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

	private final OperatorMetrics metrics = new OperatorMetrics(this.registry);

	@Test
	void controllerSeriesAreRegisteredAtZeroWhenTheControllerIsCreated() {
		this.metrics.controllerMetrics("configmap");
		assertThat(scrape()).contains("# TYPE controller_runtime_reconcile_total counter",
				"controller_runtime_reconcile_total{controller=\"configmap\",result=\"error\"} 0.0",
				"controller_runtime_reconcile_total{controller=\"configmap\",result=\"requeue\"} 0.0",
				"controller_runtime_reconcile_total{controller=\"configmap\",result=\"requeue_after\"} 0.0",
				"controller_runtime_reconcile_total{controller=\"configmap\",result=\"success\"} 0.0",
				"# TYPE controller_runtime_reconcile_errors_total counter",
				"controller_runtime_reconcile_errors_total" + CONTROLLER + " 0.0",
				"# TYPE controller_runtime_terminal_reconcile_errors_total counter",
				"controller_runtime_terminal_reconcile_errors_total" + CONTROLLER + " 0.0",
				"# TYPE controller_runtime_reconcile_panics_total counter",
				"controller_runtime_reconcile_panics_total" + CONTROLLER + " 0.0",
				"# TYPE controller_runtime_reconcile_timeouts_total counter",
				"controller_runtime_reconcile_timeouts_total" + CONTROLLER + " 0.0",
				"# TYPE controller_runtime_reconcile_time_seconds histogram",
				"controller_runtime_reconcile_time_seconds_count" + CONTROLLER + " 0",
				"# TYPE controller_runtime_max_concurrent_reconciles gauge",
				"controller_runtime_max_concurrent_reconciles" + CONTROLLER + " 0.0",
				"# TYPE controller_runtime_active_workers gauge",
				"controller_runtime_active_workers" + CONTROLLER + " 0.0");
		assertThat(scrape()).noneMatch((line) -> line.contains("workqueue_"));
	}

	@Test
	void outcomesAreCountedAsControllerRuntimeCountsThem() {
		ControllerMetrics controller = this.metrics.controllerMetrics("configmap");
		reconciled(controller, Outcome.SUCCESS, 3);
		reconciled(controller, Outcome.REQUEUE, 1);
		reconciled(controller, Outcome.REQUEUE_AFTER, 2);
		reconciled(controller, Outcome.ERROR, 4);
		reconciled(controller, Outcome.TERMINAL_ERROR, 5);
		reconciled(controller, Outcome.PANIC, 6);
		// counted apart from the outcome, which the reconcile that timed out tells
		for (int i = 0; i < 7; i++) {
			controller.timedOut();
		}
		assertThat(scrape()).contains(
				"controller_runtime_reconcile_total{controller=\"configmap\",result=\"success\"} 3.0",
				"controller_runtime_reconcile_total{controller=\"configmap\",result=\"requeue\"} 1.0",
				"controller_runtime_reconcile_total{controller=\"configmap\",result=\"requeue_after\"} 2.0",
				"controller_runtime_reconcile_total{controller=\"configmap\",result=\"error\"} 15.0",
				"controller_runtime_reconcile_errors_total" + CONTROLLER + " 15.0",
				"controller_runtime_terminal_reconcile_errors_total" + CONTROLLER + " 5.0",
				"controller_runtime_reconcile_panics_total" + CONTROLLER + " 6.0",
				"controller_runtime_reconcile_timeouts_total" + CONTROLLER + " 7.0",
				"controller_runtime_reconcile_time_seconds_count" + CONTROLLER + " 21");
	}

	@Test
	void reconcileTimeHasExactlyControllerRuntimeBuckets() {
		ControllerMetrics controller = this.metrics.controllerMetrics("configmap");
		controller.reconciled(Outcome.SUCCESS, Duration.ofMillis(3).toNanos());
		controller.reconciled(Outcome.SUCCESS, Duration.ofMillis(120).toNanos());
		controller.reconciled(Outcome.SUCCESS, Duration.ofSeconds(61).toNanos());
		List<String> buckets = lines("controller_runtime_reconcile_time_seconds_bucket{");
		assertThat(buckets).extracting(OperatorMetricsTests::le)
			.containsExactly("0.005", "0.01", "0.025", "0.05", "0.1", "0.15", "0.2", "0.25", "0.3", "0.35", "0.4",
					"0.45", "0.5", "0.6", "0.7", "0.8", "0.9", "1.0", "1.25", "1.5", "1.75", "2.0", "2.5", "3.0", "3.5",
					"4.0", "4.5", "5.0", "6.0", "7.0", "8.0", "9.0", "10.0", "15.0", "20.0", "25.0", "30.0", "40.0",
					"50.0", "60.0", "+Inf");
		assertThat(scrape()).contains(
				"controller_runtime_reconcile_time_seconds_bucket{controller=\"configmap\",le=\"0.005\"} 1",
				"controller_runtime_reconcile_time_seconds_bucket{controller=\"configmap\",le=\"0.1\"} 1",
				"controller_runtime_reconcile_time_seconds_bucket{controller=\"configmap\",le=\"0.15\"} 2",
				"controller_runtime_reconcile_time_seconds_bucket{controller=\"configmap\",le=\"60.0\"} 2",
				"controller_runtime_reconcile_time_seconds_bucket{controller=\"configmap\",le=\"+Inf\"} 3",
				"controller_runtime_reconcile_time_seconds_count" + CONTROLLER + " 3",
				"controller_runtime_reconcile_time_seconds_sum" + CONTROLLER + " 61.123");
	}

	@Test
	void activeWorkersFollowTheController() {
		ControllerMetrics controller = this.metrics.controllerMetrics("configmap");
		controller.activeWorkers(2);
		assertThat(scrape()).contains("controller_runtime_active_workers" + CONTROLLER + " 2.0");
		controller.activeWorkers(1);
		assertThat(scrape()).contains("controller_runtime_active_workers" + CONTROLLER + " 1.0");
	}

	@Test
	void workQueueSeriesCarryNameAndControllerLabels() {
		WorkQueueMetrics queue = this.metrics.workQueueMetrics("configmap");
		queue.added();
		queue.added();
		queue.depth(2);
		queue.retried();
		queue.queueLatency(50);
		queue.workDuration(Duration.ofSeconds(2).toNanos());
		assertThat(scrape()).contains("# TYPE workqueue_depth gauge",
				"workqueue_depth{controller=\"configmap\",name=\"configmap\",priority=\"\"} 2.0",
				"# TYPE workqueue_adds_total counter", "workqueue_adds_total" + QUEUE + " 2.0",
				"# TYPE workqueue_retries_total counter", "workqueue_retries_total" + QUEUE + " 1.0",
				"# TYPE workqueue_queue_duration_seconds histogram",
				"workqueue_queue_duration_seconds_count" + QUEUE + " 1",
				"# TYPE workqueue_work_duration_seconds histogram",
				"workqueue_work_duration_seconds_count" + QUEUE + " 1",
				"workqueue_work_duration_seconds_sum" + QUEUE + " 2.0",
				"# TYPE workqueue_unfinished_work_seconds gauge", "workqueue_unfinished_work_seconds" + QUEUE + " 0.0",
				"# TYPE workqueue_longest_running_processor_seconds gauge",
				"workqueue_longest_running_processor_seconds" + QUEUE + " 0.0");
	}

	@Test
	void thePriorityQueueHasADepthSeriesPerPriorityAsControllerRuntime() {
		WorkQueueMetrics queue = this.metrics.workQueueMetrics("configmap");
		queue.depth(0, 0);
		queue.depth(0);
		queue.depth(-100, 4999);
		queue.depth(4999);
		queue.depth(0, 1);
		queue.depth(5000);
		assertThat(scrape()).contains("workqueue_depth{controller=\"configmap\",name=\"configmap\",priority=\"0\"} 1.0",
				"workqueue_depth{controller=\"configmap\",name=\"configmap\",priority=\"-100\"} 4999.0");
		assertThat(lines("workqueue_depth{")).hasSize(2);
	}

	@Test
	void priorityDepthSeriesStopAtControllerRuntimesCardinalityLimit() {
		WorkQueueMetrics queue = this.metrics.workQueueMetrics("configmap");
		for (int priority = 0; priority < 30; priority++) {
			queue.depth(priority, 1);
		}
		queue.depth(29, 2);
		assertThat(lines("workqueue_depth{")).hasSize(26);
		assertThat(scrape()).contains(
				"workqueue_depth{controller=\"configmap\",name=\"configmap\",priority=\"24\"} 1.0",
				"workqueue_depth{controller=\"configmap\",name=\"configmap\",priority=\"exceeded_cardinality_limit\"} 6.0");
	}

	@Test
	void workQueueHistogramsHaveControllerRuntimeExponentialBuckets() {
		WorkQueueMetrics queue = this.metrics.workQueueMetrics("configmap");
		queue.queueLatency(50);
		queue.queueLatency(Duration.ofMillis(3).toNanos());
		List<String> expected = List.of("1.0E-8", "1.0E-7", "1.0E-6", "1.0E-5", "1.0E-4", "0.001", "0.01", "0.1", "1.0",
				"10.0", "100.0", "1000.0", "+Inf");
		assertThat(lines("workqueue_queue_duration_seconds_bucket{")).extracting(OperatorMetricsTests::le)
			.containsExactlyElementsOf(expected);
		assertThat(lines("workqueue_work_duration_seconds_bucket{")).extracting(OperatorMetricsTests::le)
			.containsExactlyElementsOf(expected);
		assertThat(scrape()).contains(
				"workqueue_queue_duration_seconds_bucket{controller=\"configmap\",name=\"configmap\",le=\"1.0E-8\"} 0",
				"workqueue_queue_duration_seconds_bucket{controller=\"configmap\",name=\"configmap\",le=\"1.0E-7\"} 1",
				"workqueue_queue_duration_seconds_bucket{controller=\"configmap\",name=\"configmap\",le=\"0.001\"} 1",
				"workqueue_queue_duration_seconds_bucket{controller=\"configmap\",name=\"configmap\",le=\"0.01\"} 2");
	}

	@Test
	void metricsOfOneNameAreSharedAcrossQueuesAndControllers() {
		assertThat(this.metrics.workQueueMetrics("configmap")).isSameAs(this.metrics.workQueueMetrics("configmap"));
		assertThat(this.metrics.controllerMetrics("configmap")).isSameAs(this.metrics.controllerMetrics("configmap"));
		this.metrics.workQueueMetrics("configmap").added();
		this.metrics.workQueueMetrics("configmap").added();
		assertThat(scrape()).contains("workqueue_adds_total" + QUEUE + " 2.0");
	}

	@Test
	void boundManagerFeedsTheControllerGauges() {
		Manager manager = this.metrics.applyTo(Manager.builder(unreachableClient())).build();
		Controller.builder(manager, V1ConfigMap.class).maxConcurrentReconciles(3).complete((request) -> Result.done());
		assertThat(scrape()).contains("controller_runtime_max_concurrent_reconciles" + CONTROLLER + " 0.0");
		this.metrics.bindTo(manager);
		this.metrics.workQueueMetrics("configmap");
		assertThat(scrape()).contains("controller_runtime_max_concurrent_reconciles" + CONTROLLER + " 3.0",
				"workqueue_unfinished_work_seconds" + QUEUE + " 0.0",
				"workqueue_longest_running_processor_seconds" + QUEUE + " 0.0");
		assertThat(scrape()).noneMatch((line) -> line.contains("leader_election_master_status"));
	}

	@Test
	void everyInformerReportsWhatItHoldsAndOneWithABudgetItsBudget() {
		Manager manager = this.metrics
			.applyTo(Manager.builder(unreachableClient()).objectBudgets(new ObjectBudgets(0, Map.of("Secret", 500))))
			.build();
		this.metrics.bindTo(manager);
		manager.cache().informer(V1Secret.class, null, null);
		manager.cache().informer(V1ConfigMap.class, "shop", "app=web");
		String secrets = "{cluster=\"\",field_selector=\"\",kind=\"Secret\",metadata_only=\"false\",namespace=\"\","
				+ "selector=\"\"}";
		String configMaps = "{cluster=\"\",field_selector=\"\",kind=\"ConfigMap\",metadata_only=\"false\",namespace=\"shop\","
				+ "selector=\"app=web\"}";
		assertThat(scrape()).contains("# TYPE operator_informer_objects gauge",
				"operator_informer_objects" + secrets + " 0.0", "operator_informer_objects" + configMaps + " 0.0",
				"# TYPE operator_informer_estimated_heap_bytes gauge",
				"operator_informer_estimated_heap_bytes" + secrets + " 0.0",
				"operator_informer_estimated_heap_bytes" + configMaps + " 0.0",
				"operator_informer_object_budget" + secrets + " 500.0",
				"# TYPE operator_informer_object_budget_exceeded_total counter",
				"operator_informer_object_budget_exceeded_total" + secrets + " 0.0");
		assertThat(scrape()).noneMatch(
				(line) -> line.startsWith("operator_informer_object_budget") && line.contains("kind=\"ConfigMap\""));
	}

	@Test
	void leaderElectionStatusIsRegisteredUnderTheLeaseName() {
		LeaderElectionConfig election = new LeaderElectionConfig("default", "my-operator-leader", "replica-1",
				Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(2), true, LostLeasePolicy.EXIT);
		Manager manager = this.metrics.applyTo(Manager.builder(unreachableClient()).leaderElection(election)).build();
		this.metrics.bindTo(manager);
		assertThat(scrape()).contains("# TYPE leader_election_master_status gauge",
				"leader_election_master_status{name=\"my-operator-leader\"} 0.0");
	}

	@Test
	void noSeriesHasALabelPerObject() {
		ControllerMetrics controller = this.metrics.controllerMetrics("configmap");
		WorkQueueMetrics queue = this.metrics.workQueueMetrics("configmap");
		for (int i = 0; i < 10; i++) {
			controller.reconciled(Outcome.SUCCESS, 1000);
			queue.added();
		}
		assertThat(this.registry.getMeters()).allSatisfy((meter) -> assertThat(meter.getId().getTags())
			.allSatisfy((tag) -> assertThat(tag.getKey()).isIn("controller", "name", "result", "trigger")));
	}

	@Test
	void reconcilesAreCountedByTheKindsOfTheirTriggersEachKindFromZero() {
		ControllerMetrics controller = this.metrics.controllerMetrics("configmap");
		controller.triggered(ReconcileTrigger.Kind.SPEC_CHANGED);
		controller.triggered(ReconcileTrigger.Kind.SPEC_CHANGED);
		controller.triggered(ReconcileTrigger.Kind.OWNED_OBJECT);
		controller.triggersDropped(3);

		assertThat(scrape()).contains(
				"operator_reconcile_triggers_total{controller=\"configmap\",trigger=\"spec_changed\"} 2.0",
				"operator_reconcile_triggers_total{controller=\"configmap\",trigger=\"owned_object\"} 1.0",
				"operator_reconcile_triggers_total{controller=\"configmap\",trigger=\"retry_after_error\"} 0.0",
				"operator_reconcile_triggers_dropped_total{controller=\"configmap\"} 3.0");
		assertThat(lines("operator_reconcile_triggers_total{")).hasSize(ReconcileTrigger.Kind.values().length);
	}

	private static void reconciled(ControllerMetrics controller, Outcome outcome, int times) {
		for (int i = 0; i < times; i++) {
			controller.reconciled(outcome, Duration.ofMillis(1).toNanos());
		}
	}

	private static ApiClient unreachableClient() {
		return new ApiClient().setBasePath("https://127.0.0.1:1");
	}

	private List<String> scrape() {
		return this.registry.scrape().lines().toList();
	}

	private List<String> lines(String prefix) {
		return scrape().stream().filter((line) -> line.startsWith(prefix)).toList();
	}

	private static String le(String bucketLine) {
		int start = bucketLine.indexOf("le=\"") + 4;
		return bucketLine.substring(start, bucketLine.indexOf('"', start));
	}

}
