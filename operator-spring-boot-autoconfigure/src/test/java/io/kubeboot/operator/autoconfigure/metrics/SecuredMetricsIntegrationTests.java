package io.kubeboot.operator.autoconfigure.metrics;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AuthorizationV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ClusterRoleBinding;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1NonResourceAttributes;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1RoleRef;
import io.kubernetes.client.openapi.models.V1SubjectAccessReview;
import io.kubernetes.client.openapi.models.V1SubjectAccessReviewSpec;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.support.GenericApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Spring Boot application with {@code operator.metrics.auth.enabled=true} against a
 * real kube-apiserver, which reviews the callers' bearer tokens (its static token file's
 * users): {@code /actuator/prometheus} answers 401 without a token or with one the API
 * server does not know, 403 to a user RBAC does not let {@code get} it, and 200 to one it
 * does, on the management port of its own as on the application's, under a context path
 * and a servlet path, whatever the spelling of the path or the method; the health
 * endpoint, which the kubelet probes without a token, stays open.
 */
@WithControlPlane
class SecuredMetricsIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	/** A user RBAC lets read the metrics, by a ClusterRole of this test's own. */
	private static final String READER = "user3";

	/** A user RBAC lets read nothing. */
	private static final String STRANGER = "user1";

	private final HttpClient http = HttpClient.newHttpClient();

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	private final List<String> clusterRoles = new ArrayList<>();

	private @Nullable ApiClient admin;

	@AfterEach
	void close() throws ApiException {
		this.contexts.forEach(ConfigurableApplicationContext::close);
		if (this.admin != null) {
			RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(this.admin);
			for (String name : this.clusterRoles) {
				rbac.deleteClusterRoleBinding(name).execute();
				rbac.deleteClusterRole(name).execute();
			}
		}
	}

	@Test
	void onAManagementPortOfItsOwnTheMetricsAnswerOnlyWhomRbacLetsGetThem(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		grantMetricsTo(controlPlane, READER, "/actuator/prometheus");
		ConfigurableApplicationContext context = run(controlPlane, namespace, "--management.server.port=0",
				"--management.server.address=127.0.0.1");
		int management = Integer.parseInt(context.getEnvironment().getProperty("local.management.port"));
		int application = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
		assertThat(management).isNotEqualTo(application);

		assertAnswers(controlPlane, management);
		// the application's port serves no Actuator endpoint, and its probes stay open
		await().atMost(WAIT).until(() -> get(application, "/healthz", null).statusCode() == 200);
	}

	@Test
	void onTheApplicationsPortTheMetricsAnswerOnlyWhomRbacLetsGetThem(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		grantMetricsTo(controlPlane, READER, "/actuator/prometheus");
		ConfigurableApplicationContext context = run(controlPlane, namespace);
		int application = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));

		assertAnswers(controlPlane, application);
		await().atMost(WAIT).until(() -> get(application, "/healthz", null).statusCode() == 200);
	}

	@Test
	void aUserAllowedAnotherPathIsRefusedThisOne(ControlPlane controlPlane, TestNamespace namespace) throws Exception {
		grantMetricsTo(controlPlane, "user2", "/metrics");
		ConfigurableApplicationContext context = run(controlPlane, namespace);
		int port = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
		HttpResponse<String> refused = get(port, "/actuator/prometheus", controlPlane.token("user2"));
		assertThat(refused.statusCode()).isEqualTo(403);
		assertThat(refused.body()).isEqualTo("Authorization denied for user user2\n");
	}

	/**
	 * No spelling of the path and no method gets past the filter: the container matches
	 * the filter on the decoded, normalized path it dispatches.
	 */
	@Test
	void noVariantOfThePathOrMethodGetsPastTheFilter(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		ConfigurableApplicationContext context = run(controlPlane, namespace);
		int port = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
		for (String path : List.of("/actuator/prometheus", "/actuator/prometheus/", "/actuator/prometheus;x=y",
				"/actuator//prometheus", "/actuator/%70rometheus", "/actuator/prometheus/../prometheus",
				"/actuator/./prometheus")) {
			HttpResponse<String> anonymous = get(port, path, null);
			assertThat(anonymous.statusCode()).as(path).isEqualTo(401);
			assertThat(anonymous.body()).as(path).doesNotContain("controller_runtime");
		}
		for (String method : List.of("HEAD", "POST", "OPTIONS", "PUT", "DELETE")) {
			HttpResponse<String> anonymous = send(port, method, "/actuator/prometheus", null);
			assertThat(anonymous.statusCode()).as(method).isEqualTo(401);
			assertThat(anonymous.body()).as(method).doesNotContain("controller_runtime");
		}
	}

	/**
	 * With a context path and a servlet path, the filter guards where Actuator is served,
	 * and the SubjectAccessReview asks about the whole path.
	 */
	@Test
	void underAContextPathAndAServletPathTheFilterGuardsTheWholePath(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		grantMetricsTo(controlPlane, READER, "/shop/mvc/actuator/prometheus");
		ConfigurableApplicationContext context = run(controlPlane, namespace, "--server.servlet.context-path=/shop",
				"--spring.mvc.servlet.path=/mvc");
		int port = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
		assertThat(get(port, "/shop/mvc/actuator/prometheus", null).statusCode()).isEqualTo(401);
		assertThat(get(port, "/shop/mvc/actuator/prometheus/", null).statusCode()).isEqualTo(401);
		assertThat(get(port, "/shop/mvc/actuator/prometheus", controlPlane.token(STRANGER)).statusCode())
			.isEqualTo(403);
		HttpResponse<String> reader = get(port, "/shop/mvc/actuator/prometheus", controlPlane.token(READER));
		assertThat(reader.statusCode()).isEqualTo(200);
		assertThat(reader.body()).contains("controller_runtime_reconcile_total");
	}

	private void assertAnswers(ControlPlane controlPlane, int port) throws Exception {
		HttpResponse<String> anonymous = get(port, "/actuator/prometheus", null);
		assertThat(anonymous.statusCode()).isEqualTo(401);
		assertThat(anonymous.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
		assertThat(anonymous.body()).doesNotContain("controller_runtime");

		assertThat(get(port, "/actuator/prometheus", "not-a-token-the-api-server-knows").statusCode()).isEqualTo(401);

		HttpResponse<String> stranger = get(port, "/actuator/prometheus", controlPlane.token(STRANGER));
		assertThat(stranger.statusCode()).isEqualTo(403);
		assertThat(stranger.body()).isEqualTo("Authorization denied for user " + STRANGER + "\n")
			.doesNotContain("controller_runtime");

		HttpResponse<String> reader = get(port, "/actuator/prometheus", controlPlane.token(READER));
		assertThat(reader.statusCode()).isEqualTo(200);
		assertThat(reader.body()).contains("controller_runtime_reconcile_total{controller=\"configmap\"");
		// answered from the cache as from the API server
		assertThat(get(port, "/actuator/prometheus", controlPlane.token(READER)).statusCode()).isEqualTo(200);
		assertThat(get(port, "/actuator/prometheus", controlPlane.token(STRANGER)).statusCode()).isEqualTo(403);

		// the kubelet probes without a token (readiness may take a probe interval to
		// tell)
		assertThat(get(port, "/actuator/health/liveness", null).statusCode()).isEqualTo(200);
		await().atMost(WAIT).until(() -> get(port, "/actuator/health/readiness", null).statusCode() == 200);
		await().atMost(WAIT).until(() -> get(port, "/actuator/health", null).statusCode() == 200);
	}

	private ConfigurableApplicationContext run(ControlPlane controlPlane, TestNamespace namespace,
			String... arguments) {
		ApiClient client = controlPlane.adminClient();
		List<String> all = new ArrayList<>(List.of("--server.port=0", "--server.address=127.0.0.1",
				"--spring.main.banner-mode=off", "--management.endpoints.web.exposure.include=prometheus,health",
				"--management.endpoint.health.probes.enabled=true", "--operator.namespace=" + namespace,
				"--operator.metrics.auth.enabled=true"));
		all.addAll(List.of(arguments));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(MetricsApplication.class)
			.initializers((initialized) -> ((GenericApplicationContext) initialized).registerBean("kubernetesApiClient",
					ApiClient.class, () -> client))
			.run(all.toArray(String[]::new));
		this.contexts.add(context);
		return context;
	}

	private void grantMetricsTo(ControlPlane controlPlane, String user, String path) throws ApiException {
		this.admin = controlPlane.adminClient();
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(this.admin);
		String name = "metrics-reader-" + user + "-" + System.nanoTime();
		rbac.createClusterRole(new V1ClusterRole().metadata(new V1ObjectMeta().name(name))
			.addRulesItem(new V1PolicyRule().addNonResourceURLsItem(path).addVerbsItem("get"))).execute();
		this.clusterRoles.add(name);
		rbac.createClusterRoleBinding(new V1ClusterRoleBinding().metadata(new V1ObjectMeta().name(name))
			.roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("ClusterRole").name(name))
			.addSubjectsItem(new RbacV1Subject().kind("User").name(user).apiGroup("rbac.authorization.k8s.io")))
			.execute();
		// RBAC takes a moment to see a new binding: a refusal asked meanwhile would be
		// remembered by the filter for the denied time to live
		AuthorizationV1Api authorization = new AuthorizationV1Api(this.admin);
		await().atMost(WAIT)
			.until(() -> Boolean.TRUE.equals(authorization
				.createSubjectAccessReview(new V1SubjectAccessReview().spec(new V1SubjectAccessReviewSpec().user(user)
					.nonResourceAttributes(new V1NonResourceAttributes().path(path).verb("get"))))
				.execute()
				.getStatus()
				.getAllowed()));
	}

	private HttpResponse<String> get(int port, String path, @Nullable String token) throws Exception {
		return send(port, "GET", path, token);
	}

	private HttpResponse<String> send(int port, String method, String path, @Nullable String token) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.method(method, HttpRequest.BodyPublishers.noBody());
		if (path.endsWith("/prometheus")) {
			request.header("Accept", "text/plain;version=0.0.4");
		}
		if (token != null) {
			request.header("Authorization", "Bearer " + token);
		}
		return this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class MetricsApplication {

		@Bean
		@Reconciles(V1ConfigMap.class)
		io.kubeboot.operator.reconcile.Reconciler configMapReconciler() {
			return (Request request) -> Result.done();
		}

	}

}
