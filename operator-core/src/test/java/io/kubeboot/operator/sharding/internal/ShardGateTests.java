package io.kubeboot.operator.sharding.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;

import io.kubeboot.operator.sharding.internal.ShardGate.Claims;
import io.kubeboot.operator.sharding.internal.ShardGate.Permits;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ShardGateTests {

	private static final List<String> KEYS = IntStream.range(0, 300)
		.mapToObj((i) -> HashRing.key("example.com", "Widget", "default", "w-" + i))
		.toList();

	private static final HashRing AB = ring("a", "b");

	private static final HashRing ABC = ring("a", "b", "c");

	private static final HashRing A = ring("a");

	private final AtomicBoolean leaseValid = new AtomicBoolean(true);

	private final ShardGate gate = new ShardGate("a", this.leaseValid::get);

	@Test
	void permitsNothingBeforeItsAcknowledgementWasWrittenAndTheOthersReadAfterIt() {
		this.gate.observe(AB, new Claims(Map.of("b", AB), null), this.gate.epoch(), true);
		assertThat(permitted()).isEmpty();
		this.gate.pending(AB);
		assertThat(permitted()).isEmpty();
		this.gate.published(AB);
		assertThat(permitted()).as("the others were read before the acknowledgement was written").isEmpty();
		this.gate.observe(AB, new Claims(Map.of("b", AB), AB), this.gate.epoch(), true);
		assertThat(permitted()).isNotEmpty().allMatch((key) -> "a".equals(AB.owner(key)));
		assertThat(permitted()).hasSize(owned(AB, "a").size());
	}

	@Test
	void aNewMemberNarrowsThePermittedKeysAtOnceAndTheDrainWaitsForReconcilesInFlight() {
		settle(AB, Map.of("b", AB));
		String moving = owned(AB, "a").stream().filter((key) -> "c".equals(ABC.owner(key))).findFirst().orElseThrow();
		assertThat(this.gate.enter(moving)).isTrue();
		this.gate.observe(ABC, new Claims(Map.of("b", AB), AB), this.gate.epoch(), true);
		assertThat(this.gate.permits(moving)).isFalse();
		assertThat(this.gate.enter(moving)).isFalse();
		assertThat(this.gate.drainedFor(ABC)).isFalse();
		this.gate.exit(moving);
		assertThat(this.gate.drainedFor(ABC)).isTrue();
	}

	@Test
	void aHeldKeyKeepsAViewThatMovesItUnacknowledgedInBothModesUntilGivenBack() throws InterruptedException {
		settle(AB, Map.of("b", AB));
		String moving = owned(AB, "a").stream().filter((key) -> "c".equals(ABC.owner(key))).findFirst().orElseThrow();
		String staying = owned(AB, "a").stream().filter((key) -> "a".equals(ABC.owner(key))).findFirst().orElseThrow();
		assertThat(this.gate.hold(moving)).isTrue();
		assertThat(this.gate.hold(staying)).isTrue();
		this.gate.observe(ABC, new Claims(Map.of("b", AB), AB), this.gate.epoch(), true);
		assertThat(this.gate.hold(moving)).isFalse();
		assertThat(this.gate.drainedFor(ABC)).isFalse();
		assertThat(this.gate.heldDrainedFor(ABC)).isFalse();
		assertThat(this.gate.awaitIdle(Duration.ofMillis(10))).isFalse();
		this.gate.unhold(moving);
		assertThat(this.gate.drainedFor(ABC)).isTrue();
		assertThat(this.gate.heldDrainedFor(ABC)).isTrue();
		assertThat(this.gate.awaitIdle(Duration.ofMillis(10))).as("a key still held").isFalse();
		this.gate.unhold(staying);
		assertThat(this.gate.awaitIdle(Duration.ofMillis(10))).isTrue();
	}

	@Test
	void aReconcileInFlightOfAKeyThatIsNoRingKeyDoesNotHoldTheLabelBasedAcknowledgement() {
		settle(AB, Map.of("b", AB));
		assertThat(this.gate.enterOpen("label-key-of-any-member")).isTrue();
		assertThat(this.gate.heldDrainedFor(ABC)).isTrue();
		this.gate.exit("label-key-of-any-member");
	}

	@Test
	void keysOfALeavingMemberArePermittedOnlyOnceItsAcknowledgementNoLongerClaimsThem() {
		settle(AB, Map.of("b", AB));
		List<String> ofB = owned(AB, "b");
		// b is gone from the view, but its Lease still claims its keys
		this.gate.observe(A, new Claims(Map.of("b", AB), AB), this.gate.epoch(), true);
		this.gate.pending(A);
		this.gate.published(A);
		this.gate.observe(A, new Claims(Map.of("b", AB), A), this.gate.epoch(), true);
		assertThat(permitted()).doesNotContainAnyElementsOf(ofB);
		// b released its Lease (or it expired): it claims nothing
		this.gate.observe(A, new Claims(Map.of(), A), this.gate.epoch(), true);
		assertThat(permitted()).containsAll(ofB).hasSize(KEYS.size());
	}

	@Test
	void aWiderAcknowledgementPermitsItsNewKeysOnlyAfterAFreshReadOfTheOthers() {
		settle(AB, Map.of("b", AB));
		this.gate.observe(A, new Claims(Map.of(), AB), this.gate.epoch(), true);
		this.gate.pending(A);
		this.gate.published(A);
		assertThat(permitted()).as("read before the wider acknowledgement was written").hasSize(owned(AB, "a").size());
		this.gate.observe(A, new Claims(Map.of(), A), this.gate.epoch(), true);
		assertThat(permitted()).hasSize(KEYS.size());
	}

	@Test
	void aLeasePastItsRenewDeadlinePermitsNothing() {
		settle(AB, Map.of("b", AB));
		String mine = owned(AB, "a").get(0);
		this.leaseValid.set(false);
		assertThat(this.gate.permits(mine)).isFalse();
		assertThat(this.gate.enter(mine)).isFalse();
	}

	@Test
	void listenersHearTheKeysGained() {
		settle(AB, Map.of("b", AB));
		List<Permits[]> changes = new ArrayList<>();
		this.gate.addListener((before, after) -> changes.add(new Permits[] { before, after }));
		this.gate.observe(A, new Claims(Map.of(), AB), this.gate.epoch(), true);
		this.gate.pending(A);
		this.gate.published(A);
		this.gate.observe(A, new Claims(Map.of(), A), this.gate.epoch(), true);
		Permits[] last = changes.get(changes.size() - 1);
		List<String> gained = KEYS.stream().filter((key) -> !last[0].test(key) && last[1].test(key)).toList();
		assertThat(gained).containsExactlyInAnyOrderElementsOf(owned(AB, "b"));
	}

	@Test
	void closedItPermitsNothingAndAwaitIdleWaitsForTheLastReconcile() throws InterruptedException {
		settle(AB, Map.of("b", AB));
		String mine = owned(AB, "a").get(0);
		assertThat(this.gate.enter(mine)).isTrue();
		this.gate.close();
		assertThat(permitted()).isEmpty();
		assertThat(this.gate.awaitIdle(Duration.ofMillis(10))).isFalse();
		this.gate.exit(mine);
		assertThat(this.gate.awaitIdle(Duration.ofMillis(10))).isTrue();
	}

	@Test
	void aSuspendedGatePermitsNothingUntilAReadBegunWhileTheLeaseWasHeldAgain() {
		settle(AB, Map.of("b", AB));
		long before = this.gate.epoch();
		this.gate.suspend();
		// what was permitted is kept, for the workers to tell their keys from others'
		assertThat(this.gate.snapshot().test(owned(AB, "a").get(0))).isTrue();
		assertThat(this.gate.countsSelf()).isTrue();
		assertThat(permitted()).isEmpty();
		assertThat(this.gate.isOpen()).isFalse();
		assertThat(this.gate.enterOpen(owned(AB, "a").get(0))).isFalse();
		// begun before the Lease was lost: not applied
		assertThat(this.gate.observe(AB, new Claims(Map.of("b", AB), AB), before, true)).isFalse();
		assertThat(permitted()).isEmpty();
		// begun while the Lease was not held: applied, still suspended
		assertThat(this.gate.observe(AB, new Claims(Map.of("b", AB), AB), this.gate.epoch(), false)).isTrue();
		assertThat(permitted()).isEmpty();
		// begun once the Lease was held again
		assertThat(this.gate.observe(AB, new Claims(Map.of("b", AB), AB), this.gate.epoch(), true)).isTrue();
		assertThat(permitted()).isEqualTo(owned(AB, "a"));
		assertThat(this.gate.isOpen()).isTrue();
	}

	@Test
	void aReadBegunBeforeTheGateClosedIsNotApplied() {
		settle(AB, Map.of("b", AB));
		long before = this.gate.epoch();
		this.gate.close();
		assertThat(this.gate.observe(AB, new Claims(Map.of("b", AB), AB), before, true)).isFalse();
		assertThat(this.gate.target()).isNull();
		assertThat(this.gate.countsSelf()).isFalse();
		assertThat(permitted()).isEmpty();
	}

	@Test
	void aViewWithoutThisReplicaDoesNotCountIt() {
		settle(AB, Map.of("b", AB));
		assertThat(this.gate.countsSelf()).isTrue();
		HashRing b = ring("b");
		this.gate.observe(b, new Claims(Map.of("b", AB), AB), this.gate.epoch(), true);
		assertThat(this.gate.countsSelf()).isFalse();
		assertThat(permitted()).isEmpty();
	}

	private void settle(HashRing view, Map<String, HashRing> others) {
		this.gate.observe(view, new Claims(others, null), this.gate.epoch(), true);
		this.gate.pending(view);
		this.gate.published(view);
		this.gate.observe(view, new Claims(others, view), this.gate.epoch(), true);
	}

	private List<String> permitted() {
		return KEYS.stream().filter(this.gate::permits).toList();
	}

	private static List<String> owned(HashRing ring, String member) {
		return KEYS.stream().filter((key) -> member.equals(ring.owner(key))).toList();
	}

	private static HashRing ring(String... members) {
		return new HashRing(List.of(members), 100);
	}

}
