package io.kubeboot.operator.sharding.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;

import io.kubeboot.operator.sharding.internal.ShardGate.Claims;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The drain handshake under random interleavings: members join, leave gracefully, read
 * the ring, write their acknowledgements and start and end reconciles in random order,
 * against a store that is read and written atomically (as the API server's consistent
 * reads and writes are). A member may also lose its Lease (its fence closes and, as
 * {@code ShardMember} does, its gate is suspended), see it expire in the others' eyes
 * once its reconciles ended, and take it again; a read of the ring may begin before such
 * a change and be applied after it; and a member counts itself in its own view all along
 * (the worst case: {@code ShardMember} does until a lease duration after its last
 * renewal). No key may ever be in flight on two members at once, and once the ring
 * settles every key is permitted to exactly one member.
 */
class ShardProtocolSimulationTests {

	private static final List<String> KEYS = IntStream.range(0, 40)
		.mapToObj((i) -> HashRing.key("", "ConfigMap", "default", "object-" + i))
		.toList();

	private static final List<String> NAMES = List.of("a", "b", "c", "d");

	@Test
	void noKeyIsEverInFlightOnTwoMembersAndTheSettledRingPermitsEachKeyOnce() {
		for (int seed = 0; seed < 300; seed++) {
			new Simulation(new Random(seed)).run(3000);
		}
	}

	private static final class Simulation {

		private final Random random;

		/** The store: each live member's written acknowledgement ({@code null}: none). */
		private final Map<String, HashRing> leases = new HashMap<>();

		/** The Leases the others count expired (their holders lost them). */
		private final Set<String> expired = new HashSet<>();

		private final Map<String, Member> members = new HashMap<>();

		Simulation(Random random) {
			this.random = random;
			NAMES.forEach((name) -> this.members.put(name, new Member(name)));
		}

		void run(int steps) {
			join(this.members.get("a"));
			for (int step = 0; step < steps; step++) {
				Member member = this.members.get(NAMES.get(this.random.nextInt(NAMES.size())));
				switch (this.random.nextInt(14)) {
					case 0 -> {
						if (!member.live && this.random.nextInt(3) == 0) {
							join(member);
						}
					}
					case 1 -> {
						if (member.live && this.random.nextInt(3) == 0) {
							member.leaving = true;
							member.gate.close();
						}
					}
					case 2, 3 -> observe(member);
					case 4 -> write(member);
					case 5, 6, 7 -> enter(member, KEYS.get(this.random.nextInt(KEYS.size())));
					case 8 -> exit(member);
					case 9 -> beginRead(member);
					case 10 -> endRead(member);
					case 11 -> lose(member);
					case 12 -> expire(member);
					default -> reacquire(member);
				}
				if (member.leaving && member.inFlight.isEmpty()) {
					this.leases.remove(member.name);
					this.expired.remove(member.name);
					member.reset();
				}
			}
			// settle: finish everything in flight, then let every live member read and
			// write until nothing changes
			this.members.values().forEach((member) -> new ArrayList<>(member.inFlight).forEach((key) -> {
				member.inFlight.remove(key);
				member.gate.exit(key);
			}));
			this.members.values().stream().filter((member) -> member.leaving).forEach((member) -> {
				this.leases.remove(member.name);
				this.expired.remove(member.name);
				member.reset();
			});
			this.members.values().forEach((member) -> {
				member.read = null;
				reacquire(member);
			});
			if (this.members.values().stream().noneMatch((member) -> member.live)) {
				join(this.members.get("a"));
			}
			for (int round = 0; round < 4; round++) {
				this.members.values().forEach(this::observe);
				this.members.values().forEach(this::write);
			}
			this.members.values().forEach(this::observe);
			for (String key : KEYS) {
				long permitted = this.members.values().stream().filter((member) -> member.gate.permits(key)).count();
				assertThat(permitted).as("members permitted %s", key).isEqualTo(1);
			}
		}

		private void join(Member member) {
			member.live = true;
			member.leader = true;
			member.fenceOpen = true;
			this.leases.put(member.name, null);
		}

		private void observe(Member member) {
			if (member.read == null) {
				beginRead(member);
				endRead(member);
			}
		}

