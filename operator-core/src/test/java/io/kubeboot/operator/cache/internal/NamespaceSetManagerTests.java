package io.kubeboot.operator.cache.internal;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kubeboot.operator.cache.CacheAccessDeniedException;
import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.controller.Controller;
import io.kubeboot.operator.healthz.CheckResult;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerHealth;
import io.kubeboot.operator.rbac.Permission;
import io.kubeboot.operator.reconcile.Result;
import io.kubernetes.client.openapi.models.V1Secret;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static io.kubeboot.operator.cache.internal.GadgetApiServer.gadget;
import static org.assertj.core.api.Assertions.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests what a manager of a namespace set tells of its namespaces: readiness while
 * namespaces are added, refused or given back; against a scripted API server that serves
 * gadgets per namespace.
 */
class NamespaceSetManagerTests {

	private static final String FINALIZER = "test.kubeboot.io/cleanup";

	/** Long enough for a refused list to be retried, every ten seconds at most. */
	private static final Duration WAIT = Duration.ofSeconds(30);

	private final GadgetApiServer api = new GadgetApiServer();

	private Manager manager;

	NamespaceSetManagerTests() throws Exception {
	}

	@AfterEach
	void stop() {
		if (this.manager != null) {
			this.manager.stop();
		}
		this.api.close();
	}

	@Test
	void aNamespaceAddedWhileTheInformersOfTheSetAreGivenBackDoesNotHoldReadinessDown() throws Exception {
		this.api.listed.put("a", List.of(gadget("a", "one", "1", "x")));
		start("a");
		// as the sharder does on a replica that led once: asks for an informer of the
		// set, then gives it back
		Informer<Gadget> informer = this.manager.cache().informer(Gadget.class, null, null);
		await().atMost(WAIT).until(informer::hasSynced);
		this.manager.cache().release(informer);
		this.manager.namespaces().add("c");
		ManagerHealth health = new ManagerHealth(this.manager);
		await().atMost(WAIT).untilAsserted(() -> assertThat(ManagerHealth.failures(health.readiness())).isEmpty());
		assertThat(this.manager.namespaces().unsynced()).isEmpty();
	}

	@Test
	void informersOfTheSetGivenBackAfterTheStartDoNotHoldReadinessDown() throws Exception {
		this.api.listed.put("a", List.of(gadget("a", "one", "1", "x")));
		Informer<Gadget> informer = this.manager("a").cache().informer(Gadget.class, null, null);
		this.manager.start();
		this.manager.cache().release(informer);
		this.manager.namespaces().add("c");
		ManagerHealth health = new ManagerHealth(this.manager);
		await().atMost(WAIT).untilAsserted(() -> assertThat(ManagerHealth.failures(health.readiness())).isEmpty());
	}

	@Test
	void readinessWaitsForANamespaceAddedWhileRunning() throws Exception {
		this.api.listed.put("a", List.of(gadget("a", "one", "1", "x")));
		this.manager("a").cache().informer(Gadget.class, null, null);
		this.manager.start();
		ManagerHealth health = new ManagerHealth(this.manager, Duration.ofMinutes(1));
		assertThat(ManagerHealth.allPassed(health.readiness())).isTrue();
		this.api.denied.add("c");
		this.manager.namespaces().add("c");
		await().atMost(WAIT).until(() -> failed(health, "caches") != null);
		assertThat(failed(health, "caches")).isEqualTo("not synced: [Gadget[namespace=c]]");
		this.api.denied.remove("c");
		await().atMost(WAIT).until(() -> ManagerHealth.allPassed(health.readiness()));
	}

	@Test
	void readinessLeavingOutTheNamespacesStaysUpWhileOneIsRefused() throws Exception {
		this.api.listed.put("a", List.of(gadget("a", "one", "1", "x")));
		this.manager("a").cache().informer(Gadget.class, null, null);
		this.manager.start();
		ManagerHealth health = new ManagerHealth(this.manager, Duration.ZERO, false);
		this.api.denied.add("c");
		this.manager.namespaces().add("c");
		await().atMost(WAIT)
			.until(() -> this.manager.informers()
				.stream()
				.anyMatch((informer) -> "c".equals(informer.key().namespace()) && informer.lastError() != null));
		assertThat(this.manager.namespaces().unsynced()).containsExactly("c");
		// neither its sync nor its failing watch, past a threshold of zero
		assertThat(ManagerHealth.failures(health.readiness())).isEmpty();
	}

