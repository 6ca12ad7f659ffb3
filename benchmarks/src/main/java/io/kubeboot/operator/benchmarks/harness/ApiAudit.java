package io.kubeboot.operator.benchmarks.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.WeakHashMap;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubeboot.operator.benchmarks.model.Widget;
import io.kubeboot.operator.test.ControlPlane;

/**
 * The API server's audit log of the benchmark's control plane, which counts the requests
 * an operator process sends: one line per request of the admin user (whom the harness and
 * the operators connect as) when the server receives it, leaving out the status writes of
 * widgets and the harness's creates and deletes of them. Counted between an operator's
 * spawn and its drain, while the harness sends nothing, the lines are the operator's
 * requests besides its status writes, the same for every implementation.
 */
final class ApiAudit {

	static final String LOG = "apiserver-audit.log";

	private static final String POLICY = "apiserver-audit-policy.yaml";

	/** The control planes {@link #startControlPlane} started, with their logs. */
	private static final Map<ControlPlane, ApiAudit> AUDITED = Collections.synchronizedMap(new WeakHashMap<>());

	private final Path log;

	private ApiAudit(Path log) {
		this.log = log;
	}

	/**
	 * Starts a control plane whose API server writes the audit log into a directory.
	 * @param workDir the benchmark's work directory
	 * @return the control plane
	 * @throws IOException if the policy cannot be written
	 */
	static ControlPlane startControlPlane(Path workDir) throws IOException {
		Files.createDirectories(workDir);
		Path policy = workDir.resolve(POLICY);
		Path log = workDir.resolve(LOG);
		Files.deleteIfExists(log);
		Files.writeString(policy, """
				apiVersion: audit.k8s.io/v1
				kind: Policy
				omitStages: ["ResponseStarted", "ResponseComplete", "Panic"]
				rules:
				- level: None
				  verbs: ["patch", "update"]
				  resources: [{group: "%1$s", resources: ["%2$s/status"]}]
				- level: None
				  verbs: ["create", "delete", "deletecollection"]
				  resources: [{group: "%1$s", resources: ["%2$s"]}]
				- level: Metadata
				  users: ["%3$s"]
				- level: None
				""".formatted(Widget.GROUP, Widget.PLURAL, ControlPlane.ADMIN), StandardCharsets.UTF_8);
		ControlPlane controlPlane = ControlPlane.builder()
			.apiServerFlags("--audit-policy-file=" + policy, "--audit-log-path=" + log, "--audit-log-format=json",
					"--audit-log-maxsize=1024")
			.start();
		AUDITED.put(controlPlane, new ApiAudit(log));
		return controlPlane;
	}

	/**
	 * Returns the audit log of a control plane, if {@link #startControlPlane} started it
	 * (the server creates the file with its first line).
	 * @param controlPlane the control plane
	 * @return the log, or {@code null}
	 */
	static ApiAudit of(ControlPlane controlPlane) {
		return AUDITED.get(controlPlane);
	}

	/**
	 * Counts the requests received in a period, by verb and resource.
	 * @param from the start, in epoch milliseconds
	 * @param to the end, in epoch milliseconds
	 * @return the counts by {@code "<verb> <resource>"} (or the path, for discovery)
	 * @throws IOException if the log cannot be read
	 */
	Map<String, Integer> count(long from, long to) throws IOException {
		Map<String, Integer> counts = new TreeMap<>();
		if (!Files.isRegularFile(this.log)) {
			return counts;
		}
		try (BufferedReader reader = Files.newBufferedReader(this.log, StandardCharsets.UTF_8)) {
			String line;
			while ((line = reader.readLine()) != null) {
				if (line.isBlank()) {
					continue;
				}
				JsonObject event;
				try {
					event = JsonParser.parseString(line).getAsJsonObject();
				}
				catch (RuntimeException ex) {
					// the last line, still being written while an operator runs
					continue;
				}
				long received = Instant.parse(event.get("requestReceivedTimestamp").getAsString()).toEpochMilli();
				if (received >= from && received <= to) {
					counts.merge(kind(event), 1, Integer::sum);
				}
			}
		}
		return counts;
	}

	private static String kind(JsonObject event) {
		String verb = event.get("verb").getAsString();
		JsonElement reference = event.get("objectRef");
		if (reference == null || !reference.isJsonObject() || !reference.getAsJsonObject().has("resource")) {
			String uri = event.get("requestURI").getAsString();
			int query = uri.indexOf('?');
			return verb + " " + ((query >= 0) ? uri.substring(0, query) : uri);
		}
		JsonObject object = reference.getAsJsonObject();
		String resource = object.get("resource").getAsString();
		if (object.has("subresource")) {
			resource += "/" + object.get("subresource").getAsString();
		}
		return verb + " " + resource;
	}

}
