package io.kubeboot.operator.maven;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The files a goal writes, planned in full before anything is written: new files, and
 * edits of existing ones that are known by their whole text before and after.
 * {@link #check()} refuses a plan whose new files exist or whose edited files changed
 * meanwhile; {@link #apply()} writes all the changes or none.
 * <p>
 * All or none: each file is written to a temporary file beside it and moved into place,
 * so that no file is ever half written; if a write fails, the files created are deleted,
 * the edited ones are written back as they were, and the directories created are removed.
 * The temporary file is private to its owner, so the file moved into place gets the mode
 * of the file it replaces, or, when new, the mode of the project's {@code pom.xml} (which
 * is what the user's umask made of a file).
 */
final class ScaffoldPlan {

	private final Path root;

	private final List<Change> changes = new ArrayList<>();

	/**
	 * Creates an empty plan.
	 * @param root the project's directory, which the plan's paths are relative to
	 */
	ScaffoldPlan(Path root) {
		this.root = root;
	}

	/**
	 * Plans a new file.
	 * @param path the file, relative to the project
	 * @param content its content
	 * @param ifExists what the refusal tells the user to do when it exists, such as
	 * {@code move it}
	 * @return this plan
	 */
	ScaffoldPlan create(Path path, String content, String ifExists) {
		return add(new Change(path, null, content, ifExists));
	}

	/**
	 * Plans an edit of an existing file.
	 * @param path the file, relative to the project
	 * @param before its content as read
	 * @param after its content once edited
	 * @return this plan
	 */
	ScaffoldPlan edit(Path path, String before, String after) {
		return add(new Change(path, Objects.requireNonNull(before), after, null));
	}

	private ScaffoldPlan add(Change change) {
		if (change.path().isAbsolute() || change.path().normalize().startsWith("..")) {
			throw new IllegalArgumentException(change.path() + " is not inside the project");
		}
		for (Change planned : this.changes) {
			if (planned.path().equals(change.path())) {
				throw new IllegalArgumentException(change.path() + " is planned twice");
			}
		}
		this.changes.add(change);
		return this;
	}

	Path root() {
		return this.root;
	}

	List<Change> changes() {
		return Collections.unmodifiableList(this.changes);
	}

	/**
	 * Refuses the plan if applying it would overwrite anything.
	 * @throws ScaffoldException naming the first file that exists, or that changed since
	 * it was read
	 */
	void check() {
		for (Change change : this.changes) {
			Path file = this.root.resolve(change.path());
			if (change.isCreation() && Files.exists(file)) {
				throw new ScaffoldException(
						change.path() + " exists and this goal never overwrites: " + change.ifExists());
			}
			if (!change.isCreation() && !change.before().equals(readIfExists(file))) {
				throw new ScaffoldException(change.path() + " changed while the goal ran: run it again");
			}
		}
	}

	/**
	 * What the plan does, one line per file, with the diff of each edit.
	 * @param done whether it was applied ({@code Created}) or is a dry run
	 * ({@code Would create})
	 * @return the lines to print
	 */
	List<String> describe(boolean done) {
		List<String> lines = new ArrayList<>();
		for (Change change : this.changes) {
			String verb = change.isCreation() ? (done ? "Created " : "Would create ")
					: (done ? "Changed " : "Would change ");
			lines.add(verb + change.path());
			if (!change.isCreation()) {
				lines.addAll(Diff.lines(change.path().toString(), change.before(), change.after()));
			}
		}
		return lines;
	}

	/**
	 * Checks the plan, then writes every change or none.
	 * @throws ScaffoldException if the plan is refused, or a write failed (then nothing
	 * is left written, or the message names what could not be restored)
	 */
	void apply() {
		check();
		List<Change> done = new ArrayList<>();
		List<Path> createdDirectories = new ArrayList<>();
		for (Change change : this.changes) {
			Path file = this.root.resolve(change.path());
			try {
				createDirectories(file.getParent(), createdDirectories);
				write(file, change.after(), !change.isCreation());
				done.add(change);
			}
			catch (IOException | RuntimeException ex) {
				String cause = (ex instanceof FileAlreadyExistsException && change.isCreation()
						&& file.equals(Path.of(((FileAlreadyExistsException) ex).getFile()))) ? "it appeared meanwhile"
								: ex.toString();
				List<String> left = rollBack(done, createdDirectories);
				String failure = "Cannot write " + change.path() + " (" + cause + ")";
				throw new ScaffoldException(left.isEmpty() ? failure + ": nothing was written"
						: failure + ", and these could not be restored: " + String.join(", ", left), ex);
			}
		}
	}

	private void write(Path file, String content, boolean replace) throws IOException {
		Set<PosixFilePermission> permissions = permissions(replace ? file : this.root.resolve("pom.xml"));
		Path temporary = Files.createTempFile(file.getParent(), "." + file.getFileName(), ".scaffold");
		try {
			Files.writeString(temporary, content, StandardCharsets.UTF_8);
			if (permissions != null) {
				Files.setPosixFilePermissions(temporary, permissions);
			}
			if (replace) {
				Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
			}
			else {
				// no REPLACE_EXISTING: a file created since check() is not overwritten
				Files.move(temporary, file);
			}
		}
		finally {
			Files.deleteIfExists(temporary);
		}
	}

	// null where the file system has no POSIX modes, or the file is not there
	private static Set<PosixFilePermission> permissions(Path file) throws IOException {
		PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class);
		if (view == null || !Files.isRegularFile(file)) {
			return null;
		}
		return view.readAttributes().permissions();
	}

	private void createDirectories(Path directory, List<Path> created) throws IOException {
		if (directory == null || Files.isDirectory(directory)) {
			return;
		}
		createDirectories(directory.getParent(), created);
		Files.createDirectory(directory);
		created.add(directory);
	}

	private List<String> rollBack(List<Change> done, List<Path> createdDirectories) {
		List<String> left = new ArrayList<>();
		for (int i = done.size() - 1; i >= 0; i--) {
			Change change = done.get(i);
			Path file = this.root.resolve(change.path());
			try {
				if (change.isCreation()) {
					Files.deleteIfExists(file);
				}
				else {
					write(file, change.before(), true);
				}
			}
			catch (IOException | RuntimeException ex) {
				left.add(change.path().toString());
			}
		}
		for (int i = createdDirectories.size() - 1; i >= 0; i--) {
			try {
				Files.deleteIfExists(createdDirectories.get(i));
			}
			catch (IOException ex) {
				left.add(this.root.relativize(createdDirectories.get(i)) + "/");
			}
		}
		return left;
	}

	private static String readIfExists(Path file) {
		try {
			return Files.isRegularFile(file) ? Files.readString(file, StandardCharsets.UTF_8) : null;
		}
		catch (IOException ex) {
			return null;
		}
	}

	/**
	 * One file of the plan.
	 *
	 * @param path the file, relative to the project
	 * @param before its content before the edit, {@code null} for a new file
	 * @param after its content once written
	 * @param ifExists what to do when a new file exists, {@code null} for an edit
	 */
	record Change(Path path, String before, String after, String ifExists) {

		boolean isCreation() {
			return this.before == null;
		}

	}

}
