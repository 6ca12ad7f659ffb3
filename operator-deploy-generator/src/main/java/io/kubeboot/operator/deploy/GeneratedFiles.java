package io.kubeboot.operator.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * Files a build generates and keeps checked in, such as {@link DeployManifests#files()}:
 * written to a directory, or compared with it, so that a test fails while the checked-in
 * copy differs from what the code generates ({@link DeployManifests#check}).
 * <p>
 * The directory belongs to the generator: a file in it that is not generated is a
 * difference too, but for files and directories whose names start with a dot
 * ({@code .gitkeep}, {@code .DS_Store}), which are neither compared nor deleted.
 */
final class GeneratedFiles {

	private static final int MAX_LINES_SHOWN = 40;

	private final Map<String, String> files;

	private GeneratedFiles(Map<String, String> files) {
		this.files = files;
	}

	/**
	 * The files to keep.
	 * @param files the contents by relative path, {@code /} between directories
	 * @return the files
	 */
	static GeneratedFiles of(Map<String, String> files) {
		Objects.requireNonNull(files, "files must not be null");
		return new GeneratedFiles(new LinkedHashMap<>(files));
	}

	/**
	 * Writes the files into a directory, deleting those of the directory that are not
	 * generated.
	 * @param directory the directory
	 * @throws UncheckedIOException if a file cannot be written or deleted
	 */
	void writeTo(Path directory) {
		try {
			for (String stale : existing(directory)) {
				if (!this.files.containsKey(stale)) {
					Files.delete(directory.resolve(stale));
				}
			}
			for (Map.Entry<String, String> file : this.files.entrySet()) {
				Path path = directory.resolve(file.getKey());
				Files.createDirectories(path.getParent());
				Files.writeString(path, file.getValue(), StandardCharsets.UTF_8);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot write the generated files into " + directory, ex);
		}
	}

	/**
	 * Compares the files with a directory.
	 * @param directory the directory
	 * @return one description per file that is missing, differs (with the lines that
	 * differ) or is not generated; empty if the directory holds exactly the files
	 * @throws UncheckedIOException if the directory cannot be read
	 */
	List<String> differencesFrom(Path directory) {
		List<String> differences = new ArrayList<>();
		try {
			for (Map.Entry<String, String> file : this.files.entrySet()) {
				Path path = directory.resolve(file.getKey());
				if (!Files.isRegularFile(path)) {
					differences.add(file.getKey() + ": missing");
					continue;
				}
				String checkedIn = Files.readString(path, StandardCharsets.UTF_8);
				if (!checkedIn.equals(file.getValue())) {
					differences.add(file.getKey() + " differs (- checked in, + generated):\n"
							+ diff(checkedIn.split("\n", -1), file.getValue().split("\n", -1)));
				}
			}
			for (String existing : existing(directory)) {
				if (!this.files.containsKey(existing)) {
					differences.add(existing + ": not generated");
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read " + directory, ex);
		}
		return differences;
	}

	/**
	 * Fails unless the directory holds exactly the files; with {@code update}, writes
	 * them first.
	 * @param directory the directory
	 * @param update whether to write the files into it
	 * @param howToUpdate the command that updates it, for the failure's message
	 * @throws AssertionError naming every difference and the command
	 */
	void check(Path directory, boolean update, String howToUpdate) {
		if (update) {
			writeTo(directory);
		}
		List<String> differences = differencesFrom(directory);
		if (!differences.isEmpty()) {
			throw new AssertionError(directory + " differs from what the code generates:\n"
					+ String.join("\n", differences) + "\nChange the code or the settings, not the files, then "
					+ "regenerate them (which deletes the files that are not generated, but for names starting with "
					+ "a dot): " + howToUpdate);
		}
	}

	private static List<String> existing(Path directory) throws IOException {
		if (!Files.isDirectory(directory)) {
			return List.of();
		}
		try (Stream<Path> paths = Files.walk(directory)) {
			return paths.filter(Files::isRegularFile)
				.map((path) -> directory.relativize(path).toString().replace('\\', '/'))
				.filter((path) -> !path.startsWith(".") && !path.contains("/."))
				.sorted()
				.toList();
		}
	}

	/**
	 * The lines only one side has, from a longest common subsequence, with their line
	 * numbers; at most {@value #MAX_LINES_SHOWN}.
	 */
	static String diff(String[] before, String[] after) {
		int[][] common = new int[before.length + 1][after.length + 1];
		for (int i = before.length - 1; i >= 0; i--) {
			for (int j = after.length - 1; j >= 0; j--) {
				common[i][j] = before[i].equals(after[j]) ? common[i + 1][j + 1] + 1
						: Math.max(common[i + 1][j], common[i][j + 1]);
			}
		}
		List<String> lines = new ArrayList<>();
		int i = 0;
		int j = 0;
		while (i < before.length || j < after.length) {
			if (i < before.length && j < after.length && before[i].equals(after[j])) {
				i++;
				j++;
			}
			else if (j < after.length && (i == before.length || common[i][j + 1] >= common[i + 1][j])) {
				lines.add(String.format("%5d + %s", j + 1, after[j++]));
			}
			else {
				lines.add(String.format("%5d - %s", i + 1, before[i++]));
			}
		}
		if (lines.size() > MAX_LINES_SHOWN) {
			int more = lines.size() - MAX_LINES_SHOWN;
			lines = new ArrayList<>(lines.subList(0, MAX_LINES_SHOWN));
			lines.add("      ... " + more + " more");
		}
		return String.join("\n", lines);
	}

}
