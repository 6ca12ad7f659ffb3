package io.kubeboot.operator.test;

import java.security.SecureRandom;
import java.util.Locale;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * A namespace created for one test by {@link ControlPlaneExtension}.
 * <p>
 * The name is {@code t-<test name>-<5 random characters>}, lowercased and shortened so
 * that it is a valid DNS label (at most 63 characters of {@code [a-z0-9-]}, starting and
 * ending with an alphanumeric character). The namespace exists when the test starts.
 * After the test, its deletion is requested without waiting and without failing the test;
 * as no controller-manager runs, the namespace then stays {@code Terminating} with its
 * content. {@link #toString()} returns the name, so the instance can be used in string
 * concatenation.
 */
public final class TestNamespace {

	static final String PREFIX = "t-";

	static final int MAX_LENGTH = 63;

	private static final int SUFFIX_LENGTH = 5;

	private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

	private static final RandomGenerator random = new SecureRandom();

	private final String name;

	TestNamespace(String name) {
		this.name = Objects.requireNonNull(name, "name");
	}

	/**
	 * Returns the namespace's name.
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Returns the namespace's name.
	 * @return the name
	 */
	@Override
	public String toString() {
		return this.name;
	}

	@Override
	public boolean equals(Object other) {
		return this == other || (other instanceof TestNamespace namespace && this.name.equals(namespace.name));
	}

	@Override
	public int hashCode() {
		return this.name.hashCode();
	}

	/**
	 * Generates a namespace name for a test.
	 * @param testName the test's (method or class) name
	 * @return a name that is a valid DNS label
	 */
	static String generateName(String testName) {
		StringBuilder suffix = new StringBuilder(SUFFIX_LENGTH);
		for (int i = 0; i < SUFFIX_LENGTH; i++) {
			suffix.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
		}
		return generateName(testName, suffix.toString());
	}

	static String generateName(String testName, String suffix) {
		String base = (testName != null) ? testName.toLowerCase(Locale.ROOT) : "";
		base = base.replaceAll("[^a-z0-9]+", "-");
		int maxBase = MAX_LENGTH - PREFIX.length() - 1 - suffix.length();
		if (base.length() > maxBase) {
			base = base.substring(0, maxBase);
		}
		base = base.replaceAll("^-+|-+$", "");
		return base.isEmpty() ? PREFIX + suffix : PREFIX + base + "-" + suffix;
	}

}
