package io.kubeboot.operator.benchmarks.chaos;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import io.kubeboot.operator.benchmarks.chaos.ReconcileJournal.Entry;
import io.kubeboot.operator.benchmarks.chaos.ReconcileJournal.Event;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class ReconcileJournalTests {

	@TempDir
	Path dir;

	@Test
	void aReaderReturnsEachCompletedLineOnceAndALineWrittenInPartOnlyOnceComplete() throws Exception {
		Path file = this.dir.resolve("journal-r1.log");
		ReconcileJournal.Reader reader = new ReconcileJournal.Reader(file);
		assertThat(reader.readNew()).isEmpty();
		try (ReconcileJournal journal = ReconcileJournal.open(file, "r1")) {
			journal.append(100, ReconcileJournal.NO_TERM, Event.START, "chaos/a", 1, 5, 1);
			journal.append(200, ReconcileJournal.NO_TERM, Event.END, "chaos/a", 1, "skip");
		}
		assertThat(reader.readNew()).extracting(Entry::toString)
			.containsExactly("100 r1 - START chaos/a 1 5 1", "200 r1 - END chaos/a 1 skip");
		Files.writeString(file, "300 r1 - START cha", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
		assertThat(reader.readNew()).isEmpty();
		assertThat(ReconcileJournal.read(file)).hasSize(2);
		Files.writeString(file, "os/b 2 5 1\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
		assertThat(reader.readNew()).extracting(Entry::toString).containsExactly("300 r1 - START chaos/b 2 5 1");
		assertThat(reader.readNew()).isEmpty();
		assertThat(ReconcileJournal.read(file)).hasSize(3);
	}

}
