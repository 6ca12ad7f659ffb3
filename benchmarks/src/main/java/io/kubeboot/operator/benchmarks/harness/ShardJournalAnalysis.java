package io.kubeboot.operator.benchmarks.harness;

import java.util.List;
import java.util.Map;

import io.kubeboot.operator.benchmarks.chaos.ReconcileJournal.Entry;
import io.kubeboot.operator.benchmarks.harness.Reconciles.Overlaps;

/**
 * Checks the journals of every replica of a sharding run: that no object was ever
 * reconciled by two replicas at once (a reconcile beginning in one replica before another
 * replica's reconcile of the same object had ended), nor twice at once in one replica. A
 * reconcile that began but never ended (its replica was killed) is taken to have run
 * until the process was seen gone ({@link Reconciles}).
 *
 * @param reconciles reconciles begun
 * @param writes reconciles that wrote the status
 * @param failed reconciles that ended with an exception
 * @param cutShort reconciles whose process died before they ended
 * @param acrossReplicas reconciles that began while another replica's reconcile of the
 * same object ran
 * @param withinReplica reconciles that began while a reconcile of the same object ran in
 * the same replica
 * @param maxOverlapMicros the longest overlap of either kind
 * @param evidence up to {@value Evidence#LIMIT} overlaps, with the journal lines
 */
record ShardJournalAnalysis(long reconciles, long writes, long failed, long cutShort, long acrossReplicas,
		long withinReplica, long maxOverlapMicros, List<String> evidence) {

	/**
	 * Whether no two reconciles of one object ever ran at once.
	 * @return whether nothing was violated
	 */
	boolean passed() {
		return this.acrossReplicas == 0 && this.withinReplica == 0;
	}

	/**
	 * Analyses the journals.
	 * @param journals the entries of every replica's journal, by replica
	 * @param diedAt when each replica was seen gone, in epoch microseconds ({@code -1} or
	 * absent if it still runs)
	 * @return the analysis
	 */
	static ShardJournalAnalysis analyse(Map<String, List<Entry>> journals, Map<String, Long> diedAt) {
		Evidence evidence = new Evidence();
		Reconciles reconciles = Reconciles.of(journals, diedAt);
		Overlaps overlaps = reconciles.objectOverlaps(evidence);
		return new ShardJournalAnalysis(reconciles.count(), reconciles.writes(), reconciles.failed(),
				reconciles.cutShort(), overlaps.acrossReplicas(), overlaps.count() - overlaps.acrossReplicas(),
				overlaps.maxMicros(), evidence.lines());
	}

}
