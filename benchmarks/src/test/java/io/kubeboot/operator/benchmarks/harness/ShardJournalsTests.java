package io.kubeboot.operator.benchmarks.harness;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.kubeboot.operator.benchmarks.chaos.ReconcileJournal;
import io.kubeboot.operator.benchmarks.chaos.ReconcileJournal.Event;
import io.kubeboot.operator.benchmarks.harness.ShardJournals.Mark;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class ShardJournalsTests {

	@TempDir
	Path dir;

	@Test
	void onlyReconcilesBegunSinceTheMarkCountWhenTheyWereRead() throws Exception {
		ShardJournals journals = new ShardJournals();
		journals.follow(this.dir.resolve("journal-r1.log"));
		journals.follow(this.dir.resolve("journal-r2.log"));
		try (ReconcileJournal r1 = ReconcileJournal.open(this.dir.resolve("journal-r1.log"), "r1");
				ReconcileJournal r2 = ReconcileJournal.open(this.dir.resolve("journal-r2.log"), "r2")) {
			r1.append(ReconcileJournal.now(), ReconcileJournal.NO_TERM, Event.START, "chaos/a", 1, 5, 1);
			Mark mark = journals.mark();
			// written after the mark but begun before it: not since the mark
			r2.append(mark.time() - 1, ReconcileJournal.NO_TERM, Event.START, "chaos/b", 1, 5, 1);
			r1.append(mark.time() + 10, ReconcileJournal.NO_TERM, Event.START, "chaos/b", 2, 5, 1);
			r2.append(mark.time() + 20, ReconcileJournal.NO_TERM, Event.START, "chaos/a", 2, 5, 1);
			r1.append(mark.time() + 30, ReconcileJournal.NO_TERM, Event.START, "chaos/a", 3, 5, 1);
			r2.append(mark.time() + 40, ReconcileJournal.NO_TERM, Event.START, "chaos/a", 3, 5, 1);
			assertThat(journals.reconcilersSince(mark)).isEmpty();
			journals.poll();
			assertThat(journals.reconcilersSince(mark))
				.isEqualTo(Map.of("chaos/a", Set.of("r1", "r2"), "chaos/b", Set.of("r1")));
			assertThat(journals.firstStartsByOthers(List.of("chaos/a", "chaos/b"), List.of("r1"), mark))
				.isEqualTo(Map.of("chaos/a", mark.time() + 20));
		}
	}

}