		/**
		 * Reads the store as {@code ShardMember} does when a read begins: the gate's
		 * epoch and published acknowledgement, whether this member holds its Lease, and
		 * the live members' claims.
		 */
		private void beginRead(Member member) {
			// one read at a time, as ShardMember's observer thread makes them
			if (!member.live || member.read != null) {
				return;
			}
			Map<String, HashRing> claims = new HashMap<>();
			Set<String> live = new HashSet<>();
			this.leases.forEach((name, ack) -> {
				if (!name.equals(member.name) && !this.expired.contains(name)) {
					live.add(name);
					if (ack != null) {
						claims.put(name, ack);
					}
				}
			});
			if (!member.leaving) {
				live.add(member.name);
			}
			member.read = new Read(new HashRing(live, 20), new Claims(claims, member.gate.published()),
					member.gate.epoch(), member.leader);
		}

		/**
		 * Applies a read begun earlier, as {@code ShardMember} does when its answer
		 * comes.
		 */
		private void endRead(Member member) {
			Read read = member.read;
			member.read = null;
			if (!member.live || read == null) {
				return;
			}
			if (member.leaving) {
				member.gate.close();
				return;
			}
			if (member.gate.observe(read.view(), read.claims(), read.epoch(), read.leaseHeld())
					&& !read.view().equals(member.gate.pending()) && member.gate.drainedFor(read.view())) {
				member.gate.pending(read.view());
			}
		}

		/**
		 * The renew deadline passed: the fence closes, the elector counts the Lease lost
		 * and the gate is suspended.
		 */
		private void lose(Member member) {
			if (!member.live || member.leaving || !member.leader) {
				return;
			}
			member.fenceOpen = false;
			member.leader = false;
			member.gate.suspend();
		}

		/**
		 * The others count a lost Lease expired, a lease duration after its last renewal:
		 * by then the reconciles in flight at the renew deadline ended (the lease
		 * duration leaves them that long).
		 */
		private void expire(Member member) {
			if (member.live && !member.leader && member.inFlight.isEmpty()) {
				this.expired.add(member.name);
			}
		}

		/**
		 * The member takes its Lease again, writing its pending acknowledgement as every
		 * write of the Lease does; the fence opens.
		 */
		private void reacquire(Member member) {
			if (!member.live || member.leader || member.leaving) {
				return;
			}
			this.expired.remove(member.name);
			this.leases.put(member.name, member.gate.pending());
			if (member.gate.pending() != null) {
				member.gate.published(member.gate.pending());
			}
			member.leader = true;
			member.fenceOpen = true;
		}

		private void write(Member member) {
			HashRing pending = member.gate.pending();
			if (member.live && member.leader && pending != null) {
				this.leases.put(member.name, pending);
				member.gate.published(pending);
			}
		}

		private void enter(Member member, String key) {
			if (member.inFlight.contains(key) || !member.gate.enter(key)) {
				return;
			}
			for (Member other : this.members.values()) {
				assertThat(other == member || !other.inFlight.contains(key))
					.as("%s entered %s while %s had it in flight", member.name, key, other.name)
					.isTrue();
			}
			member.inFlight.add(key);
		}

		private void exit(Member member) {
			if (member.inFlight.isEmpty()) {
				return;
			}
			String key = member.inFlight.remove(this.random.nextInt(member.inFlight.size()));
			member.gate.exit(key);
		}

	}

	private static final class Member {

		private final String name;

		private ShardGate gate;

		private final List<String> inFlight = new ArrayList<>();

		private boolean live;

		private boolean leaving;

		private boolean leader;

		private volatile boolean fenceOpen;

		private Read read;

		Member(String name) {
			this.name = name;
			this.gate = new ShardGate(name, () -> this.fenceOpen);
		}

		void reset() {
			this.gate = new ShardGate(this.name, () -> this.fenceOpen);
			this.live = false;
			this.leaving = false;
			this.leader = false;
			this.fenceOpen = false;
			this.read = null;
		}

	}

	/**
	 * A read of the ring begun and not yet applied, with whether the member held its
	 * Lease when it began.
	 */
	private record Read(HashRing view, Claims claims, long epoch, boolean leaseHeld) {
	}

}
