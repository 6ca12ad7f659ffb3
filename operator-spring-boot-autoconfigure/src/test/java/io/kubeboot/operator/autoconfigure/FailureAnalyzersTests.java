package io.kubeboot.operator.autoconfigure;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;

import io.kubeboot.operator.autoconfigure.InvalidOperatorPropertyException.Problem;
import io.kubeboot.operator.cache.CacheAccessDeniedException;
import io.kubeboot.operator.cache.CacheSyncException;
import io.kubeboot.operator.client.KindNotServedException;
import io.kubeboot.operator.webhook.ServingCertificate;
import io.kubeboot.operator.webhook.WebhookBindException;
import io.kubeboot.operator.webhook.WebhookServer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.diagnostics.FailureAnalysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class FailureAnalyzersTests {

	@Test
	void kindNotServedShouldSayToInstallTheCrd() {
		KindNotServedException cause = new KindNotServedException("Kind Gadget (example.com/v1) ... is not served");
		FailureAnalysis analysis = new KindNotServedFailureAnalyzer()
			.analyze(new IllegalStateException("Failed to start bean 'operatorManagerLifecycle'", cause));
		assertThat(analysis.getDescription()).isEqualTo(cause.getMessage());
		assertThat(analysis.getAction()).startsWith("Install the kind's CustomResourceDefinition");
	}

	@Test
	void forbiddenCacheSyncShouldSayWhichVerbsToGrant() {
		CacheSyncException cause = new CacheSyncException(
				"Caches did not sync within PT2M: V1ConfigMap[namespace=x] failed with 403 Forbidden: ...");
		FailureAnalysis analysis = new CacheSyncFailureAnalyzer().analyze(new IllegalStateException(cause));
		assertThat(analysis.getDescription()).isEqualTo(cause.getMessage());
		assertThat(analysis.getAction()).contains("get, list and watch");
	}

	@Test
	void deniedCacheAccessShouldSayWhichVerbsToGrant() {
		CacheAccessDeniedException cause = new CacheAccessDeniedException(
				"RBAC denies this operator's identity what its caches need: list, watch configmaps in namespace 'x'. ...");
		FailureAnalysis analysis = new CacheSyncFailureAnalyzer().analyze(new IllegalStateException(cause));
		assertThat(analysis.getDescription()).isEqualTo(cause.getMessage());
		assertThat(analysis.getAction()).contains("get, list and watch");
	}

	@Test
	void slowCacheSyncShouldPointAtTheTimeout() {
		CacheSyncException cause = new CacheSyncException("Caches did not sync within PT2M: ... is still listing");
		assertThat(new CacheSyncFailureAnalyzer().analyze(cause).getAction()).contains("operator.cache-sync-timeout");
	}

	@Test
	void invalidBeanShouldRepeatTheMessage() {
		InvalidOperatorBeanException cause = new InvalidOperatorBeanException("@Reconciler bean 'x' is invalid: ...",
				new IllegalStateException());
		assertThat(new InvalidReconcilerFailureAnalyzer().analyze(cause).getDescription())
			.isEqualTo("@Reconciler bean 'x' is invalid: ...");
	}

	@Test
	void invalidPropertyShouldListEachPropertyAsWritten() {
		InvalidOperatorPropertyException cause = new InvalidOperatorPropertyException(
				"operator.controllers.storagebukcet names no controller; the controllers are: pod, storagebucket",
				List.of(new Problem("operator.controllers.storagebukcet.max-concurrent-reconciles", 4, null,
						"operator.controllers.storagebukcet names no controller; the controllers are: pod, storagebucket")),
				"Use the name of a controller.");
		FailureAnalysis analysis = new OperatorPropertiesFailureAnalyzer()
			.analyze(new IllegalStateException("Failed to start", cause));
		assertThat(analysis.getDescription()).isEqualTo("Invalid operator properties:\n\n"
				+ "    Property: operator.controllers.storagebukcet.max-concurrent-reconciles\n    Value: \"4\"\n"
				+ "    Reason: operator.controllers.storagebukcet names no controller; the controllers are: pod, "
				+ "storagebucket\n");
		assertThat(analysis.getAction()).isEqualTo("Use the name of a controller.");
	}

	@Test
	void operatorPropertiesAnalyzerShouldLeaveOtherFailuresToOthers() {
		assertThat(new OperatorPropertiesFailureAnalyzer().analyze(new IllegalStateException("something else")))
			.isNull();
	}

	@Test
	void webhookPortInUseShouldPointAtTheProperty() throws Exception {
		try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			WebhookServer server = WebhookServer.builder(ServingCertificate.selfSigned(List.of("127.0.0.1")))
				.bindAddress("127.0.0.1")
				.port(taken.getLocalPort())
				.build();
			WebhookBindException cause = catchThrowableOfType(WebhookBindException.class, server::start);
			FailureAnalysis analysis = new WebhookBindFailureAnalyzer().analyze(new IllegalStateException(cause));
			assertThat(analysis.getDescription())
				.startsWith("Cannot serve webhooks on 127.0.0.1:" + taken.getLocalPort() + ": the port is in use");
			assertThat(analysis.getAction()).startsWith("Set operator.webhook.port");
		}
	}

}
