package io.kubeboot.operator.cache.internal;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.cache.CacheIndex;
import io.kubeboot.operator.cache.Informer;
import io.kubeboot.operator.cache.InformerEventHandler;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.reconcile.Request;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.kubeboot.operator.cache.internal.GadgetApiServer.gadget;
import static io.kubeboot.operator.cache.internal.ObjectDecoderTests.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Tests that an informer asked for without a namespace follows the cache's namespace set:
 * one informer per namespace, started and stopped as namespaces are added and removed,
 * read as one (indexes included), its handlers told of an added namespace's objects as an
 * initial list and of a removed one's not at all; against a scripted API server that
 * serves gadgets per namespace.
 */
class NamespaceSetInformerTests {

	private static final Duration WAIT = GadgetApiServer.WAIT;

	private static final CacheIndex<Gadget> BY_OWNER = CacheIndex.of(Gadget.class, "owner",
			(gadget) -> List.of(gadget.getMetadata().getLabels().get("owner")));

	private final List<String> events = new CopyOnWriteArrayList<>();

	private final List<InformerKey> removed = new CopyOnWriteArrayList<>();

	private final GadgetApiServer api = new GadgetApiServer();

	private InformerCache cache;

	NamespaceSetInformerTests() throws IOException {
	}

	@AfterEach
	void stop() {
		if (this.cache != null) {
			this.cache.stop();
		}
		this.api.close();
	}

	@Test
	void anInformerWithoutANamespaceListsAndWatchesEachNamespaceOfTheSetAndReadsThemAsOne() throws Exception {
		cache("a", "b");
		this.api.listed.put("a", List.of(gadget("a", "one", "1", "x")));
		this.api.listed.put("b", List.of(gadget("b", "two", "2", "x"), gadget("b", "three", "3", "y")));
		Informer<Gadget> informer = this.cache.informer(Gadget.class, null, null);
		start();
		assertThat(informer.key()).isEqualTo(new InformerKey(Gadget.class, null, null));
		assertThat(keys()).containsExactlyInAnyOrder(new InformerKey(Gadget.class, "a", null),
				new InformerKey(Gadget.class, "b", null));
		assertThat(this.cache.keysOf(informer)).containsExactly(new InformerKey(Gadget.class, "a", null),
				new InformerKey(Gadget.class, "b", null));
		assertThat(names(informer.list())).containsExactlyInAnyOrder("a/one", "b/two", "b/three");
		assertThat(names(informer.list("b"))).containsExactlyInAnyOrder("b/two", "b/three");
		assertThat(names(this.cache.list(Gadget.class, null))).containsExactlyInAnyOrder("a/one", "b/two", "b/three");
		assertThat(this.cache.get(Gadget.class, Request.of("a", "one"))).isPresent();
		assertThat(informer.hasSynced("a")).isTrue();
		assertThat(informer.hasSynced("c")).isFalse();
		assertThat(this.cache.namespaces().current()).containsExactly("a", "b");
		assertThat(this.cache.namespaces().unsynced()).isEmpty();
		// the same informer for the same question
		assertThat(this.cache.informer(Gadget.class, null, null)).isSameAs(informer);
	}

	@Test
	void theCostOfAnInformerOfTheSetIsTheSumOfItsMembers() throws Exception {
		cache("a", "b");
		this.api.listed.put("a", List.of(gadget("a", "one", "1", "x")));
		this.api.listed.put("b", List.of(gadget("b", "two", "2", "x"), gadget("b", "three", "3", "y")));
		Informer<Gadget> informer = this.cache.informer(Gadget.class, null, null);
		start();
		assertThat(informer.cost().objects()).isEqualTo(3);
		assertThat(informer.cost().objectBudget()).isEmpty();
		long members = 0;
		for (InformerKey key : this.cache.keysOf(informer)) {
			members += this.cache.informer(Gadget.class, key.namespace(), null).cost().estimatedBytes().orElseThrow();
		}
		assertThat(informer.cost().estimatedBytes()).hasValue(members);
	}

