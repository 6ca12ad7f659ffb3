package io.kubeboot.operator.benchmarks.writes;

/**
 * How the status writes scenario writes: through which client, over which protocol, with
 * or without decoding the answer.
 */
public enum WritePath {

	/**
	 * The starter's {@code Client}, on client-java's default protocols (HTTP/2 over TLS).
	 */
	CLIENT_HTTP2("client-h2", "ours (`Client.status().patch`), HTTP/2", true),

	/** The starter's {@code Client}, HTTP/1.1 only: a connection per worker. */
	CLIENT_HTTP1("client-h1", "ours (`Client.status().patch`), HTTP/1.1", false),

	/**
	 * client-java's {@code CustomObjectsApi} and {@code PatchUtils}, as the raw program
	 * and client-java-extended's reconcilers write.
	 */
	CLIENT_JAVA("client-java", "client-java (`CustomObjectsApi`, `PatchUtils`), HTTP/2", true),

	/**
	 * The starter's request built by hand, its answer read but not decoded: what decoding
	 * costs at most, and so the most Gson adapters or reused buffers could save.
	 */
	UNDECODED("undecoded", "the same request, the answer read but not decoded, HTTP/2", true);

	/** The environment variable that names the path, by its {@link #id()}. */
	public static final String ENVIRONMENT = "BENCH_WRITE_PATH";

	private final String id;

	private final String label;

	private final boolean http2;

	WritePath(String id, String label, boolean http2) {
		this.id = id;
		this.label = label;
		this.http2 = http2;
	}

	/**
	 * Returns the name of the path in file names and the environment.
	 * @return the id
	 */
	public String id() {
		return this.id;
	}

	/**
	 * Returns how the report names the path.
	 * @return the label
	 */
	public String label() {
		return this.label;
	}

	boolean http2() {
		return this.http2;
	}

	/**
	 * Returns the path of an id.
	 * @param id the id
	 * @return the path
	 * @throws IllegalArgumentException if no path has that id
	 */
	public static WritePath of(String id) {
		for (WritePath path : values()) {
			if (path.id.equals(id)) {
				return path;
			}
		}
		throw new IllegalArgumentException("No write path '" + id + "'");
	}

}
