package io.kubeboot.operator.benchmarks.harness;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import io.kubeboot.operator.benchmarks.chaos.ReconcileJournal.Entry;
import io.kubeboot.operator.benchmarks.chaos.ReconcileJournal;

/**
 * Checks the journals of every replica of a chaos run: that at most one replica held each
 * term of the Lease, that the reconciles of two terms never ran at the same time, and
 * that no two reconciles of one object ever did. A reconcile that began but never ended
 * (its replica was killed or exited) is taken to have run until the process was seen
 * gone.
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
 * @param evidence up to {@value #EVIDENCE} descriptions of violations, with the journal
 * lines
 */
record JournalAnalysis(long reconciles, long writes, long failed, long cutShort, int terms, int leaders,
		long outsideTerm, int sharedTransitions, int termOverlaps, long maxTermOverlapMicros, long minTermGapMicros,
		long objectOverlaps, long maxObjectOverlapMicros, List<String> evidence) {

	static final int EVIDENCE = 10;

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
		List<Interval> intervals = new ArrayList<>();
		long writes = 0;
		long failed = 0;
		long cutShort = 0;
		long outsideTerm = 0;
		int terms = 0;
		Set<String> leaders = new TreeSet<>();
		Map<Integer, Set<String>> transitions = new TreeMap<>();
		leaseHolders
			.forEach((count, holders) -> transitions.computeIfAbsent(count, (key) -> new TreeSet<>()).addAll(holders));
		for (Map.Entry<String, List<Entry>> journal : journals.entrySet()) {
			long death = diedAt.getOrDefault(journal.getKey(), -1L);
			Map<String, Entry> open = new HashMap<>();
			for (Entry entry : journal.getValue()) {
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
						open.put(entry.value(1), entry);
						if (ReconcileJournal.NO_TERM.equals(entry.term())) {
							outsideTerm++;
							evidence.add("reconcile outside a term", entry.toString());
						}
					}
					case END -> {
						Entry start = open.remove(entry.value(1));
						if (start != null) {
							intervals.add(new Interval(start, entry, entry.time()));
						}
						if ("wrote".equals(entry.value(2))) {
							writes++;
						}
						else if (entry.value(2).startsWith("error")) {
							failed++;
						}
					}
					case UNLEAD -> {
					}
				}
			}
			for (Entry start : open.values()) {
				cutShort++;
				intervals.add(new Interval(start, null, (death >= 0) ? death : Long.MAX_VALUE));
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
		Overlaps termOverlaps = termOverlaps(intervals, evidence);
		Overlaps objectOverlaps = objectOverlaps(intervals, evidence);
		return new JournalAnalysis(intervals.size(), writes, failed, cutShort, terms, leaders.size(), outsideTerm,
				sharedTransitions, (int) termOverlaps.count(), termOverlaps.maxMicros(), termOverlaps.minGapMicros(),
				objectOverlaps.count(), objectOverlaps.maxMicros(), evidence.lines());
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
		return sweep(new ArrayList<>(spans.values()), "reconciles of two terms at once", evidence);
	}

	private static Overlaps objectOverlaps(List<Interval> intervals, Evidence evidence) {
		Map<String, List<Interval>> byObject = new HashMap<>();
		for (Interval interval : intervals) {
			byObject.computeIfAbsent(interval.start().value(0), (key) -> new ArrayList<>()).add(interval);
		}
		long count = 0;
		long max = 0;
		for (List<Interval> ofObject : byObject.values()) {
			Overlaps overlaps = sweep(ofObject, "two reconciles of one object at once", evidence);
			count += overlaps.count();
			max = Math.max(max, overlaps.maxMicros());
		}
		return new Overlaps(count, max, -1);
	}

	/**
	 * Counts the intervals that begin before an earlier one has ended, and finds the
	 * shortest gap between one that ends and the next that begins.
	 */
	private static Overlaps sweep(List<Interval> intervals, String violation, Evidence evidence) {
		intervals.sort(Comparator.comparingLong((Interval interval) -> interval.start().time()));
		Interval reach = null;
		long count = 0;
		long max = 0;
		long minGap = -1;
		for (Interval interval : intervals) {
			if (reach != null && interval.start().time() >= reach.end()) {
				long gap = interval.start().time() - reach.end();
				minGap = (minGap < 0) ? gap : Math.min(minGap, gap);
			}
			if (reach != null && interval.start().time() < reach.end()) {
				long overlap = Math.min(interval.end(), reach.end()) - interval.start().time();
				count++;
				max = Math.max(max, overlap);
				evidence.add(violation, overlap + " µs: [" + reach + "] and [" + interval + "]");
			}
			if (reach == null || interval.end() > reach.end()) {
				reach = interval;
			}
		}
		return new Overlaps(count, max, minGap);
	}

	/**
	 * The first few violations of each kind.
	 */
	private static final class Evidence {

		private final Map<String, List<String>> byKind = new LinkedHashMap<>();

		void add(String kind, String details) {
			List<String> lines = this.byKind.computeIfAbsent(kind, (key) -> new ArrayList<>());
			if (lines.size() < EVIDENCE) {
				lines.add(kind + ": " + details);
			}
		}

		List<String> lines() {
			return this.byKind.values().stream().flatMap(List::stream).toList();
		}

	}

	/**
	 * A reconcile, or a term's span of reconciles, from its start to its end.
	 *
	 * @param start the start line
	 * @param endEntry the end line, or {@code null} if the process died first
	 * @param end the end in epoch microseconds
	 */
	private record Interval(Entry start, Entry endEntry, long end) {

		@Override
		public String toString() {
			return this.start + " ... "
					+ ((this.endEntry != null) ? this.endEntry.toString() : "process gone at " + this.end);
		}

	}

	private record Overlaps(long count, long maxMicros, long minGapMicros) {

	}

}