	@Test
	void aNamespaceAddedWhileRunningIsListedAndItsObjectsReachTheHandlersAsAnInitialList() throws Exception {
		cache("a");
		this.api.listed.put("a", List.of(gadget("a", "one", "1", "x")));
		this.api.listed.put("c", List.of(gadget("c", "seven", "7", "x")));
		Informer<Gadget> informer = this.cache.informer(Gadget.class, null, null);
		informer.addEventHandler(recorder());
		start();
		await().atMost(WAIT).until(() -> this.events.contains("add a/one initial"));

		this.cache.namespaces().add("c");
		assertThat(this.cache.namespaces().current()).containsExactly("a", "c");
		assertThat(this.cache.namespaces().awaitSynced(WAIT)).isTrue();
		await().atMost(WAIT).until(() -> this.events.contains("add c/seven initial"));
		assertThat(names(informer.list())).containsExactlyInAnyOrder("a/one", "c/seven");
		assertThat(this.cache.namespaceSetInformers()).singleElement()
			.satisfies((followed) -> assertThat(followed.members()).extracting(Informer::key)
				.containsExactly(new InformerKey(Gadget.class, "a", null), new InformerKey(Gadget.class, "c", null)));

		// its watch goes on like any other
		await().atMost(WAIT).until(() -> this.api.watches.containsKey("c"));
		this.api.feed("c", event("ADDED", gadget("c", "eight", "8", "x")));
		await().atMost(WAIT).until(() -> this.events.contains("add c/eight change"));
	}

	@Test
	void aNamespaceRemovedStopsItsInformerAndDropsItsObjectsWithoutTellingOfDeletions() throws Exception {
		cache("a", "b");
		this.api.listed.put("a", List.of(gadget("a", "one", "1", "x")));
		this.api.listed.put("b", List.of(gadget("b", "two", "2", "x")));
		this.cache.onInformerUnregistered((informer) -> this.removed.add(informer.key()));
		Informer<Gadget> informer = this.cache.informer(Gadget.class, null, null);
		informer.addEventHandler(recorder());
		start();
		await().atMost(WAIT).until(() -> this.events.contains("add b/two initial"));

		this.cache.namespaces().remove("b");
		assertThat(this.cache.namespaces().current()).containsExactly("a");
		assertThat(keys()).containsExactly(new InformerKey(Gadget.class, "a", null));
		assertThat(this.removed).containsExactly(new InformerKey(Gadget.class, "b", null));
		assertThat(names(informer.list())).containsExactly("a/one");
		assertThat(informer.get("b", "two")).isEmpty();
		assertThat(informer.hasSynced("b")).isFalse();
		// what the stopped informer's watch still brings reaches nobody
		this.api.feed("b", event("MODIFIED", gadget("b", "two", "20", "y")));
		this.api.feed("a", event("MODIFIED", gadget("a", "one", "10", "y")));
		await().atMost(WAIT).until(() -> this.events.contains("update a/one"));
		assertThat(this.events).noneMatch((event) -> event.startsWith("delete")).doesNotContain("update b/two");
	}

	@Test
	void aNamespaceRemovedAndAddedAgainIsListedAgain() throws Exception {
		cache("a", "b");
		this.api.listed.put("a", List.of());
		this.api.listed.put("b", List.of(gadget("b", "two", "2", "x")));
		Informer<Gadget> informer = this.cache.informer(Gadget.class, null, null);
		informer.addEventHandler(recorder());
		start();
		await().atMost(WAIT).until(() -> this.events.contains("add b/two initial"));
		this.cache.namespaces().remove("b");
		this.api.listed.put("b", List.of(gadget("b", "two", "5", "x"), gadget("b", "four", "6", "x")));
		this.cache.namespaces().set(List.of("a", "b"));
		assertThat(this.cache.namespaces().awaitSynced(WAIT)).isTrue();
		await().atMost(WAIT).until(() -> this.events.contains("add b/four initial"));
		assertThat(names(informer.list())).containsExactlyInAnyOrder("b/two", "b/four");
		assertThat(this.events).filteredOn((event) -> event.equals("add b/two initial")).hasSize(2);
	}

