package io.kubeboot.operator.autoconfigure.metrics;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubeboot.operator.autoconfigure.metrics.TokenAccessReviews.Verdict;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AuthenticationV1Api;
import io.kubernetes.client.openapi.apis.AuthorizationV1Api;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What {@link TokenAccessReviews} asks and remembers, against a scripted API server that
 * knows the token {@code good} (user {@code reader}, who may get
 * {@code /actuator/prometheus}) and the token {@code other} (user {@code other}, who may
 * get nothing), on a fake clock. The real API server's answers are in
 * {@link SecuredMetricsIntegrationTests}.
 */
class TokenAccessReviewsTests {

	private static final String PATH = "/actuator/prometheus";

	private static final Duration ALLOWED_TTL = Duration.ofMinutes(1);

	private static final Duration DENIED_TTL = Duration.ofSeconds(10);

	private final AtomicLong now = new AtomicLong(1_000_000_000L);

	private final AtomicInteger tokenReviews = new AtomicInteger();

	private final AtomicInteger accessReviews = new AtomicInteger();

	private final List<JsonObject> bodies = new CopyOnWriteArrayList<>();

	private volatile int failWith;

	private HttpServer server;

	@BeforeEach
	void start() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/", this::answer);
		this.server.start();
	}

	@AfterEach
	void stop() {
		this.server.stop(0);
	}

	@Test
	void anAllowedTokenIsAskedAboutOnceForItsPathUntilTheAllowedTimeToLivePassed() throws Exception {
		TokenAccessReviews reviews = reviews(List.of(), 16);
		assertThat(reviews.review("good", "get", PATH).verdict()).isEqualTo(Verdict.ALLOWED);
		this.now.addAndGet(ALLOWED_TTL.minusSeconds(1).toNanos());
		assertThat(reviews.review("good", "get", PATH).verdict()).isEqualTo(Verdict.ALLOWED);
		assertThat(this.tokenReviews).hasValue(1);
		assertThat(this.accessReviews).hasValue(1);
		this.now.addAndGet(Duration.ofSeconds(1).toNanos());
		assertThat(reviews.review("good", "get", PATH).verdict()).isEqualTo(Verdict.ALLOWED);
		assertThat(this.tokenReviews).hasValue(2);
		assertThat(this.accessReviews).hasValue(2);
	}

	@Test
	void theSubjectAccessReviewAsksAboutTheTokensUserOnThePathWithTheVerb() throws Exception {
		reviews(List.of(), 16).review("good", "get", PATH);
		JsonObject spec = this.bodies.get(1).getAsJsonObject("spec");
		assertThat(spec.get("user").getAsString()).isEqualTo("reader");
		assertThat(spec.get("uid").getAsString()).isEqualTo("uid-reader");
		assertThat(spec.getAsJsonArray("groups")).hasToString("[\"system:authenticated\",\"monitoring\"]");
		assertThat(spec.getAsJsonObject("nonResourceAttributes"))
			.hasToString("{\"path\":\"/actuator/prometheus\",\"verb\":\"get\"}");
		assertThat(spec.has("resourceAttributes")).isFalse();
	}

	@Test
	void anUnknownTokenIsUnauthenticatedAndRememberedForTheDeniedTimeToLiveOnly() throws Exception {
		TokenAccessReviews reviews = reviews(List.of(), 16);
		assertThat(reviews.review("nonsense", "get", PATH).verdict()).isEqualTo(Verdict.UNAUTHENTICATED);
		assertThat(reviews.review("nonsense", "get", PATH).verdict()).isEqualTo(Verdict.UNAUTHENTICATED);
		assertThat(this.tokenReviews).hasValue(1);
		assertThat(this.accessReviews).hasValue(0);
		this.now.addAndGet(DENIED_TTL.toNanos());
		reviews.review("nonsense", "get", PATH);
		assertThat(this.tokenReviews).hasValue(2);
	}

	@Test
	void aUserWithoutTheRightIsForbiddenPathByPath() throws Exception {
		TokenAccessReviews reviews = reviews(List.of(), 16);
		TokenAccessReviews.Decision forbidden = reviews.review("other", "get", PATH);
		assertThat(forbidden.verdict()).isEqualTo(Verdict.FORBIDDEN);
		assertThat(forbidden.user()).isEqualTo("other");
		assertThat(reviews.review("good", "get", "/actuator/metrics").verdict()).isEqualTo(Verdict.FORBIDDEN);
		assertThat(reviews.review("good", "post", PATH).verdict()).isEqualTo(Verdict.FORBIDDEN);
		assertThat(reviews.review("good", "get", PATH).verdict()).isEqualTo(Verdict.ALLOWED);
		assertThat(this.accessReviews).hasValue(4);
	}

	@Test
	void theCacheForgetsTheLeastRecentlyUsedDecisionBeyondItsSize() throws Exception {
		TokenAccessReviews reviews = reviews(List.of(), 2);
		reviews.review("good", "get", PATH);
		reviews.review("other", "get", PATH);
		reviews.review("good", "get", PATH);
		reviews.review("nonsense", "get", PATH);
		assertThat(this.tokenReviews).hasValue(3);
		// good was used last of the first two: other was forgotten
		reviews.review("good", "get", PATH);
		assertThat(this.tokenReviews).hasValue(3);
		reviews.review("other", "get", PATH);
		assertThat(this.tokenReviews).hasValue(4);
	}

	@Test
	void aFailedReviewIsThrownAndNotRemembered() throws Exception {
		TokenAccessReviews reviews = reviews(List.of(), 16);
		this.failWith = 503;
		assertThatExceptionOfType(ApiException.class).isThrownBy(() -> reviews.review("good", "get", PATH))
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(503));
		this.failWith = 0;
		assertThat(reviews.review("good", "get", PATH).verdict()).isEqualTo(Verdict.ALLOWED);
		assertThat(this.tokenReviews).hasValue(2);
	}

	@Test
	void theTokenReviewNamesTheAudiencesGiven() throws Exception {
		reviews(List.of("metrics"), 16).review("good", "get", PATH);
		assertThat(this.bodies.get(0).getAsJsonObject("spec"))
			.hasToString("{\"audiences\":[\"metrics\"],\"token\":\"good\"}");
		reviews(List.of(), 16).review("good", "get", PATH);
		// none: the API server's own
		JsonArray none = this.bodies.get(2).getAsJsonObject("spec").getAsJsonArray("audiences");
		assertThat((none != null) ? none.size() : 0).isZero();
	}

	private TokenAccessReviews reviews(List<String> audiences, int cacheSize) {
		ApiClient client = new ApiClient();
		client.setBasePath("http://127.0.0.1:" + this.server.getAddress().getPort());
		return new TokenAccessReviews(new AuthenticationV1Api(client), new AuthorizationV1Api(client), audiences,
				ALLOWED_TTL, DENIED_TTL, cacheSize, this.now::get);
	}

	private void answer(HttpExchange exchange) throws IOException {
		JsonObject body = JsonParser
			.parseString(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8))
			.getAsJsonObject();
		this.bodies.add(body);
		String path = exchange.getRequestURI().getPath();
		JsonObject spec = body.getAsJsonObject("spec");
		String answer;
		int status = 201;
		if (this.failWith != 0) {
			status = this.failWith;
			answer = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":" + status + "}";
			if (path.endsWith("/tokenreviews")) {
				this.tokenReviews.incrementAndGet();
			}
		}
		else if (path.equals("/apis/authentication.k8s.io/v1/tokenreviews")) {
			this.tokenReviews.incrementAndGet();
			String token = spec.get("token").getAsString();
			String user = token.equals("good") ? "reader" : token.equals("other") ? "other" : null;
			answer = "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenReview\",\"spec\":" + spec
					+ ",\"status\":" + ((user != null) ? "{\"authenticated\":true,\"user\":{\"username\":\"" + user
							+ "\",\"uid\":\"uid-" + user + "\",\"groups\":[\"system:authenticated\",\"monitoring\"]}}"
							: "{\"authenticated\":false,\"error\":\"invalid bearer token\"}")
					+ "}";
		}
		else {
			this.accessReviews.incrementAndGet();
			JsonObject attributes = spec.getAsJsonObject("nonResourceAttributes");
			boolean allowed = spec.get("user").getAsString().equals("reader")
					&& attributes.get("path").getAsString().equals(PATH)
					&& attributes.get("verb").getAsString().equals("get");
			answer = "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SubjectAccessReview\",\"spec\":" + spec
					+ ",\"status\":{\"allowed\":" + allowed + "}}";
		}
		byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(status, bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

}
