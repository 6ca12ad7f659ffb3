package io.kubeboot.operator.benchmarks.chaos;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The journal of one replica of the chaos run: one line per reconcile start and end and
 * per change of leadership, each appended with a single write to the file, so that a
 * {@code kill -9} loses nothing written before it. Times are wall-clock epoch
 * microseconds, which every process on one machine shares, so the journals of several
 * replicas (and the harness's own times) can be compared ({@code System.nanoTime} could
 * not: its origin differs from one JVM to the next). A step of the wall clock during a
 * run would distort them; the runs assume none.
 * <p>
 * A line is {@code <time> <replica> <term> <event> <values...>}, separated by spaces:
 * <ul>
 * <li>{@code LEAD}: the replica started leading; {@code <term>} is {@code <replica>#<n>},
 * its n-th term.</li>
 * <li>{@code TERM <leaseTransitions> <holder>}: the Lease as read just after
 * {@code LEAD}.</li>
 * <li>{@code UNLEAD <lost>}: it stopped leading and its controllers have stopped.</li>
 * <li>{@code START <key> <id> <specValue> <generation>}: a reconcile began (the term is
 * {@code -} outside a term, and always in a sharded replica, which has no terms);
 * {@code <id>} numbers the reconciles of the replica.</li>
 * <li>{@code END <key> <id> <outcome>}: it ended: {@code wrote}, {@code skip},
 * {@code gone} or {@code error:<exception>}.</li>
 * </ul>
 * Thread-safe.
 */
public final class ReconcileJournal implements AutoCloseable {

	/**
	 * The term written outside a term.
	 */
	public static final String NO_TERM = "-";

	private final FileChannel channel;

	private final String replica;

	private final AtomicLong ids = new AtomicLong();

	private ReconcileJournal(FileChannel channel, String replica) {
		this.channel = channel;
		this.replica = replica;
	}

	/**
	 * Opens a journal for appending, creating the file if needed.
	 * @param file the file
	 * @param replica the replica's identity, written on every line
	 * @return the journal
	 * @throws IOException if the file cannot be opened
	 */
	public static ReconcileJournal open(Path file, String replica) throws IOException {
		return new ReconcileJournal(
				FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND),
				replica);
	}

	/**
	 * Returns the current wall-clock time in epoch microseconds.
	 * @return the time
	 */
	public static long now() {
		Instant now = Instant.now();
		return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
	}

	/**
	 * Returns a new reconcile id, unique within this journal.
	 * @return the id
	 */
	public long nextId() {
		return this.ids.incrementAndGet();
	}

	/**
	 * Appends a line.
	 * @param time the time of the event in epoch microseconds
	 * @param term the term, or {@link #NO_TERM}
	 * @param event the event
	 * @param values its values, none containing white space
	 * @throws IOException if the write fails
	 */
	public void append(long time, String term, Event event, Object... values) throws IOException {
		StringBuilder line = new StringBuilder(96);
		line.append(time).append(' ').append(this.replica).append(' ').append(term).append(' ').append(event.name());
		for (Object value : values) {
			line.append(' ').append(value);
		}
		line.append('\n');
		ByteBuffer buffer = ByteBuffer.wrap(line.toString().getBytes(StandardCharsets.UTF_8));
		synchronized (this) {
			while (buffer.hasRemaining()) {
				this.channel.write(buffer);
			}
		}
	}

	@Override
	public void close() throws IOException {
		this.channel.close();
	}

	/**
	 * Reads a journal. A last line cut short (the process was killed while writing it) is
	 * skipped.
	 * @param file the file
	 * @return its entries in the order written
	 * @throws IOException if it cannot be read
	 */
	public static List<Entry> read(Path file) throws IOException {
		return new Reader(file).readNew();
	}

	/**
	 * Reads a journal while its replica may still append to it: each call returns the
	 * lines completed since the last one, so a harness can follow a run without reading
	 * the whole file again. A line not yet complete is returned once it is. Not
	 * thread-safe.
	 */
	public static final class Reader {

		private final Path file;

		private long position;

		/**
		 * Creates a reader at the start of a journal, which need not exist yet.
		 * @param file the file
		 */
		public Reader(Path file) {
			this.file = file;
		}

		/**
		 * Reads the lines completed since the last call.
		 * @return their entries in the order written, empty if the file does not exist
		 * yet
		 * @throws IOException if it cannot be read
		 */
		public List<Entry> readNew() throws IOException {
			List<Entry> entries = new ArrayList<>();
			if (!Files.exists(this.file)) {
				return entries;
			}
			byte[] bytes;
			try (FileChannel channel = FileChannel.open(this.file, StandardOpenOption.READ)) {
				long size = channel.size();
				if (size <= this.position) {
					return entries;
				}
				ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(size - this.position, Integer.MAX_VALUE - 8));
				channel.position(this.position);
				while (buffer.hasRemaining() && channel.read(buffer) > 0) {
					// until the size seen or the end of the file
				}
				bytes = Arrays.copyOf(buffer.array(), buffer.position());
			}
			int start = 0;
			for (int index = 0; index < bytes.length; index++) {
				if (bytes[index] == '\n') {
					entries.add(Entry.parse(new String(bytes, start, index - start, StandardCharsets.UTF_8)));
					start = index + 1;
				}
			}
			// a line written only in part stays for the next call
			this.position += start;
			return entries;
		}

	}

	/**
	 * What a line records.
	 */
	public enum Event {

		/**
		 * Started leading.
		 */
		LEAD,

		/**
		 * The Lease read after starting to lead.
		 */
		TERM,

		/**
		 * Stopped leading.
		 */
		UNLEAD,

		/**
		 * A reconcile began.
		 */
		START,

		/**
		 * A reconcile ended.
		 */
		END

	}

	/**
	 * One line of a journal.
	 *
	 * @param time epoch microseconds
	 * @param replica the replica's identity
	 * @param term the term, or {@link #NO_TERM}
	 * @param event the event
	 * @param values the values after the event
	 */
	public record Entry(long time, String replica, String term, Event event, List<String> values) {

		/**
		 * Parses a line.
		 * @param line the line without its line break
		 * @return the entry
		 * @throws IllegalArgumentException if it is no journal line
		 */
		public static Entry parse(String line) {
			String[] parts = line.split(" ");
			if (parts.length < 4) {
				throw new IllegalArgumentException("Not a journal line: '" + line + "'");
			}
			return new Entry(Long.parseLong(parts[0]), parts[1], parts[2], Event.valueOf(parts[3]),
					List.of(Arrays.copyOfRange(parts, 4, parts.length)));
		}

		/**
		 * Returns a value.
		 * @param index its position after the event
		 * @return the value
		 */
		public String value(int index) {
			return this.values.get(index);
		}

		@Override
		public String toString() {
			return this.time + " " + this.replica + " " + this.term + " " + this.event
					+ (this.values.isEmpty() ? "" : " " + String.join(" ", this.values));
		}

	}

}
