package io.kubeboot.operator.test;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Reads the end of the log files of the control plane's processes for error messages.
 */
final class LogFiles {

	private static final int MAX_BYTES = 64 * 1024;

	private LogFiles() {
	}

	/**
	 * Returns the last lines of a file.
	 * @param file the file
	 * @param lines how many lines at most
	 * @return the lines, joined with newlines, or a note if the file cannot be read
	 */
	static String tail(Path file, int lines) {
		if (!Files.isRegularFile(file)) {
			return "(" + file + " does not exist)";
		}
		try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
			long length = in.length();
			int size = (int) Math.min(length, MAX_BYTES);
			byte[] bytes = new byte[size];
			in.seek(length - size);
			in.readFully(bytes);
			List<String> all = Arrays.asList(new String(bytes, StandardCharsets.UTF_8).split("\r?\n"));
			if (size < length && !all.isEmpty()) {
				all = all.subList(1, all.size());
			}
			List<String> last = all.subList(Math.max(0, all.size() - lines), all.size());
			return "--- last " + last.size() + " lines of " + file + " ---\n" + String.join("\n", last);
		}
		catch (IOException ex) {
			return "(cannot read " + file + ": " + ex.getMessage() + ")";
		}
	}

}
