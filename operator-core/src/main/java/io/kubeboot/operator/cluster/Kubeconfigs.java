package io.kubeboot.operator.cluster;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;

/**
 * Clients from kubeconfigs. One read from a Secret holds only data: a Secret's author
 * must not make the operator run a command ({@code exec}, {@code auth-provider}) or read
 * one of its own files ({@code tokenFile}, or a certificate's path), which would send the
 * operator's own service account token to a server the Secret names.
 */
final class Kubeconfigs {

	/** The keys of a user entry that run a command or read a file. */
	private static final Set<String> USER_KEYS_REFUSED = Set.of("exec", "auth-provider", "tokenFile",
			"client-certificate", "client-key");

	/** The keys of a cluster entry that read a file. */
	private static final Set<String> CLUSTER_KEYS_REFUSED = Set.of("certificate-authority");

	private Kubeconfigs() {
	}

	/**
	 * Builds a client of a kubeconfig's current context that holds only data.
	 * @param kubeconfig the kubeconfig's text
	 * @return the client
	 * @throws IllegalArgumentException naming what is wrong with it
	 */
	static ApiClient fromData(String kubeconfig) {
		KubeConfig config = parse(new StringReader(kubeconfig));
		List<String> refused = new ArrayList<>();
		refusedKeys(config.getUsers(), "user", USER_KEYS_REFUSED, refused);
		refusedKeys(config.getClusters(), "cluster", CLUSTER_KEYS_REFUSED, refused);
		if (!refused.isEmpty()) {
			throw new IllegalArgumentException("the kubeconfig runs commands or reads files, which a kubeconfig "
					+ "from a Secret may not: " + String.join(", ", refused)
					+ "; give the token or certificates inline (token, client-certificate-data, client-key-data, "
					+ "certificate-authority-data)");
		}
		return build(config);
	}

	/**
	 * Builds a client of a kubeconfig's current context, which may use everything a
	 * kubeconfig can but files relative to it (it is the operator's own configuration).
	 * @param kubeconfig the kubeconfig's text
	 * @return the client
	 * @throws IllegalArgumentException naming what is wrong with it
	 */
	static ApiClient fromText(String kubeconfig) {
		return build(parse(new StringReader(kubeconfig)));
	}

	/**
	 * Builds a client of a kubeconfig file's current context, which may use everything a
	 * kubeconfig can (it is the operator's own configuration).
	 * @param file the file
	 * @return the client
	 * @throws IllegalArgumentException naming what is wrong with it
	 */
	static ApiClient fromFile(Path file) {
		KubeConfig config;
		try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
			config = parse(reader);
		}
		catch (IOException ex) {
			throw new IllegalArgumentException("cannot read the kubeconfig " + file + ": " + ex.getMessage(), ex);
		}
		Path parent = file.toAbsolutePath().getParent();
		if (parent != null) {
			config.setFile(parent.resolve(file.getFileName()).toFile());
		}
		return build(config);
	}

	private static KubeConfig parse(Reader reader) {
		KubeConfig config;
		try {
			config = KubeConfig.loadKubeConfig(reader);
		}
		catch (RuntimeException ex) {
			throw new IllegalArgumentException("the kubeconfig is not valid YAML: " + ex.getMessage(), ex);
		}
		if (config == null || config.getCurrentContext() == null || config.getCurrentContext().isBlank()) {
			throw new IllegalArgumentException("the kubeconfig names no current-context");
		}
		if (config.getServer() == null || config.getServer().isBlank()) {
			throw new IllegalArgumentException("the kubeconfig's current-context " + config.getCurrentContext()
					+ " names no cluster with a server");
		}
		return config;
	}

	private static ApiClient build(KubeConfig config) {
		try {
			return ClientBuilder.kubeconfig(config).build();
		}
		catch (IOException | RuntimeException ex) {
			throw new IllegalArgumentException("cannot build a client from the kubeconfig's current-context "
					+ config.getCurrentContext() + ": " + ex.getMessage(), ex);
		}
	}

	private static void refusedKeys(List<Object> entries, String field, Set<String> keys, List<String> refused) {
		if (entries == null) {
			return;
		}
		for (Object entry : entries) {
			if (entry instanceof Map<?, ?> named && named.get(field) instanceof Map<?, ?> body) {
				for (Object key : body.keySet()) {
					if (keys.contains(String.valueOf(key))) {
						refused.add(field + "s[" + named.get("name") + "]." + key);
					}
				}
			}
		}
	}

}
