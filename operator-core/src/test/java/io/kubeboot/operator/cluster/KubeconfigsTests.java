package io.kubeboot.operator.cluster;

import java.nio.file.Files;
import java.nio.file.Path;

import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class KubeconfigsTests {

	private static final String INLINE = """
			apiVersion: v1
			kind: Config
			current-context: admin@member
			clusters:
			- name: member
			  cluster:
			    server: https://127.0.0.1:6443
			    certificate-authority-data: %s
			users:
			- name: admin
			  user:
			    %s
			contexts:
			- name: admin@member
			  context:
			    cluster: member
			    user: admin
			""";

	@Test
	void aKubeconfigOfDataOnlyGivesAClientOfItsServer() {
		ApiClient client = Kubeconfigs.fromData(INLINE.formatted("", "token: abc"));
		assertThat(client.getBasePath()).isEqualTo("https://127.0.0.1:6443");
	}

	@Test
	void aKubeconfigThatRunsACommandIsRefusedNamingTheEntry() {
		String exec = INLINE.formatted("", "exec: {apiVersion: client.authentication.k8s.io/v1, command: /bin/sh}");
		assertThatIllegalArgumentException().isThrownBy(() -> Kubeconfigs.fromData(exec))
			.withMessageContaining("users[admin].exec")
			.withMessageContaining("runs commands or reads files");
		String authProvider = INLINE.formatted("", "auth-provider: {name: oidc}");
		assertThatIllegalArgumentException().isThrownBy(() -> Kubeconfigs.fromData(authProvider))
			.withMessageContaining("users[admin].auth-provider");
	}

	@Test
	void aKubeconfigThatReadsTheOperatorsFilesIsRefused() {
		String tokenFile = INLINE.formatted("", "tokenFile: /var/run/secrets/kubernetes.io/serviceaccount/token");
		assertThatIllegalArgumentException().isThrownBy(() -> Kubeconfigs.fromData(tokenFile))
			.withMessageContaining("users[admin].tokenFile");
		String caFile = INLINE.replace("certificate-authority-data: %s", "certificate-authority: /etc/ca.crt")
			.formatted("token: abc");
		assertThatIllegalArgumentException().isThrownBy(() -> Kubeconfigs.fromData(caFile))
			.withMessageContaining("clusters[member].certificate-authority");
	}

	@Test
	void aKubeconfigWithoutContextOrServerIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Kubeconfigs
				.fromData(INLINE.formatted("", "token: abc").replace("current-context: admin@member", "")))
			.withMessage("the kubeconfig names no current-context");
		assertThatIllegalArgumentException().isThrownBy(() -> Kubeconfigs.fromData("{{{"))
			.withMessageStartingWith("the kubeconfig is not valid YAML");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Kubeconfigs
				.fromData(INLINE.formatted("", "token: abc").replace("server: https://127.0.0.1:6443", "")))
			.withMessageContaining("names no cluster with a server");
	}

	@Test
	void aKubeconfigFileMayUseFilesRelativeToIt(@TempDir Path dir) throws Exception {
		Files.writeString(dir.resolve("token"), "from-file");
		Path file = dir.resolve("config");
		Files.writeString(file, INLINE.formatted("", "tokenFile: token"));
		ApiClient client = Kubeconfigs.fromFile(file);
		assertThat(client.getBasePath()).isEqualTo("https://127.0.0.1:6443");
	}

}
