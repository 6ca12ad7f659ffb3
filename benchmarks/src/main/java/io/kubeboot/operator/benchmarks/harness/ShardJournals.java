package io.kubeboot.operator.benchmarks.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.kubeboot.operator.benchmarks.chaos.ReconcileJournal.Entry;
import io.kubeboot.operator.benchmarks.chaos.ReconcileJournal.Event;
import io.kubeboot.operator.benchmarks.chaos.ReconcileJournal;

/**
 * The journals of a sharding run's replicas, followed while they grow: {@link #poll()}
 * reads what the replicas appended since it last did, and the run asks which replicas
 * began reconciling which widget since a {@link Mark}. Times are the journals' wall-clock
 * microseconds ({@link ReconcileJournal#now()}), which the replicas and the harness
 * share. Not thread-safe.
 */
final class ShardJournals {

	private final Map<Path, ReconcileJournal.Reader> readers = new LinkedHashMap<>();

	private final List<Entry> starts = new ArrayList<>();

	/**
	 * Follows a journal from its start, unless already followed; it need not exist yet.
	 * @param journal the file
	 */
	void follow(Path journal) {
		this.readers.computeIfAbsent(journal, ReconcileJournal.Reader::new);
	}

	/**
	 * Reads the lines every followed journal completed since the last poll.
	 * @throws IOException if a journal cannot be read
	 */
	void poll() throws IOException {
		for (ReconcileJournal.Reader reader : this.readers.values()) {
			for (Entry entry : reader.readNew()) {
				if (entry.event() == Event.START) {
					this.starts.add(entry);
				}
			}
		}
	}

	/**
	 * Marks this moment: the reconciles that begin from now on are those "since" the
	 * mark.
	 * @return the mark
	 * @throws IOException if a journal cannot be read
	 */
	Mark mark() throws IOException {
		poll();
		// every line read so far was written before this time
		int index = this.starts.size();
		return new Mark(index, ReconcileJournal.now());
	}

	/**
	 * Returns who began reconciling each widget since a mark, as far as polled.
	 * @param mark the mark
	 * @return the replicas, by widget ({@code namespace/name}); widgets nobody reconciled
	 * are absent
	 */
	Map<String, Set<String>> reconcilersSince(Mark mark) {
		Map<String, Set<String>> by = new HashMap<>();
		for (int index = mark.index(); index < this.starts.size(); index++) {
			Entry start = this.starts.get(index);
			if (start.time() >= mark.time()) {
				by.computeIfAbsent(start.value(0), (key) -> new TreeSet<>()).add(start.replica());
			}
		}
		return by;
	}

	/**
	 * Returns when other replicas than some first began reconciling each of some widgets
	 * since a mark, as far as polled.
	 * @param widgets the widgets ({@code namespace/name})
	 * @param excluded the replicas whose reconciles do not count
	 * @param mark the mark
	 * @return the time of the first start by another replica, by widget; widgets no other
	 * replica reconciled yet are absent
	 */
	Map<String, Long> firstStartsByOthers(Collection<String> widgets, Collection<String> excluded, Mark mark) {
		Set<String> wanted = Set.copyOf(widgets);
		Map<String, Long> first = new HashMap<>();
		for (int index = mark.index(); index < this.starts.size(); index++) {
			Entry start = this.starts.get(index);
			if (start.time() >= mark.time() && !excluded.contains(start.replica()) && wanted.contains(start.value(0))) {
				first.merge(start.value(0), start.time(), Math::min);
			}
		}
		return first;
	}

	/**
	 * A moment of the run.
	 *
	 * @param index the number of starts read before it
	 * @param time its time in epoch microseconds
	 */
	record Mark(int index, long time) {

	}

}
