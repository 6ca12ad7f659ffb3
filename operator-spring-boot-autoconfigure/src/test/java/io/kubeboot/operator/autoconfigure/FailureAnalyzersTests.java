package io.kubeboot.operator.autoconfigure;

import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;

import io.kubeboot.operator.autoconfigure.InvalidOperatorPropertyException.Problem;
import io.kubeboot.operator.cache.CacheAccessDeniedException;
import io.kubeboot.operator.cache.CacheSyncException;
import io.kubeboot.operator.cache.FieldSelectorNotSupportedException;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.client.ApiServerUnreachableException;
import io.kubeboot.operator.client.KindNotServedException;
import io.kubeboot.operator.leaderelection.LeaseAccessDeniedException;
import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;
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
	void unsupportedFieldSelectorShouldNameTheControllerAndSayWhichFieldsCanSelect() {
		FieldSelectorNotSupportedException cause = new FieldSelectorNotSupportedException(
				new InformerKey(Swatch.class, "shop", null, "spec.shape=round", false), "Swatch (example.com/v1)",
				"400 Bad Request: field label not supported: spec.shape")
			.withUsers(List.of("controller-swatch"));
		FailureAnalysis analysis = new FieldSelectorFailureAnalyzer()
			.analyze(new IllegalStateException("Failed to start bean 'operatorManagerLifecycle'", cause));
		assertThat(analysis.getDescription()).isEqualTo("The API server does not support the field selector "
				+ "'spec.shape=round' of Swatch (example.com/v1), asked for by controller-swatch (informer "
				+ "Swatch[namespace=shop, fieldSelector=spec.shape=round]): 400 Bad Request: field label not supported: "
				+ "spec.shape. A custom resource can be selected by metadata.name, metadata.namespace and the fields its "
				+ "CustomResourceDefinition declares in selectableFields; a built-in kind by metadata.name, "
				+ "metadata.namespace and the fields the API server supports for it");
		assertThat(analysis.getAction()).startsWith("Select by a field the API server supports for the kind")
			.contains("selectableFields");
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
		InvalidOperatorBeanException cause = new InvalidOperatorBeanException("@Reconciles bean 'x' is invalid: ...",
				new IllegalStateException());
		assertThat(new InvalidReconcilerFailureAnalyzer().analyze(cause).getDescription())
			.isEqualTo("@Reconciles bean 'x' is invalid: ...");
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

	@Test
	void leaseAccessDeniedShouldSayWhatToGrantInWhichNamespace() {
		LeaseAccessDeniedException cause = new LeaseAccessDeniedException("operators", "shop-leader",
				List.of("create", "update"));
		FailureAnalysis analysis = new LeaseAccessDeniedFailureAnalyzer()
			.analyze(new IllegalStateException("Failed to start bean 'operatorManagerLifecycle'", cause));
		assertThat(analysis.getDescription()).isEqualTo("Leader election needs to create, update leases "
				+ "(coordination.k8s.io) in namespace 'operators' for its Lease 'shop-leader', which RBAC denies to "
				+ "this operator's identity");
		assertThat(analysis.getAction()).startsWith("Grant the operator's service account get, create and update")
			.contains("kubectl create role leader-election -n operators --verb=get,create,update,watch "
					+ "--resource=leases.coordination.k8s.io");
	}

	@Test
	void unreachableApiServerShouldNameItsUrlAndWhereItCameFrom() {
		ApiServerUnreachableException cause = new ApiServerUnreachableException("https://127.0.0.1:1",
				Duration.ofSeconds(3), "ConnectException: Connection refused", new ConnectException())
			.withServerOrigin("KUBECONFIG=/home/me/kind.yaml, context kind-dev");
		FailureAnalysis analysis = new ApiServerUnreachableFailureAnalyzer()
			.analyze(new IllegalStateException("Failed to start bean 'operatorManagerLifecycle'", cause));
		assertThat(analysis.getDescription()).isEqualTo("Cannot reach the API server at https://127.0.0.1:1 (from "
				+ "KUBECONFIG=/home/me/kind.yaml, context kind-dev) within PT3S: ConnectException: Connection refused");
		assertThat(analysis.getAction()).startsWith("Check that the API server at https://127.0.0.1:1 is up");
	}

	@Test
	void missingKubernetesConfigurationShouldRepeatWhereItLooked() {
		KubernetesConfigurationException cause = new KubernetesConfigurationException(
				"No Kubernetes configuration found. Looked at:\n    KUBECONFIG: not set", "Point the operator ...");
		FailureAnalysis analysis = new KubernetesConfigurationFailureAnalyzer()
			.analyze(new IllegalStateException("Error creating bean", cause));
		assertThat(analysis.getDescription()).isEqualTo(cause.getMessage());
		assertThat(analysis.getAction()).isEqualTo("Point the operator ...");
	}

	@KubernetesKind(group = "example.com", version = "v1", kind = "Swatch")
	static class Swatch extends CustomResource<Object, Object> {

	}

}
