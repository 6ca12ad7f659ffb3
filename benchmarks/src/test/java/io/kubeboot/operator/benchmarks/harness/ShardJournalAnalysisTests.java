package io.kubeboot.operator.benchmarks.harness;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.kubeboot.operator.benchmarks.chaos.ReconcileJournal.Entry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ShardJournalAnalysisTests {

	@Test
	void anObjectHandedOverAfterTheLastReconcileEndedPasses() {
		ShardJournalAnalysis analysis = ShardJournalAnalysis.analyse(Map.of("r1", journal("""
				200 r1 - START chaos/a 1 5 1
				300 r1 - END chaos/a 1 wrote
				310 r1 - START chaos/b 2 5 1
				340 r1 - END chaos/b 2 skip
				"""), "r2", journal("""
				300 r2 - START chaos/a 1 5 1
				350 r2 - END chaos/a 1 skip
				350 r2 - START chaos/b 2 5 1
				360 r2 - END chaos/b 2 skip
				""")), Map.of());
		assertThat(analysis.passed()).as(analysis.evidence().toString()).isTrue();
		assertThat(analysis.reconciles()).isEqualTo(4);
		assertThat(analysis.writes()).isEqualTo(1);
		assertThat(analysis.acrossReplicas()).isZero();
		assertThat(analysis.withinReplica()).isZero();
	}

	@Test
	void aReplicaStartingAnObjectBeforeAnotherEndedItFails() {
		ShardJournalAnalysis analysis = ShardJournalAnalysis.analyse(Map.of("r1", journal("""
				200 r1 - START chaos/a 1 5 1
				300 r1 - END chaos/a 1 skip
				"""), "r2", journal("""
				100 r2 - START chaos/b 1 5 1
				150 r2 - END chaos/b 1 skip
				280 r2 - START chaos/a 2 5 1
				320 r2 - END chaos/a 2 skip
				""")), Map.of());
		assertThat(analysis.passed()).isFalse();
		assertThat(analysis.acrossReplicas()).isEqualTo(1);
		assertThat(analysis.withinReplica()).isZero();
		assertThat(analysis.maxOverlapMicros()).isEqualTo(20);
		assertThat(analysis.evidence()).singleElement()
			.asString()
			.startsWith("two reconciles of one object at once: 20 µs")
			.contains("200 r1 - START chaos/a 1 5 1 ... 300 r1 - END chaos/a 1 skip")
			.contains("280 r2 - START chaos/a 2 5 1");
	}

	@Test
	void aReconcileOfAKilledReplicaLastsUntilItWasSeenGone() {
		Map<String, List<Entry>> journals = Map.of("r1", journal("""
				200 r1 - START chaos/a 1 5 1
				"""), "r2", journal("""
				1000 r2 - START chaos/a 1 5 1
				1100 r2 - END chaos/a 1 skip
				"""));
		ShardJournalAnalysis takenOverAfter = ShardJournalAnalysis.analyse(journals, Map.of("r1", 900L));
		assertThat(takenOverAfter.passed()).isTrue();
		assertThat(takenOverAfter.cutShort()).isEqualTo(1);
		ShardJournalAnalysis takenOverBefore = ShardJournalAnalysis.analyse(journals, Map.of("r1", 1050L));
		assertThat(takenOverBefore.passed()).isFalse();
		assertThat(takenOverBefore.acrossReplicas()).isEqualTo(1);
		assertThat(takenOverBefore.maxOverlapMicros()).isEqualTo(50);
		ShardJournalAnalysis stillRunning = ShardJournalAnalysis.analyse(journals, Map.of());
		assertThat(stillRunning.acrossReplicas()).isEqualTo(1);
	}

	@Test
	void twoReconcilesOfAnObjectAtOnceInOneReplicaAreNoCrossReplicaOverlapButFail() {
		ShardJournalAnalysis analysis = ShardJournalAnalysis.analyse(Map.of("r1", journal("""
				200 r1 - START chaos/a 1 5 1
				210 r1 - START chaos/a 2 5 1
				300 r1 - END chaos/a 1 skip
				310 r1 - END chaos/a 2 error:ApiException
				""")), Map.of());
		assertThat(analysis.acrossReplicas()).isZero();
		assertThat(analysis.withinReplica()).isEqualTo(1);
		assertThat(analysis.failed()).isEqualTo(1);
		assertThat(analysis.passed()).isFalse();
	}

	private static List<Entry> journal(String lines) {
		return Arrays.stream(lines.split("\n")).map(String::strip).map(Entry::parse).toList();
	}

}
