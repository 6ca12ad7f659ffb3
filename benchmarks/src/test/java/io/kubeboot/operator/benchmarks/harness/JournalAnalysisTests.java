package io.kubeboot.operator.benchmarks.harness;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.kubeboot.operator.benchmarks.chaos.ReconcileJournal.Entry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JournalAnalysisTests {

	@Test
	void handOverAfterTheLastReconcilePasses() {
		JournalAnalysis analysis = JournalAnalysis.analyse(Map.of("r1", journal("""
				100 r1 r1#1 LEAD
				110 r1 r1#1 TERM 0 r1
				200 r1 r1#1 START ns/a 1 5 1
				300 r1 r1#1 END ns/a 1 wrote
				"""), "r2", journal("""
				1000 r2 r2#1 LEAD
				1010 r2 r2#1 TERM 1 r2
				1100 r2 r2#1 START ns/a 1 6 2
				1200 r2 r2#1 END ns/a 1 wrote
				""")), Map.of("r1", 500L), Map.of(0, Set.of("r1"), 1, Set.of("r2")));
		assertThat(analysis.passed()).as(analysis.evidence().toString()).isTrue();
		assertThat(analysis.reconciles()).isEqualTo(2);
		assertThat(analysis.writes()).isEqualTo(2);
		assertThat(analysis.terms()).isEqualTo(2);
		assertThat(analysis.leaders()).isEqualTo(2);
		assertThat(analysis.minTermGapMicros()).isEqualTo(800);
	}

	@Test
	void reconcileOfAKilledReplicaLastsUntilItWasSeenGone() {
		JournalAnalysis analysis = JournalAnalysis.analyse(Map.of("r1", journal("""
				100 r1 r1#1 LEAD
				200 r1 r1#1 START ns/a 1 5 1
				"""), "r2", journal("""
				1000 r2 r2#1 LEAD
				1100 r2 r2#1 START ns/a 1 6 2
				1200 r2 r2#1 END ns/a 1 wrote
				""")), Map.of("r1", 1150L), Map.of());
		assertThat(analysis.cutShort()).isEqualTo(1);
		assertThat(analysis.objectOverlaps()).isEqualTo(1);
		assertThat(analysis.maxObjectOverlapMicros()).isEqualTo(50);
		assertThat(analysis.termOverlaps()).isEqualTo(1);
		assertThat(analysis.passed()).isFalse();
		assertThat(analysis.evidence()).anyMatch((line) -> line.startsWith("two reconciles of one object at once")
				&& line.contains("200 r1 r1#1 START ns/a 1 5 1 ... process gone at 1150"));
	}

	@Test
	void reconcilesOfDifferentObjectsInTwoTermsAtOnceAreATermOverlap() {
		JournalAnalysis analysis = JournalAnalysis.analyse(Map.of("r1", journal("""
				200 r1 r1#1 START ns/a 1 5 1
				300 r1 r1#1 END ns/a 1 wrote
				"""), "r2", journal("""
				250 r2 r2#1 START ns/b 1 6 2
				260 r2 r2#1 END ns/b 1 skip
				""")), Map.of(), Map.of());
		assertThat(analysis.objectOverlaps()).isZero();
		assertThat(analysis.termOverlaps()).isEqualTo(1);
		assertThat(analysis.maxTermOverlapMicros()).isEqualTo(10);
	}

	@Test
	void twoReconcilesOfOneObjectInOneReplicaAtOnceAreFound() {
		JournalAnalysis analysis = JournalAnalysis.analyse(Map.of("r1", journal("""
				200 r1 r1#1 START ns/a 1 5 1
				210 r1 r1#1 START ns/a 2 5 1
				300 r1 r1#1 END ns/a 1 wrote
				310 r1 r1#1 END ns/a 2 error:ApiServerException
				""")), Map.of(), Map.of());
		assertThat(analysis.objectOverlaps()).isEqualTo(1);
		assertThat(analysis.failed()).isEqualTo(1);
		assertThat(analysis.termOverlaps()).isZero();
	}

	@Test
	void oneLeaseTermHeldByTwoReplicasIsFound() {
		JournalAnalysis fromJournals = JournalAnalysis.analyse(Map.of("r1", journal("""
				100 r1 r1#1 LEAD
				110 r1 r1#1 TERM 3 r1
				"""), "r2", journal("""
				1000 r2 r2#1 LEAD
				1010 r2 r2#1 TERM 3 r2
				""")), Map.of(), Map.of());
		assertThat(fromJournals.sharedTransitions()).isEqualTo(1);
		JournalAnalysis fromTheLease = JournalAnalysis.analyse(Map.of(), Map.of(), Map.of(3, Set.of("r1", "r2")));
		assertThat(fromTheLease.sharedTransitions()).isEqualTo(1);
		assertThat(fromTheLease.passed()).isFalse();
	}

	@Test
	void reElectedReplicaKeepingItsLeaseTermIsNoSecondLeader() {
		JournalAnalysis analysis = JournalAnalysis.analyse(Map.of("r1", journal("""
				100 r1 r1#1 LEAD
				110 r1 r1#1 TERM 3 r1
				200 r1 r1#1 UNLEAD true
				300 r1 r1#2 LEAD
				310 r1 r1#2 TERM 3 r1
				""")), Map.of(), Map.of());
		assertThat(analysis.passed()).isTrue();
		assertThat(analysis.terms()).isEqualTo(2);
	}

	@Test
	void reconcileOutsideATermIsFound() {
		JournalAnalysis analysis = JournalAnalysis.analyse(Map.of("r1", journal("""
				200 r1 - START ns/a 1 5 1
				300 r1 - END ns/a 1 wrote
				""")), Map.of(), Map.of());
		assertThat(analysis.outsideTerm()).isEqualTo(1);
		assertThat(analysis.passed()).isFalse();
	}

	private static List<Entry> journal(String lines) {
		return Arrays.stream(lines.split("\n")).map(String::strip).map(Entry::parse).toList();
	}

}
