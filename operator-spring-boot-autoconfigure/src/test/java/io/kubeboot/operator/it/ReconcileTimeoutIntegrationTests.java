package io.kubeboot.operator.it;

import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.autoconfigure.OperatorAutoConfiguration;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.client.Patch;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerBuilder;
import io.kubeboot.operator.micrometer.OperatorMetrics;
import io.kubeboot.operator.reconcile.Reconciler;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TcpProxy;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Reconciles with a timeout against a real kube-apiserver: a reconcile past its deadline
 * is interrupted and counted in {@code controller_runtime_reconcile_timeouts_total}, and
 * nothing it writes after the deadline reaches the API server, whether it gave up on the
 * interruption or ignored it, nor a write it had in flight at the deadline; one that
 * fails then is retried with backoff, one that returns a result keeps it, as in
 * controller-runtime. A stuck reconcile keeps its object from the other workers, and the
 * client the controllers share keeps working while writes are cut off. A
 * {@code @Reconciles} bean takes its timeout from its annotation, which
 * {@code operator.controllers.<name>.reconcile-timeout} overrides.
 */
@WithControlPlane
class ReconcileTimeoutIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(1);

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final String TIMEOUTS = "controller_runtime_reconcile_timeouts_total{controller=\"configmap\"}";

	@RegisterExtension
	private final TestResources resources = new TestResources();

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

	/** Ends any reconcile still waiting, before the manager stops. */
	private final CountDownLatch release = new CountDownLatch(1);

	/** The attempts, in order, with what each saw. */
	private final List<String> attempts = new CopyOnWriteArrayList<>();

	@AfterEach
	void release() {
		this.release.countDown();
	}

	@Test
	void aReconcileSleepingPastItsTimeoutIsInterruptedCountedRetriedAndItsLateWriteRefused(ApiClient admin,
			TestNamespace namespace) throws Exception {
		AtomicReference<RuntimeException> lateWrite = new AtomicReference<>();
		AtomicLong interruptedAfter = new AtomicLong();
		Manager manager = manager(admin, namespace, (operator) -> (request) -> {
			Client client = operator.client();
			if (this.attempts.isEmpty()) {
				this.attempts.add("sleeping");
				long start = System.nanoTime();
				try {
					Thread.sleep(WAIT.toMillis());
				}
				catch (InterruptedException ex) {
					interruptedAfter.set(System.nanoTime() - start);
					this.attempts.add("interrupted");
				}
				// a reconcile that goes on after its interruption, and fails as its write
				// does
				return failingWrite(client, request, lateWrite);
			}
			return retried(client, request);
		});
		manager.start();
		createConfigMap(admin, namespace);

		await().atMost(WAIT).until(() -> this.attempts.contains("retried"));
		assertThat(this.attempts).containsExactly("sleeping", "interrupted", "retried");
		// measured from a little after the deadline's start
		assertThat(Duration.ofNanos(interruptedAfter.get())).isGreaterThan(TIMEOUT.minusMillis(100)).isLessThan(WAIT);
		assertRefusedAtTheDeadline(lateWrite.get());
		assertWritten(admin, namespace);
		assertCountedOnceAndRetried();
	}

	@Test
	void aReconcileThatIgnoresItsInterruptionStillHasItsWriteRefused(ApiClient admin, TestNamespace namespace)
			throws Exception {
		AtomicReference<RuntimeException> lateWrite = new AtomicReference<>();
		AtomicBoolean interrupted = new AtomicBoolean();
		Manager manager = manager(admin, namespace, (operator) -> (request) -> {
			Client client = operator.client();
			if (this.attempts.isEmpty()) {
				this.attempts.add("stuck");
				long until = System.nanoTime() + TIMEOUT.multipliedBy(3).toNanos();
				// swallows every interrupt, as careless code does, and writes once it is
				// done: well past its deadline
				while (System.nanoTime() - until < 0) {
					try {
						this.release.await(50, TimeUnit.MILLISECONDS);
					}
					catch (InterruptedException ignored) {
						interrupted.set(true);
					}
				}
				return failingWrite(client, request, lateWrite);
			}
			return retried(client, request);
		});
		manager.start();
		createConfigMap(admin, namespace);

		await().atMost(WAIT).until(() -> this.attempts.contains("retried"));
		assertThat(this.attempts).containsExactly("stuck", "retried");
		assertThat(interrupted).isTrue();
		assertRefusedAtTheDeadline(lateWrite.get());
		assertWritten(admin, namespace);
		assertCountedOnceAndRetried();
	}

	/**
	 * A write the API server does not answer is given only the reconcile's time left: it
	 * is cut off at the deadline, not at the client's timeout.
	 */
	@Test
	void aWriteInFlightAtTheDeadlineIsCutOffThen(ControlPlane controlPlane, TestNamespace namespace) throws Exception {
		ApiClient admin = controlPlane.adminClient();
		TcpProxy proxy = this.resources.closeable(TcpProxy.to(controlPlane.apiServerUrl()));
		ApiClient throughProxy = controlPlane.adminClient();
		throughProxy.setBasePath(proxy.url("https"));
		AtomicReference<RuntimeException> hungWrite = new AtomicReference<>();
		AtomicLong hungFor = new AtomicLong();
		Manager manager = manager(admin, namespace, (operator) -> {
			Client client = operator.client();
			Client slowWriter = Client.create(throughProxy, operator.cache(), "slow-writer", WAIT);
			return (request) -> {
				if (this.attempts.isEmpty()) {
					this.attempts.add("writing");
					proxy.hang();
					long start = System.nanoTime();
					RuntimeException failure = writeFails(slowWriter, request, "late");
					hungWrite.set(failure);
					hungFor.set(System.nanoTime() - start);
					proxy.restore();
					if (failure != null) {
						throw failure;
					}
					return Result.done();
				}
				return retried(client, request);
			};
		});
		manager.start();
		createConfigMap(admin, namespace);

		await().atMost(WAIT).until(() -> this.attempts.contains("retried"));
		assertThat(hungWrite.get()).isNotNull()
			.extracting((ex) -> ex.getClass().getSimpleName())
			.isEqualTo("DeadlineExceededException");
		assertThat(hungWrite.get()).hasMessageContaining("a call still unanswered at the deadline was cancelled");
		// the client's own timeout is 30 s
		assertThat(Duration.ofNanos(hungFor.get())).isLessThan(WAIT.dividedBy(2));
		assertWritten(admin, namespace);
		assertCountedOnceAndRetried();
	}

	/**
	 * As in controller-runtime, whose reconcile returns {@code res, err} unchanged past
	 * its deadline: the timeout is counted, and a result the reconcile returned is kept.
	 */
	@Test
	void aReconcileThatReturnsAResultPastItsTimeoutKeepsItAndIsCountedAsATimeout(ApiClient admin,
			TestNamespace namespace) throws Exception {
		Duration requeueAfter = Duration.ofSeconds(2);
		AtomicLong firstReturned = new AtomicLong();
		AtomicLong secondStarted = new AtomicLong();
		Manager manager = manager(admin, namespace, 1, (operator) -> (request) -> {
			if (this.attempts.isEmpty()) {
				this.attempts.add("stuck");
				swallowInterruptsFor(TIMEOUT.multipliedBy(2));
				firstReturned.set(System.nanoTime());
				return Result.requeueAfter(requeueAfter);
			}
			if (secondStarted.get() == 0) {
				secondStarted.set(System.nanoTime());
				this.attempts.add("requeued");
			}
			return Result.done();
		});
		manager.start();
		createConfigMap(admin, namespace);

		await().atMost(WAIT).until(() -> this.attempts.contains("requeued"));
		assertThat(Duration.ofNanos(secondStarted.get() - firstReturned.get()))
			.isGreaterThanOrEqualTo(requeueAfter.minusMillis(100));
		await().atMost(WAIT)
			.untilAsserted(() -> assertThat(this.registry.scrape().lines().toList()).contains(TIMEOUTS + " 1.0",
					"controller_runtime_reconcile_total{controller=\"configmap\",result=\"requeue_after\"} 1.0",
					"controller_runtime_reconcile_total{controller=\"configmap\",result=\"error\"} 0.0",
					"controller_runtime_reconcile_errors_total{controller=\"configmap\"} 0.0",
					"workqueue_retries_total{controller=\"configmap\",name=\"configmap\"} 0.0"));
	}

	/**
	 * A reconcile that ignores its interruption keeps its request in processing: however
	 * many workers are idle and however often the object changes meanwhile, none takes it
	 * until the stuck reconcile returned.
	 */
	@Test
	void aStuckReconcileKeepsItsObjectFromEveryOtherWorker(ApiClient admin, TestNamespace namespace) throws Exception {
		AtomicInteger running = new AtomicInteger();
		AtomicInteger mostAtOnce = new AtomicInteger();
		AtomicLong stuckReturned = new AtomicLong();
		AtomicLong retryStarted = new AtomicLong();
		Manager manager = manager(admin, namespace, 4, (operator) -> (request) -> {
			mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
			try {
				if (this.attempts.isEmpty()) {
					this.attempts.add("stuck");
					swallowInterruptsFor(TIMEOUT.multipliedBy(3));
					stuckReturned.set(System.nanoTime());
					throw new IllegalStateException("gave up");
				}
				retryStarted.compareAndSet(0, System.nanoTime());
				this.attempts.add("retried");
				return Result.done();
			}
			finally {
				running.decrementAndGet();
			}
		});
		manager.start();
		createConfigMap(admin, namespace);
		await().atMost(WAIT).until(() -> this.attempts.contains("stuck"));
		// each change would hand the object to an idle worker if its request were free
		CoreV1Api core = new CoreV1Api(admin);
		for (int i = 0; i < 5; i++) {
			V1ConfigMap current = core.readNamespacedConfigMap("timed", namespace.name()).execute();
			current.getMetadata().putLabelsItem("change", Integer.toString(i));
			core.replaceNamespacedConfigMap("timed", namespace.name(), current).execute();
		}

		await().atMost(WAIT).until(() -> this.attempts.contains("retried"));
		assertThat(this.attempts.get(0)).isEqualTo("stuck");
		assertThat(mostAtOnce).hasValue(1);
		assertThat(retryStarted.get() - stuckReturned.get()).isPositive();
	}

	/**
	 * A timeout cancels the call in flight of its reconcile and interrupts the worker
	 * only once OkHttp returned: the client every controller shares (and its HTTP/2
	 * connections) keeps answering the other controllers' calls, while reconciles keep
	 * timing out in the middle of large writes.
	 */
	@Test
	void timeoutsInTheMiddleOfWritesLeaveTheSharedClientWorkingForOtherControllers(ApiClient admin,
			TestNamespace namespace) throws Exception {
		String large = "x".repeat(512 * 1024);
		AtomicInteger timedOutWrites = new AtomicInteger();
		List<Throwable> interruptedInCalls = new CopyOnWriteArrayList<>();
		AtomicInteger otherCalls = new AtomicInteger();
		List<Throwable> otherFailures = new CopyOnWriteArrayList<>();
		OperatorMetrics metrics = new OperatorMetrics(this.registry);
		Manager manager = metrics.applyTo(Manager.builder(admin).namespace(namespace.name())).build();
		metrics.bindTo(manager);
		Client client = manager.client();
		Controller.builder(manager, V1ConfigMap.class).reconcileTimeout(Duration.ofMillis(300)).complete((request) -> {
			// writes until the deadline cuts one off, with little time between writes
			int i = 0;
			while (true) {
				V1ConfigMap object = new V1ConfigMap()
					.metadata(new V1ObjectMeta().namespace(request.namespace()).name(request.name()));
				try {
					client.patch(object, Patch.merge(Map.of("data", Map.of("large", large + (i++)))));
				}
				catch (RuntimeException ex) {
					timedOutWrites.incrementAndGet();
					if (interruptedInCall(ex)) {
						interruptedInCalls.add(ex);
					}
					// again soon, without the backoff of a failure
					return Result.requeueAfter(Duration.ofMillis(10));
				}
			}
		});
		Controller.builder(manager, V1Secret.class).complete((request) -> {
			try {
				client.uncached().get(V1Secret.class, request).orElseThrow();
				otherCalls.incrementAndGet();
			}
			catch (RuntimeException ex) {
				otherFailures.add(ex);
			}
			return Result.requeueAfter(Duration.ofMillis(20));
		});
		this.resources.manager(manager).start();
		new CoreV1Api(admin)
			.createNamespacedSecret(namespace.name(), new V1Secret().metadata(new V1ObjectMeta().name("other")))
			.execute();
		createConfigMap(admin, namespace);

		await().atMost(WAIT.multipliedBy(2)).until(() -> timedOutWrites.get() >= 30);
		int before = otherCalls.get();
		// a stalled connection would hold the other controller's calls for 30 s
		await().atMost(Duration.ofSeconds(10)).until(() -> otherCalls.get() >= before + 20);
		assertThat(otherFailures).isEmpty();
		// cancelled, never interrupted inside OkHttp
		assertThat(interruptedInCalls).isEmpty();
	}

	private static boolean interruptedInCall(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof InterruptedIOException && "interrupted".equals(cause.getMessage())) {
				return true;
			}
		}
		return false;
	}

	private void swallowInterruptsFor(Duration duration) {
		long until = System.nanoTime() + duration.toNanos();
		while (System.nanoTime() - until < 0) {
			try {
				this.release.await(50, TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ignored) {
				// as careless code does
			}
		}
	}

	@Test
	void aReconcilesBeanTakesItsTimeoutFromItsAnnotation(ApiClient admin, TestNamespace namespace) throws Exception {
		createConfigMap(admin, namespace);
		runOperator(admin, namespace, AnnotatedTimeout.class).run((context) -> {
			assertThat(context).hasNotFailed();
			await().atMost(WAIT).until(() -> context.getBean(SleepingReconciler.class).interrupted.get() > 0);
		});
	}

	@Test
	void aControllersPropertyOverridesTheTimeoutOfItsAnnotation(ApiClient admin, TestNamespace namespace)
			throws Exception {
		createConfigMap(admin, namespace);
		runOperator(admin, namespace, LongAnnotatedTimeout.class)
			.withPropertyValues("operator.controllers.configmap.reconcile-timeout=500ms")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				await().atMost(WAIT).until(() -> context.getBean(SleepingReconciler.class).interrupted.get() > 0);
			});
	}

	private static ApplicationContextRunner runOperator(ApiClient admin, TestNamespace namespace,
			Class<?> configuration) {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(OperatorAutoConfiguration.class))
			.withBean(ApiClient.class, () -> admin)
			.withUserConfiguration(configuration)
			.withPropertyValues("operator.namespace=" + namespace, "operator.graceful-shutdown-timeout=1s");
	}

	private Manager manager(ApiClient admin, TestNamespace namespace, Function<Manager, Reconciler> reconciler) {
		return manager(admin, namespace, 1, reconciler);
	}

	private Manager manager(ApiClient admin, TestNamespace namespace, int workers,
			Function<Manager, Reconciler> reconciler) {
		OperatorMetrics metrics = new OperatorMetrics(this.registry);
		ManagerBuilder builder = Manager.builder(admin).namespace(namespace.name());
		Manager manager = metrics.applyTo(builder).build();
		metrics.bindTo(manager);
		Controller.builder(manager, V1ConfigMap.class)
			.reconcileTimeout(TIMEOUT)
			.maxConcurrentReconciles(workers)
			.complete(reconciler.apply(manager));
		return this.resources.manager(manager);
	}

	/**
	 * The retry: writes what the first attempt could not, and tells the test. Its write
	 * comes back as an update (a ConfigMap has no generation), which finds it done.
	 */
	private Result retried(Client client, Request request) {
		V1ConfigMap current = client.uncached().get(V1ConfigMap.class, request).orElseThrow();
		if (current.getData() == null || !current.getData().containsKey("retried")) {
			client.patch(current, Patch.merge(Map.of("data", Map.of("retried", "yes"))));
			this.attempts.add("retried");
		}
		return Result.done();
	}

	/**
	 * Writes after the deadline and fails as the write does, as a reconcile that lets the
	 * client's exception through does.
	 */
	private static Result failingWrite(Client client, Request request, AtomicReference<RuntimeException> failure) {
		RuntimeException refused = writeFails(client, request, "late");
		failure.set(refused);
		if (refused != null) {
			throw refused;
		}
		return Result.done();
	}

	private static RuntimeException writeFails(Client client, Request request, String key) {
		try {
			V1ConfigMap object = new V1ConfigMap()
				.metadata(new V1ObjectMeta().namespace(request.namespace()).name(request.name()));
			client.patch(object, Patch.merge(Map.of("data", Map.of(key, "yes"))));
			return null;
		}
		catch (RuntimeException ex) {
			return ex;
		}
	}

	private static void assertRefusedAtTheDeadline(RuntimeException failure) {
		assertThat(failure).as("the write after the deadline").isNotNull();
		// CallDeadline.DeadlineExceededException, of an internal package
		assertThat(failure.getClass().getSimpleName()).isEqualTo("DeadlineExceededException");
		assertThat(failure).hasMessageContaining("The timeout of the reconcile of ")
			.hasMessageContaining("by controller configmap (PT1S) passed");
	}

	private static void assertWritten(ApiClient admin, TestNamespace namespace) throws Exception {
		V1ConfigMap stored = new CoreV1Api(admin).readNamespacedConfigMap("timed", namespace.name()).execute();
		assertThat(stored.getData()).containsEntry("retried", "yes").doesNotContainKey("late");
	}

	private void assertCountedOnceAndRetried() {
		// the retry is counted once it returned
		await().atMost(WAIT)
			.untilAsserted(() -> assertThat(this.registry.scrape().lines().toList()).contains(TIMEOUTS + " 1.0",
					"controller_runtime_reconcile_total{controller=\"configmap\",result=\"error\"} 1.0",
					"controller_runtime_reconcile_errors_total{controller=\"configmap\"} 1.0",
					"workqueue_retries_total{controller=\"configmap\",name=\"configmap\"} 1.0"));
	}

	/**
	 * Sleeps far longer than its timeout, counting the interruptions.
	 */
	static class SleepingReconciler {

		final AtomicInteger interrupted = new AtomicInteger();

		public Result reconcile(Request request) {
			try {
				Thread.sleep(Duration.ofMinutes(1).toMillis());
			}
			catch (InterruptedException ex) {
				this.interrupted.incrementAndGet();
			}
			return Result.done();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class AnnotatedTimeout {

		@Bean
		@Reconciles(value = V1ConfigMap.class, reconcileTimeout = "${test.reconcile-timeout:500ms}")
		SleepingReconciler sleepingReconciler() {
			return new SleepingReconciler();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class LongAnnotatedTimeout {

		@Bean
		@Reconciles(value = V1ConfigMap.class, reconcileTimeout = "10m")
		SleepingReconciler sleepingReconciler() {
			return new SleepingReconciler();
		}

	}

	private static void createConfigMap(ApiClient admin, TestNamespace namespace) throws Exception {
		new CoreV1Api(admin)
			.createNamespacedConfigMap(namespace.name(), new V1ConfigMap().metadata(new V1ObjectMeta().name("timed")))
			.execute();
	}

}
