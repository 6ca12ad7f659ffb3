package io.kubeboot.operator.maven;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The fixture projects under {@code src/test/resources/projects}, copied for a test to
 * change.
 */
final class Projects {

	static final Path SHOP = Path.of("src", "test", "resources", "projects", "shop");

	private Projects() {
	}

	static Path copy(Path project, Path target) {
		try (Stream<Path> files = Files.walk(project)) {
			for (Path file : files.toList()) {
				Path copy = target.resolve(project.relativize(file).toString());
				if (Files.isDirectory(file)) {
					Files.createDirectories(copy);
				}
				else {
					Files.copy(file, copy);
				}
			}
			return target;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	static void write(Path project, String path, String content) {
		try {
			Path file = project.resolve(path);
			Files.createDirectories(file.getParent());
			Files.writeString(file, content);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	// every file under a project with its content: proves a refused goal left it as it
	// was
	static Map<String, String> tree(Path project) {
		Map<String, String> tree = new TreeMap<>();
		try (Stream<Path> files = Files.walk(project)) {
			for (Path file : files.filter(Files::isRegularFile).toList()) {
				tree.put(project.relativize(file).toString().replace('\\', '/'), Files.readString(file));
			}
			return tree;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