	@Test
	void anIndexFindsTheObjectsOfEveryNamespaceOfTheSetAsItChanges() throws Exception {
		cache("a", "b");
		this.cache.addIndex(BY_OWNER);
		this.api.listed.put("a", List.of(gadget("a", "one", "1", "x")));
		this.api.listed.put("b", List.of(gadget("b", "two", "2", "x"), gadget("b", "three", "3", "y")));
		this.api.listed.put("c", List.of(gadget("c", "four", "4", "x")));
		this.cache.informer(Gadget.class, null, null);
		start();
		assertThat(names(this.cache.list(Gadget.class, null, BY_OWNER.matching("x"))))
			.containsExactlyInAnyOrder("a/one", "b/two");
		assertThat(names(this.cache.list(Gadget.class, "b", BY_OWNER.matching("x")))).containsExactly("b/two");
		this.cache.namespaces().set(List.of("a", "c"));
		assertThat(this.cache.namespaces().awaitSynced(WAIT)).isTrue();
		assertThat(names(this.cache.list(Gadget.class, null, BY_OWNER.matching("x"))))
			.containsExactlyInAnyOrder("a/one", "c/four");
	}

	@Test
	void anEmptySetCachesNothingAndReadsFindNothing() throws Exception {
		cache("a");
		this.api.listed.put("a", List.of(gadget("a", "one", "1", "x")));
		Informer<Gadget> informer = this.cache.informer(Gadget.class, null, null);
		start();
		this.cache.namespaces().set(List.of());
		assertThat(keys()).isEmpty();
		assertThat(informer.list()).isEmpty();
		assertThat(this.cache.list(Gadget.class, null)).isEmpty();
		assertThatIllegalStateException().isThrownBy(() -> this.cache.get(Gadget.class, Request.of("a", "one")))
			.withMessageContaining("unknown namespace for the cache");
		assertThat(this.cache.namespaces().awaitSynced(Duration.ZERO)).isTrue();
	}

	@Test
	void readsOfANamespaceNoInformerHoldsFailRatherThanFindNothing() throws Exception {
		cache("a", "b");
		this.cache.addIndex(BY_OWNER);
		this.api.listed.put("a", List.of(gadget("a", "one", "1", "x")));
		this.api.listed.put("b", List.of(gadget("b", "two", "2", "x")));
		this.api.listed.put("z", List.of(gadget("z", "three", "3", "x")));
		this.cache.informer(Gadget.class, null, null);
		// a namespace outside the set, asked for by name
		this.cache.informer(Gadget.class, "z", null);
		start();
		this.cache.namespaces().remove("b");
		List<ThrowingCallable> reads = List.of(() -> this.cache.get(Gadget.class, Request.of("b", "two")),
				() -> this.cache.list(Gadget.class, "b"),
				() -> this.cache.list(Gadget.class, "b", BY_OWNER.matching("x")),
				() -> this.cache.get(Gadget.class, Request.of("never", "two")));
		for (ThrowingCallable read : reads) {
			assertThatIllegalStateException().isThrownBy(read)
				.withMessageContaining("from the cache: no informer of the kind caches that namespace (unknown "
						+ "namespace for the cache). The manager watches [a]");
		}
		assertThat(this.cache.get(Gadget.class, Request.of("a", "one"))).isPresent();
		assertThat(this.cache.get(Gadget.class, Request.of("z", "three"))).isPresent();
		assertThat(this.cache.get(Gadget.class, Request.of("a", "absent"))).isEmpty();
		assertThat(names(this.cache.list(Gadget.class, null))).containsExactlyInAnyOrder("a/one", "z/three");
	}

