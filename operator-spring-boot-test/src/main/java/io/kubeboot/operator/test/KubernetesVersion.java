package io.kubeboot.operator.test;

import java.nio.file.Path;
import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The version of a Kubernetes API server, as its {@code /version} endpoint reports it.
 *
 * @param major the major version, {@code 1}
 * @param minor the minor version, such as {@code 37}
 * @param patch the patch version
 * @param gitVersion the whole version as reported, such as {@code v1.37.2}
 */
public record KubernetesVersion(int major, int minor, int patch,
		String gitVersion) implements Comparable<KubernetesVersion> {

	private static final Pattern VERSION = Pattern.compile("v?(\\d+)\\.(\\d+)\\.(\\d+)([-+].*)?");

	private static final Comparator<KubernetesVersion> ORDER = Comparator.comparingInt(KubernetesVersion::major)
		.thenComparingInt(KubernetesVersion::minor)
		.thenComparingInt(KubernetesVersion::patch);

	/**
	 * Parses a version such as {@code v1.37.2} or {@code 1.34.4}; the {@code v} of the
	 * {@link #gitVersion() gitVersion} is added where it is missing.
	 * @param version the version
	 * @return the parsed version
	 * @throws IllegalArgumentException if it is not a version
	 */
	public static KubernetesVersion parse(String version) {
		Matcher matcher = VERSION.matcher(version.strip());
		if (!matcher.matches()) {
			throw new IllegalArgumentException("Not a Kubernetes version: '" + version + "'");
		}
		String gitVersion = version.strip();
		return new KubernetesVersion(Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2)),
				Integer.parseInt(matcher.group(3)), gitVersion.startsWith("v") ? gitVersion : "v" + gitVersion);
	}

	/**
	 * The version of an envtest-style directory name such as {@code 1.37.2-linux-amd64}.
	 * @param directory the directory
	 * @return its version, or {@code null} if its name does not start with one
	 */
	static KubernetesVersion ofDirectoryName(Path directory) {
		String name = directory.getFileName().toString();
		int dash = name.indexOf('-');
		try {
			return parse((dash < 0) ? name : name.substring(0, dash));
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

	/**
	 * Whether this version is the given minor or newer.
	 * @param major the major version
	 * @param minor the minor version
	 * @return whether this version is at least {@code major.minor}
	 */
	public boolean isAtLeast(int major, int minor) {
		return this.major > major || (this.major == major && this.minor >= minor);
	}

	@Override
	public int compareTo(KubernetesVersion other) {
		return ORDER.compare(this, other);
	}

	@Override
	public String toString() {
		return this.gitVersion;
	}

}
