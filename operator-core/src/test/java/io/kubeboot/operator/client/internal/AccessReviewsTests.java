package io.kubeboot.operator.client.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ResourceAttributes;
import io.kubernetes.client.openapi.models.V1ResourceRule;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a rule is matched, and the reviews' answers read from a scripted server (what the
 * API server itself answers is covered by the integration tests).
 */
class AccessReviewsTests {

	private static final V1ResourceAttributes LIST_WIDGETS = new V1ResourceAttributes().verb("list")
		.group("bench.kubeboot.io")
		.resource("widgets");

	private static final V1ResourceAttributes PATCH_STATUS = new V1ResourceAttributes().verb("patch")
		.group("bench.kubeboot.io")
		.resource("widgets")
		.subresource("status");

	@Test
	void aRuleAllowsWhatItNamesOrStars() {
		assertThat(AccessReviews.allows(rule(List.of("get", "list"), "bench.kubeboot.io", List.of("widgets")),
				LIST_WIDGETS))
			.isTrue();
		assertThat(AccessReviews.allows(rule(List.of("*"), "*", List.of("*")), PATCH_STATUS)).isTrue();
		assertThat(AccessReviews.allows(rule(List.of("watch"), "bench.kubeboot.io", List.of("widgets")), LIST_WIDGETS))
			.isFalse();
		assertThat(AccessReviews.allows(rule(List.of("list"), "", List.of("widgets")), LIST_WIDGETS)).isFalse();
	}

	@Test
	void aSubresourceIsNamedWithItsResourceOrStarredAlone() {
		assertThat(AccessReviews.allows(rule(List.of("patch"), "bench.kubeboot.io", List.of("widgets")), PATCH_STATUS))
			.isFalse();
		assertThat(AccessReviews.allows(rule(List.of("patch"), "bench.kubeboot.io", List.of("widgets/status")),
				PATCH_STATUS))
			.isTrue();
		assertThat(AccessReviews.allows(rule(List.of("patch"), "bench.kubeboot.io", List.of("*/status")), PATCH_STATUS))
			.isTrue();
		assertThat(AccessReviews.allows(rule(List.of("list"), "bench.kubeboot.io", List.of("*/status")), LIST_WIDGETS))
			.isFalse();
	}

	@Test
	void namesLimitARuleToRequestsForThem() {
		V1ResourceRule named = rule(List.of("get"), "bench.kubeboot.io", List.of("widgets"))
			.resourceNames(List.of("a"));
		V1ResourceAttributes get = new V1ResourceAttributes().verb("get")
			.group("bench.kubeboot.io")
			.resource("widgets");
		assertThat(AccessReviews.allows(named, get)).isFalse();
		assertThat(AccessReviews.allows(named, get.name("a"))).isTrue();
		assertThat(AccessReviews.allows(named,
				new V1ResourceAttributes().verb("get").group("bench.kubeboot.io").resource("widgets").name("b")))
			.isFalse();
	}

	@Test
	void reviewsWhoseAnswersHaveFieldsOfANewerReleaseAreRead() throws IOException, ApiException {
		HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		server.createContext("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
				(exchange) -> answer(exchange, """
						{"apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectAccessReview", "spec": {},
						 "status": {"allowed": true, "fieldOfANewerRelease": "x"}}"""));
		server.createContext("/apis/authorization.k8s.io/v1/selfsubjectrulesreviews", (exchange) -> answer(exchange, """
				{"apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectRulesReview", "spec": {},
				 "status": {"incomplete": false, "nonResourceRules": [], "fieldOfANewerRelease": "x",
				 "resourceRules": [{"verbs": ["list"], "apiGroups": ["bench.kubeboot.io"],
				 "resources": ["widgets"]}]}}"""));
		server.start();
		try {
			ApiClient client = new ApiClient();
			client.setBasePath("http://127.0.0.1:" + server.getAddress().getPort());
			assertThat(AccessReviews.isAllowed(client, LIST_WIDGETS)).isTrue();
			assertThat(AccessReviews.rulesIn(client, "default")).singleElement()
				.satisfies((rule) -> assertThat(AccessReviews.allows(rule, LIST_WIDGETS)).isTrue());
		}
		finally {
			server.stop(0);
		}
	}

	private static void answer(HttpExchange exchange, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(201, bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

	private static V1ResourceRule rule(List<String> verbs, String group, List<String> resources) {
		return new V1ResourceRule().verbs(verbs).apiGroups(List.of(group)).resources(resources);
	}

}