	@Test
	void anInformerOfANamespaceAskedForByNameKeepsServingWhenTheNamespaceLeavesTheSet() throws Exception {
		cache("a", "b");
		this.api.listed.put("a", List.of(gadget("a", "one", "1", "x")));
		this.api.listed.put("b", List.of());
		Informer<Gadget> named = this.cache.informer(Gadget.class, "a", null);
		Informer<Gadget> following = this.cache.informer(Gadget.class, null, null);
		following.addEventHandler(recorder());
		start();
		assertThat(keys()).hasSize(2);
		await().atMost(WAIT).until(() -> this.events.contains("add a/one initial"));
		this.cache.namespaces().remove("a");
		// still registered: asked for by name
		assertThat(keys()).containsExactlyInAnyOrder(new InformerKey(Gadget.class, "a", null),
				new InformerKey(Gadget.class, "b", null));
		assertThat(names(named.list())).containsExactly("a/one");
		assertThat(following.list()).isEmpty();
		this.api.feed("a", event("MODIFIED", gadget("a", "one", "10", "y")));
		// the update reaches the forwarder, which hands it to no handler
		ScopedInformer<Gadget> member = (ScopedInformer<Gadget>) named;
		List<Forwarder<Gadget>> forwarders = ((NamespaceSetInformer<Gadget>) following).forwarders(member);
		assertThat(forwarders).hasSize(1);
		await().atMost(WAIT).until(() -> forwarders.get(0).dropped() == 1);
		assertThat(named.get("a", "one").orElseThrow().getMetadata().getResourceVersion()).isEqualTo("10");
		assertThat(this.events).doesNotContain("update a/one");
	}

	@Test
	void aNamespaceAlsoWatchedByNameLeavesAndJoinsAgainWithoutAddingListeners() throws Exception {
		cache("a", "b");
		this.api.listed.put("a", List.of(gadget("a", "one", "1", "x")));
		this.api.listed.put("b", List.of());
		this.cache.informer(Gadget.class, "a", null);
		Informer<Gadget> following = this.cache.informer(Gadget.class, null, null);
		following.addEventHandler(recorder());
		start();
		await().atMost(WAIT).until(() -> this.events.contains("add a/one initial"));
		long listeners = listenerThreads();
		for (int i = 2; i <= 21; i++) {
			this.cache.namespaces().remove("a");
			this.cache.namespaces().add("a");
			// each join hands the handler the namespace's objects again
			long joins = i;
			await().atMost(WAIT).until(() -> this.events.stream().filter("add a/one initial"::equals).count() == joins);
		}
		// through the listener it had: client-java's informers cannot take one back
		assertThat(listenerThreads()).isLessThanOrEqualTo(listeners);
		this.api.feed("a", event("MODIFIED", gadget("a", "one", "10", "y")));
		await().atMost(WAIT).until(() -> this.events.contains("update a/one"));
		assertThat(this.events).filteredOn("update a/one"::equals).hasSize(1);
	}