	@Test
	void aSetWhoseEveryNamespaceRbacRefusesFailsTheStartAsBefore() throws Exception {
		this.api.denied.add("a");
		this.api.denied.add("c");
		Manager manager = manager(Duration.ofSeconds(3), "a", "c");
		manager.cache().informer(Gadget.class, null, null);
		assertThatExceptionOfType(CacheAccessDeniedException.class).isThrownBy(manager::start)
			.withMessageContaining("list, watch gadgets.test.kubeboot.io in namespace 'a'")
			.withMessageContaining("in namespace 'c'");
	}

	@Test
	void aReconcileUnderWayWhenItsNamespaceLeavesTheSetCannotReadItsObjectsAsGone() throws Exception {
		this.api.listed.put("a", List.of(gadget("a", "one", "1", "x")));
		this.api.listed.put("b", List.of(gadget("b", "two", "2", "x")));
		Manager manager = manager("a", "b");
		CountDownLatch inside = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		List<String> seen = new CopyOnWriteArrayList<>();
		Controller.builder(manager, Gadget.class).complete((request) -> {
			if (request.namespace().equals("b")) {
				seen.add("reconcile " + request);
				inside.countDown();
				release.await();
				try {
					seen.add("read " + manager.client().get(Gadget.class, request).isPresent());
				}
				catch (IllegalStateException ex) {
					seen.add("refused: " + ex.getMessage());
					throw ex;
				}
			}
			return Result.done();
		});
		manager.start();
		assertThat(inside.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		manager.namespaces().remove("b");
		release.countDown();
		await().atMost(WAIT).until(() -> seen.size() == 2);
		assertThat(seen.get(1)).startsWith("refused: Cannot read Gadget in namespace 'b' from the cache")
			.contains("unknown namespace for the cache");
	}

	@Test
	void aNamespaceOfTheSetRefusedByRbacAtStartIsToleratedAsOneAddedWhileRunning() throws Exception {
		this.api.listed.put("a", List.of(gadget("a", "one", "1", "x")));
		this.api.listed.put("c", List.of(gadget("c", "seven", "7", "x")));
		this.api.denied.add("c");
		Manager manager = manager(Duration.ofSeconds(5), "a", "c");
		List<String> reconciled = new CopyOnWriteArrayList<>();
		Controller.builder(manager, Gadget.class).complete((request) -> {
			reconciled.add(request.toString());
			return Result.done();
		});
		manager.start();
		await().atMost(WAIT).until(() -> reconciled.contains("a/one"));
		assertThat(manager.namespaces().unsynced()).containsExactly("c");
		ManagerHealth health = new ManagerHealth(manager, Duration.ofMinutes(1));
		assertThat(failed(health, "caches")).isEqualTo("not synced: [Gadget[namespace=c]]");
		this.api.denied.remove("c");
		await().atMost(WAIT).until(() -> reconciled.contains("c/seven"));
		await().atMost(WAIT).until(() -> ManagerHealth.allPassed(health.readiness()));
	}

	@Test
	void aNamespaceLeavingWithObjectsThatCarryAControllersFinalizerIsWarnedAbout() throws Exception {
		this.api.listed.put("a", List.of(finalized("a", "one")));
		this.api.listed.put("b",
				List.of(finalized("b", "two"), finalized("b", "three"), gadget("b", "four", "4", "x")));
		Manager manager = manager("a", "b");
		List<String> reconciled = new CopyOnWriteArrayList<>();
		Controller.builder(manager, Gadget.class)
			.withFinalizer(FINALIZER, (request) -> Result.done())
			.complete((request) -> {
				reconciled.add(request.toString());
				return Result.done();
			});
		manager.start();
		await().atMost(WAIT).until(() -> reconciled.containsAll(List.of("a/one", "b/two", "b/three")));
		ListAppender<ILoggingEvent> logs = new ListAppender<>();
		logs.start();
		Logger logger = (Logger) LoggerFactory.getLogger(Controller.class);
		logger.addAppender(logs);
		try {
			manager.namespaces().remove("b");
		}
		finally {
			logger.detachAppender(logs);
		}
		assertThat(logs.list).filteredOn((event) -> event.getLevel() == Level.WARN)
			.extracting(ILoggingEvent::getFormattedMessage)
			.singleElement(as(InstanceOfAssertFactories.STRING))
			.startsWith("Namespace leaves the watched set with objects that carry the controller's finalizer")
			.endsWith("controller=gadget namespace=b finalizer=" + FINALIZER + " objects=2 names=[three, two]");
	}

	@Test
	void theRulesANamespaceAddedWhileRunningNeedsAreCheckedAndWhatRbacDeniesIsNamed() throws Exception {
		this.api.listed.put("a", List.of(gadget("a", "one", "1", "x")));
		Manager manager = manager("a");
		Controller.builder(manager, Gadget.class)
			.requires(Permission.of(V1Secret.class, "get").because("reads the credentials"))
			.complete((request) -> Result.done());
		manager.start();
		ListAppender<ILoggingEvent> logs = new ListAppender<>();
		logs.start();
		Logger logger = (Logger) LoggerFactory.getLogger("io.kubeboot.operator.manager");
		logger.addAppender(logs);
		try {
			this.api.denied.add("c");
			manager.namespaces().add("c");
			await().atMost(WAIT)
				.until(() -> logs.list.stream()
					.anyMatch((event) -> event.getFormattedMessage()
						.startsWith("RBAC denies this operator's identity "
								+ "rules it needs in namespaces added to the set")));
		}
		finally {
			logger.detachAppender(logs);
		}
		assertThat(logs.list).filteredOn((event) -> event.getLevel() == Level.WARN)
			.extracting(ILoggingEvent::getFormattedMessage)
			.singleElement(as(InstanceOfAssertFactories.STRING))
			.contains("get secrets in namespace 'c' (controller gadget: reads the credentials)")
			.endsWith("namespaces=[c]");
	}

	@Test
	void aManagerStoppingWhileTheSetChangesLeavesNoInformerRunning() throws Exception {
		this.api.listed.put("a", List.of(gadget("a", "one", "1", "x")));
		Manager manager = manager("a");
		manager.cache().informer(Gadget.class, null, null);
		manager.start();
		List<Throwable> refused = new CopyOnWriteArrayList<>();
		Thread changes = new Thread(() -> {
			for (int i = 0; i < 100_000; i++) {
				try {
					manager.namespaces().add("n" + i);
				}
				catch (IllegalStateException ex) {
					refused.add(ex);
					return;
				}
			}
		});
		changes.start();
		await().atMost(WAIT).until(() -> manager.namespaces().current().size() > 2);
		manager.stop();
		changes.join(WAIT.toMillis());
		assertThat(refused).singleElement()
			.extracting(Throwable::getMessage)
			.isEqualTo("The manager stopped: its namespaces no longer change");
		// every informer started, those of the last change included, stopped with it
		await().atMost(WAIT)
			.until(() -> Thread.getAllStackTraces()
				.keySet()
				.stream()
				.noneMatch((thread) -> thread.isAlive() && thread.getName().contains(Gadget.class.getName())));
	}

	private static String finalized(String namespace, String name) {
		return gadget(namespace, name, "1", "x").replace("\"labels\"",
				"\"finalizers\": [\"" + FINALIZER + "\"], \"labels\"");
	}

	private static String failed(ManagerHealth health, String check) {
		return health.readiness()
			.stream()
			.filter((result) -> result.name().equals(check) && !result.ok())
			.map(CheckResult::reason)
			.findFirst()
			.orElse(null);
	}

	private void start(String... namespaces) throws InterruptedException {
		manager(namespaces).start();
	}

	private Manager manager(String... namespaces) {
		return manager(WAIT, namespaces);
	}

	private Manager manager(Duration cacheSyncTimeout, String... namespaces) {
		this.manager = Manager.builder(this.api.client())
			.namespaces(List.of(namespaces))
			.streamingLists(false)
			.cacheSyncTimeout(cacheSyncTimeout)
			.gracefulShutdownTimeout(Duration.ofMillis(500))
			.build();
		return this.manager;
	}

}
