package io.kubeboot.operator.sharding.internal;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.jetbrains.lincheck.datastructures.BooleanGen;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * {@link ShardGate} checked for linearizability by Lincheck: what {@code permits} (read
 * without the gate's lock, by {@code ShardRing.owns} and the controllers' counts) and
 * {@code enter} answer while reads of the ring are applied, the Lease is lost and the
 * gate closes is what some order of the same calls on one thread answers. Two views of a
 * ring of this replica and one other, and two keys: one the two-member ring gives this
 * replica, one it gives the other.
 */
@Param(name = "key", gen = IntGen.class, conf = "0:1")
@Param(name = "view", gen = IntGen.class, conf = "0:1")
@Param(name = "epoch", gen = IntGen.class, conf = "0:1")
@Param(name = "flag", gen = BooleanGen.class)
public class ShardGateLinearizabilityTests {

	private static final String SELF = "self";

	private static final HashRing ALONE = new HashRing(List.of(SELF), 8);

	private static final HashRing WITH_OTHER = new HashRing(List.of(SELF, "other"), 8);

	private static final List<HashRing> VIEWS = List.of(ALONE, WITH_OTHER);

	/** A key the two-member ring gives this replica, and one it gives the other. */
	private static final List<String> KEYS = List.of(keyOwnedBy(SELF), keyOwnedBy("other"));

	private final ShardGate gate = new ShardGate(SELF, () -> true);

	/**
	 * Starts where races matter: this replica alone in the ring, that view read and
	 * published, so every key is permitted.
	 */
	public ShardGateLinearizabilityTests() {
		this.gate.observe(ALONE, new ShardGate.Claims(Map.of(), ALONE), 0, true);
		this.gate.published(ALONE);
	}

	@Operation
	public boolean permits(@Param(name = "key") int key) {
		return this.gate.permits(KEYS.get(key));
	}

	@Operation
	public boolean enter(@Param(name = "key") int key) {
		return this.gate.enter(KEYS.get(key));
	}

	@Operation
	public void exit(@Param(name = "key") int key) {
		this.gate.exit(KEYS.get(key));
	}

	@Operation
	public boolean drainedFor(@Param(name = "view") int view) {
		return this.gate.drainedFor(VIEWS.get(view));
	}

	/**
	 * Applies a read of the ring: the view read, whether the other member claims the
	 * two-member view, the epoch the read began in and whether the Lease was held then.
	 */
	@Operation
	public boolean observe(@Param(name = "view") int view, @Param(name = "flag") boolean otherClaims,
			@Param(name = "epoch") int epoch, @Param(name = "flag") boolean leaseHeld) {
		Map<String, HashRing> others = otherClaims ? Map.of("other", WITH_OTHER) : Map.of();
		return this.gate.observe(VIEWS.get(view), new ShardGate.Claims(others, VIEWS.get(view)), epoch, leaseHeld);
	}

	@Operation
	public void published(@Param(name = "view") int view) {
		this.gate.published(VIEWS.get(view));
	}

	@Operation
	public void pending(@Param(name = "view") int view) {
		this.gate.pending(VIEWS.get(view));
	}

	@Operation
	public void suspend() {
		this.gate.suspend();
	}

	@Operation
	public void close() {
		this.gate.close();
	}

	@Operation
	public boolean isOpen() {
		return this.gate.isOpen();
	}

	@Test
	void everyInterleavingOfSmallScenariosIsLinearizable() {
		new ModelCheckingOptions().iterations(20).invocationsPerIteration(150).check(getClass());
	}

	@Test
	void concurrentRunsOnRealThreadsAreLinearizable() {
		new StressOptions().iterations(20).invocationsPerIteration(1_000).check(getClass());
	}

	private static String keyOwnedBy(String member) {
		return IntStream.range(0, 1_000)
			.mapToObj((i) -> "key-" + i)
			.filter((key) -> member.equals(WITH_OTHER.owner(key)))
			.findFirst()
			.orElseThrow();
	}

}
