package io.kubeboot.operator.benchmarks.harness;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.kubeboot.operator.benchmarks.chaos.ReconcileJournal.Entry;

/**
 * The reconciles the journals of a chaos run's replicas record, each as an interval of
 * time from its start to its end. A reconcile that began but never ended (its replica was
 * killed or exited) is taken to have run until the process was seen gone, or for ever if
 * it still runs. The journals' times are wall-clock microseconds, comparable across the
 * replicas of one machine.
 *
 * @param intervals every reconcile
 * @param writes reconciles that wrote the status
 * @param failed reconciles that ended with an exception
 * @param cutShort reconciles whose process died before they ended
 */
record Reconciles(List<Interval> intervals, long writes, long failed, long cutShort) {

	/**
	 * Reads the reconciles from the journals.
	 * @param journals the entries of every replica's journal, by replica
	 * @param diedAt when each replica was seen gone, in epoch microseconds ({@code -1} or
	 * absent if it still runs)
	 * @return the reconciles
	 */
	static Reconciles of(Map<String, List<Entry>> journals, Map<String, Long> diedAt) {
		List<Interval> intervals = new ArrayList<>();
		long writes = 0;
		long failed = 0;
		long cutShort = 0;
		for (Map.Entry<String, List<Entry>> journal : journals.entrySet()) {
			long death = diedAt.getOrDefault(journal.getKey(), -1L);
			Map<String, Entry> open = new HashMap<>();
			for (Entry entry : journal.getValue()) {
				switch (entry.event()) {
					case START -> open.put(entry.value(1), entry);
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
					default -> {
					}
				}
			}
			for (Entry start : open.values()) {
				cutShort++;
				intervals.add(new Interval(start, null, (death >= 0) ? death : Long.MAX_VALUE));
			}
		}
		return new Reconciles(List.copyOf(intervals), writes, failed, cutShort);
	}

	/**
	 * Returns the number of reconciles begun.
	 * @return the count
	 */
	long count() {
		return this.intervals.size();
	}

	/**
	 * Finds the reconciles of an object that began before an earlier one of the same
	 * object had ended, in one replica or across two.
	 * @param evidence where to record them, as {@code two reconciles of one object at
	 * once}
	 * @return the overlaps
	 */
	Overlaps objectOverlaps(Evidence evidence) {
		Map<String, List<Interval>> byObject = new HashMap<>();
		for (Interval interval : this.intervals) {
			byObject.computeIfAbsent(interval.start().value(0), (key) -> new ArrayList<>()).add(interval);
		}
		long count = 0;
		long acrossReplicas = 0;
		long max = 0;
		for (List<Interval> ofObject : byObject.values()) {
			Overlaps overlaps = sweep(ofObject, "two reconciles of one object at once", evidence);
			count += overlaps.count();
			acrossReplicas += overlaps.acrossReplicas();
			max = Math.max(max, overlaps.maxMicros());
		}
		return new Overlaps(count, acrossReplicas, max, -1);
	}

	/**
	 * Counts the intervals that begin before an earlier one has ended, and finds the
	 * shortest gap between one that ends and the next that begins.
	 * @param intervals the intervals, sorted here by their start
	 * @param violation what an overlap violates, for the evidence
	 * @param evidence where to record the overlaps
	 * @return the overlaps
	 */
	static Overlaps sweep(List<Interval> intervals, String violation, Evidence evidence) {
		List<Interval> sorted = new ArrayList<>(intervals);
		sorted.sort(Comparator.comparingLong((Interval interval) -> interval.start().time()));
		Interval reach = null;
		long count = 0;
		long acrossReplicas = 0;
		long max = 0;
		long minGap = -1;
		for (Interval interval : sorted) {
			if (reach != null && interval.start().time() >= reach.end()) {
				long gap = interval.start().time() - reach.end();
				minGap = (minGap < 0) ? gap : Math.min(minGap, gap);
			}
			if (reach != null && interval.start().time() < reach.end()) {
				long overlap = Math.min(interval.end(), reach.end()) - interval.start().time();
				count++;
				if (!interval.replica().equals(reach.replica())) {
					acrossReplicas++;
				}
				max = Math.max(max, overlap);
				evidence.add(violation, overlap + " µs: [" + reach + "] and [" + interval + "]");
			}
			if (reach == null || interval.end() > reach.end()) {
				reach = interval;
			}
		}
		return new Overlaps(count, acrossReplicas, max, minGap);
	}

	/**
	 * A reconcile, or a span of reconciles, from its start to its end.
	 *
	 * @param start the start line
	 * @param endEntry the end line, or {@code null} if the process died first
	 * @param end the end in epoch microseconds
	 */
	record Interval(Entry start, Entry endEntry, long end) {

		/**
		 * Returns the replica that ran the reconcile.
		 * @return its identity
		 */
		String replica() {
			return this.start.replica();
		}

		@Override
		public String toString() {
			return this.start + " ... "
					+ ((this.endEntry != null) ? this.endEntry.toString() : "process gone at " + this.end);
		}

	}

	/**
	 * What a sweep found.
	 *
	 * @param count intervals that began before an earlier one had ended
	 * @param acrossReplicas those of them whose earlier interval was another replica's
	 * @param maxMicros the longest overlap
	 * @param minGapMicros the shortest gap between an interval's end and the next one's
	 * start, {@code -1} if none
	 */
	record Overlaps(long count, long acrossReplicas, long maxMicros, long minGapMicros) {

	}

}