	@Test
	void aNamespaceRemovedDeliversNothingToHandlersOnceTheRemovalReturned() throws Exception {
		cache("a", "b");
		this.api.listed.put("a", List.of());
		this.api.listed.put("b", List.of());
		// asked for by name too, its informer goes on after the namespace left the set
		this.cache.informer(Gadget.class, "b", null);
		Informer<Gadget> informer = this.cache.informer(Gadget.class, null, null);
		CountDownLatch inside = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		List<String> delivered = new CopyOnWriteArrayList<>();
		informer.addEventHandler(new ResourceEventHandler<>() {

			@Override
			public void onAdd(Gadget gadget) {
				inside.countDown();
				try {
					release.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				delivered.add(name(gadget));
			}

			@Override
			public void onUpdate(Gadget oldGadget, Gadget gadget) {
			}

			@Override
			public void onDelete(Gadget gadget, boolean finalStateUnknown) {
			}

		});
		start();
		this.api.feed("b", event("ADDED", gadget("b", "late", "5", "x")));
		assertThat(inside.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		AtomicReference<List<String>> deliveredAtReturn = new AtomicReference<>();
		Thread removal = new Thread(() -> {
			this.cache.namespaces().remove("b");
			deliveredAtReturn.set(List.copyOf(delivered));
		});
		removal.start();
		// the removal returns, or waits for the event under way to reach the handler
		await().atMost(WAIT).until(() -> deliveredAtReturn.get() != null || waitsForDelivery(removal));
		release.countDown();
		removal.join(WAIT.toMillis());
		assertThat(deliveredAtReturn.get()).containsExactly("b/late");
	}

	@Test
	void anInformerOfAllNamespacesIsAskedForByNameWhateverTheSet() throws Exception {
		cache("a");
		this.api.listed.put("a", List.of(gadget("a", "one", "1", "x")));
		this.api.listed.put("", List.of(gadget("a", "one", "1", "x"), gadget("z", "two", "2", "x")));
		Informer<Gadget> everywhere = this.cache.informer(Gadget.class, Cache.ALL_NAMESPACES, null);
		Informer<Gadget> following = this.cache.informer(Gadget.class, null, null);
		start();
		assertThat(everywhere).isNotSameAs(following);
		assertThat(everywhere.key()).isEqualTo(new InformerKey(Gadget.class, null, null));
		assertThat(keys()).containsExactlyInAnyOrder(new InformerKey(Gadget.class, null, null),
				new InformerKey(Gadget.class, "a", null));
		assertThat(names(everywhere.list())).containsExactlyInAnyOrder("a/one", "z/two");
		assertThat(names(following.list())).containsExactly("a/one");
		assertThat(this.cache.get(Gadget.class, Request.of("z", "two"))).isPresent();
		// the set does not change it
		this.cache.namespaces().set(List.of());
		assertThat(names(everywhere.list())).containsExactlyInAnyOrder("a/one", "z/two");
		assertThat(this.cache.informer(Gadget.class, Cache.ALL_NAMESPACES, null)).isSameAs(everywhere);
	}

	@Test
	void aWriteRecordedWhileItsNamespaceLeavesTheSetIsForgottenWithIt() throws Exception {
		cache("a", "b");
		this.api.listed.put("a", List.of());
		this.api.listed.put("b", List.of());
		this.cache.informer(Gadget.class, null, null);
		start();
		Gadget written = new Gadget();
		written.setMetadata(new V1ObjectMeta().namespace("b").name("written").resourceVersion("99"));
		Thread removal = new Thread(() -> this.cache.namespaces().remove("b"));
		// a client's write of an object of b, recorded as b leaves the set
		this.cache.recordIfHeld(written, () -> {
			removal.start();
			await().atMost(WAIT).until(() -> removal.getState() == Thread.State.BLOCKED || !removal.isAlive());
			this.cache.writtenVersions().wrote(written);
		});
		removal.join(WAIT.toMillis());
		assertThat(this.cache.namespaces().current()).containsExactly("a");
		assertThat(this.cache.writtenVersions().inFlight()).isZero();
	}

	@Test
	void aClusterScopedKindHasOneInformerOfAllNamespacesWhateverTheSet() throws Exception {
		this.api.namespaced = false;
		cache("a", "b");
		this.api.listed.put("", List.of(gadget(null, "one", "1", "x")));
		Informer<Gadget> informer = this.cache.informer(Gadget.class, null, null);
		// before the kind is resolved, its informers are those of a namespaced kind
		assertThat(keys()).hasSize(2);
		start();
		assertThat(keys()).containsExactly(new InformerKey(Gadget.class, null, null));
		assertThat(names(informer.list())).containsExactly("one");
		assertThat(informer.hasSynced("b")).isTrue();
		this.cache.namespaces().add("c");
		assertThat(keys()).containsExactly(new InformerKey(Gadget.class, null, null));
		assertThat(this.cache.namespaceSetInformers()).singleElement()
			.satisfies((followed) -> assertThat(followed.members()).extracting(Informer::key)
				.containsExactly(new InformerKey(Gadget.class, null, null)));
	}

	@Test
	void aClusterScopedKindOfASetEmptiedBeforeTheStartIsWatchedOnceFromTheStart() throws Exception {
		this.api.namespaced = false;
		cache("a");
		this.api.listed.put("", List.of(gadget(null, "one", "1", "x")));
		this.cache.namespaces().set(List.of());
		Informer<Gadget> informer = this.cache.informer(Gadget.class, null, null);
		assertThat(keys()).isEmpty();
		start();
		assertThat(keys()).containsExactly(new InformerKey(Gadget.class, null, null));
		assertThat(names(informer.list())).containsExactly("one");
		this.cache.namespaces().add("b");
		assertThat(keys()).containsExactly(new InformerKey(Gadget.class, null, null));
	}

	@Test
	void concurrentChangesAreAppliedOneAtATimeAndNoneIsLost() throws Exception {
		cache("a");
		this.cache.informer(Gadget.class, null, null);
		List<Thread> changes = new ArrayList<>();
		CountDownLatch go = new CountDownLatch(1);
		for (int i = 0; i < 8; i++) {
			String namespace = "n" + i;
			changes.add(new Thread(() -> {
				try {
					go.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				this.cache.namespaces().add(namespace);
				if (namespace.equals("n0")) {
					this.cache.namespaces().remove("a");
				}
			}));
		}
		changes.forEach(Thread::start);
		go.countDown();
		for (Thread change : changes) {
			change.join(WAIT.toMillis());
		}
		assertThat(this.cache.namespaces().current()).containsExactly("n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7");
		assertThat(keys()).extracting(InformerKey::namespace)
			.containsExactlyInAnyOrder("n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7");
	}

	@Test
	void concurrentChangesOfARunningCacheWhileInformersAreAskedForGivenBackAndHandledAreAppliedWhole()
			throws Exception {
		cache("a");
		this.api.listed.put("a", List.of(gadget("a", "zero", "1", "x")));
		for (int i = 0; i < 8; i++) {
			this.api.listed.put("n" + i, List.of(gadget("n" + i, "one", "1", "x")));
		}
		Informer<Gadget> informer = this.cache.informer(Gadget.class, null, null);
		informer.addEventHandler(recorder());
		start();
		List<String> handled = new CopyOnWriteArrayList<>();
		List<Thread> threads = new ArrayList<>();
		CountDownLatch go = new CountDownLatch(1);
		for (int i = 0; i < 8; i++) {
			String namespace = "n" + i;
			threads.add(thread(go, () -> {
				this.cache.namespaces().add(namespace);
				if (namespace.equals("n0")) {
					this.cache.namespaces().remove("a");
				}
			}));
		}
		// another informer of the set asked for and given back, again and again
		threads.add(thread(go, () -> {
			for (int i = 0; i < 10; i++) {
				this.cache.release(this.cache.informer(Gadget.class, null, "owner=x"));
			}
		}));
		// a handler added while the members come and go
		threads.add(thread(go, () -> informer.addEventHandler(new ResourceEventHandler<>() {

			@Override
			public void onAdd(Gadget gadget) {
				handled.add(name(gadget));
			}

			@Override
			public void onUpdate(Gadget oldGadget, Gadget gadget) {
			}

			@Override
			public void onDelete(Gadget gadget, boolean finalStateUnknown) {
				handled.add("delete " + name(gadget));
			}

		})));
		go.countDown();
		for (Thread thread : threads) {
			thread.join(WAIT.toMillis());
		}
		List<String> members = List.of("n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7");
		assertThat(this.cache.namespaces().current()).containsExactlyElementsOf(members);
		assertThat(this.cache.keysOf(informer)).extracting(InformerKey::namespace).containsExactlyElementsOf(members);
		assertThat(this.cache.namespaces().awaitSynced(WAIT)).isTrue();
		List<String> objects = members.stream().map((namespace) -> namespace + "/one").toList();
		assertThat(names(informer.list())).containsExactlyInAnyOrderElementsOf(objects);
		await().atMost(WAIT)
			.until(() -> this.events.containsAll(objects.stream().map((name) -> "add " + name + " initial").toList())
					&& handled.containsAll(objects));
		assertThat(this.events).noneMatch((event) -> event.startsWith("delete"));
		assertThat(handled).noneMatch((event) -> event.startsWith("delete"));
	}

	private static Thread thread(CountDownLatch go, Runnable work) {
		Thread thread = new Thread(() -> {
			try {
				go.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			work.run();
		});
		thread.start();
		return thread;
	}

	@Test
	void aCacheOfAllNamespacesRefusesToChangeThem() throws Exception {
		cache();
		Informer<Gadget> informer = this.cache.informer(Gadget.class, null, null);
		assertThat(informer).isInstanceOf(ScopedInformer.class);
		assertThat(this.cache.namespaces().watchesAll()).isTrue();
		// reads of any namespace answer from the informer of all namespaces
		assertThat(this.cache.get(Gadget.class, Request.of("anywhere", "one"))).isEmpty();
		assertThatIllegalStateException().isThrownBy(() -> this.cache.namespaces().add("a"))
			.withMessageStartingWith("The manager watches all namespaces, which cannot change while it runs");
	}

	@Test
	void aNameThatIsNoNamespaceIsRefusedNamingIt() throws Exception {
		cache("a");
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> this.cache.namespaces().set(List.of("a", "Not_A_Namespace")))
			.satisfies((ex) -> assertThat(ex.violations()).singleElement()
				.satisfies((violation) -> assertThat(violation.setting()).isEqualTo("namespaces[1]")));
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> this.cache.namespaces().remove("a", null))
			.satisfies((ex) -> assertThat(ex.violations()).singleElement()
				.satisfies((violation) -> assertThat(violation.setting()).isEqualTo("namespaces[1]")));
		assertThat(this.cache.namespaces().current()).containsExactly("a");
	}

	@Test
	void anInformerOfOneNamespaceTellsItHasSyncedThatNamespaceOnly() throws Exception {
		cache("a");
		this.api.listed.put("a", List.of());
		this.api.listed.put("z", List.of());
		Informer<Gadget> named = this.cache.informer(Gadget.class, "z", null);
		start();
		assertThat(named.hasSynced("z")).isTrue();
		assertThat(named.hasSynced(null)).isTrue();
		assertThat(named.hasSynced("a")).isFalse();
	}

	@Test
	void noChangeIsAcceptedOnceTheCacheStopped() throws Exception {
		cache("a");
		this.cache.stop();
		assertThatIllegalStateException().isThrownBy(() -> this.cache.namespaces().add("b"))
			.withMessage("The manager stopped: its namespaces no longer change");
	}

	private void cache(String... namespaces) {
		this.cache = new InformerCache(this.api.client(), Duration.ZERO, true, Duration.ofMinutes(1),
				Duration.ofMinutes(3), 500, false, Map.of(), List.of(namespaces));
	}

	private void start() throws Exception {
		this.cache.resolveAll(WAIT);
		this.cache.start(null);
		this.cache.waitForSync(WAIT);
	}

	private static boolean waitsForDelivery(Thread thread) {
		return Arrays.stream(thread.getStackTrace())
			.anyMatch((frame) -> frame.getMethodName().equals("awaitDelivered"));
	}

	/**
	 * Counts client-java's listener threads, one per handler registered with a running
	 * informer.
	 */
	private static long listenerThreads() {
		return Thread.getAllStackTraces()
			.values()
			.stream()
			.filter((stack) -> Arrays.stream(stack)
				.anyMatch((frame) -> frame.getClassName()
					.equals("io.kubernetes.client.informer.cache.ProcessorListener")))
			.count();
	}

	private List<InformerKey> keys() {
		return this.cache.informers().stream().map(Informer::key).toList();
	}

	private InformerEventHandler<Gadget> recorder() {
		return new InformerEventHandler<>() {

			@Override
			public void onAdd(Gadget gadget, boolean inInitialList) {
				NamespaceSetInformerTests.this.events
					.add("add " + name(gadget) + (inInitialList ? " initial" : " change"));
			}

			@Override
			public void onUpdate(Gadget oldGadget, Gadget gadget) {
				NamespaceSetInformerTests.this.events.add("update " + name(gadget));
			}

			@Override
			public void onDelete(Gadget gadget, boolean finalStateUnknown) {
				NamespaceSetInformerTests.this.events.add("delete " + name(gadget));
			}

		};
	}

	private static List<String> names(List<Gadget> gadgets) {
		return gadgets.stream().map(NamespaceSetInformerTests::name).toList();
	}

	private static String name(Gadget gadget) {
		String namespace = gadget.getMetadata().getNamespace();
		return ((namespace != null) ? namespace + "/" : "") + gadget.getMetadata().getName();
	}

}
