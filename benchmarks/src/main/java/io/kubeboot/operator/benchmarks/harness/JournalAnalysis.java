package io.kubeboot.operator.benchmarks.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import io.kubeboot.operator.benchmarks.chaos.ReconcileJournal.Entry;
import io.kubeboot.operator.benchmarks.chaos.ReconcileJournal;
import io.kubeboot.operator.benchmarks.harness.Reconciles.Interval;
import io.kubeboot.operator.benchmarks.harness.Reconciles.Overlaps;

/**
 * Checks the journals of every replica of a chaos run: that at most one replica held each
 * term of the Lease, that the reconciles of two terms never ran at the same time, and
 * that no two reconciles of one object ever did. A reconcile that began but never ended
 * (its replica was killed or exited) is taken to have run until the process was seen gone
 * ({@link Reconciles}).
 *
 * @param reconciles reconciles begun
 * @param writes reconciles that wrote the status
 * @param failed reconciles that ended with an exception
 * @param cutShort reconciles whose process died before they ended
 * @param terms terms begun (a replica's {@code LEAD})
 * @param leaders distinct replicas that led
 * @param outsideTerm reconciles begun while their replica did not lead
 * @param sharedTransitions Lease transition counts held by more than one replica, as the
 * replicas read them on taking over or as the harness saw the Lease
 * @param termOverlaps terms whose reconciles overlapped those of an earlier term
 * @param maxTermOverlapMicros the longest such overlap
 * @param minTermGapMicros the shortest time from the last reconcile of a term to the
 * first of the next, {@code -1} if fewer than two terms reconciled
 * @param objectOverlaps reconciles that overlapped an earlier reconcile of the same
 * object
 * @param maxObjectOverlapMicros the longest such overlap
 * @param evidence up to {@value Evidence#LIMIT} descriptions of violations of each kind,
 * with the journal lines
 */
record JournalAnalysis(long reconciles, long writes, long failed, long cutShort, int terms, int leaders,
		long outsideTerm, int sharedTransitions, int termOverlaps, long maxTermOverlapMicros, long minTermGapMicros,
		long objectOverlaps, long maxObjectOverlapMicros, List<String> evidence) {

	/**
	 * Whether every check passed.
	 * @return whether nothing was violated
	 */
	boolean passed() {
		return this.outsideTerm == 0 && this.sharedTransitions == 0 && this.termOverlaps == 0
				&& this.objectOverlaps == 0;
	}

	/**
	 * Analyses the journals.
	 * @param journals the entries of every replica's journal, by replica
	 * @param diedAt when each replica was seen gone, in epoch microseconds ({@code -1} or
	 * absent if it still runs)
	 * @param leaseHolders the holders the harness saw on the Lease, by transition count
	 * @return the analysis
	 */
	static JournalAnalysis analyse(Map<String, List<Entry>> journals, Map<String, Long> diedAt,
			Map<Integer, Set<String>> leaseHolders) {
		Evidence evidence = new Evidence();
		Reconciles reconciles = Reconciles.of(journals, diedAt);
		long outsideTerm = 0;
		int terms = 0;
		Set<String> leaders = new TreeSet<>();
		Map<Integer, Set<String>> transitions = new TreeMap<>();
		leaseHolders
			.forEach((count, holders) -> transitions.computeIfAbsent(count, (key) -> new TreeSet<>()).addAll(holders));
		for (List<Entry> journal : journals.values()) {
			for (Entry entry : journal) {
				switch (entry.event()) {
					case LEAD -> {
						terms++;
						leaders.add(entry.replica());
					}
					case TERM -> {
						if (entry.replica().equals(entry.value(1))) {
							transitions.computeIfAbsent(Integer.valueOf(entry.value(0)), (key) -> new TreeSet<>())
								.add(entry.replica());
						}
					}
					case START -> {
						if (ReconcileJournal.NO_TERM.equals(entry.term())) {
							outsideTerm++;
							evidence.add("reconcile outside a term", entry.toString());
						}
					}
					default -> {
					}
				}
			}
		}
		int sharedTransitions = 0;
		for (Map.Entry<Integer, Set<String>> held : transitions.entrySet()) {
			if (held.getValue().size() > 1) {
				sharedTransitions++;
				evidence.add("Lease term held by two replicas",
						"transition " + held.getKey() + " held by " + held.getValue());
			}
		}
		Overlaps termOverlaps = termOverlaps(reconciles.intervals(), evidence);
		Overlaps objectOverlaps = reconciles.objectOverlaps(evidence);
		return new JournalAnalysis(reconciles.count(), reconciles.writes(), reconciles.failed(), reconciles.cutShort(),
				terms, leaders.size(), outsideTerm, sharedTransitions, (int) termOverlaps.count(),
				termOverlaps.maxMicros(), termOverlaps.minGapMicros(), objectOverlaps.count(),
				objectOverlaps.maxMicros(), evidence.lines());
	}

	/**
	 * The span of each term, from its first reconcile's start to its last one's end; two
	 * spans of different terms must not overlap.
	 */
	private static Overlaps termOverlaps(List<Interval> intervals, Evidence evidence) {
		Map<String, Interval> spans = new LinkedHashMap<>();
		for (Interval interval : intervals) {
			if (ReconcileJournal.NO_TERM.equals(interval.start().term())) {
				continue;
			}
			spans.merge(interval.start().term(), interval,
					(a, b) -> new Interval((a.start().time() <= b.start().time()) ? a.start() : b.start(),
							(a.end() >= b.end()) ? a.endEntry() : b.endEntry(), Math.max(a.end(), b.end())));
		}
		return Reconciles.sweep(new ArrayList<>(spans.values()), "reconciles of two terms at once", evidence);
	}

}
