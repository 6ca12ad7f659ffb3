package io.kubeboot.operator.autoconfigure.metrics;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
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
import static org.awaitility.Awaitility.await;

/**
 * What {@link TokenAccessReviews} asks and remembers, against a scripted API server that
 * knows the token {@code good} (user {@code reader}, who may get
 * {@code /actuator/prometheus}), the token {@code unaware} (the same user, from an
 * authenticator that ignores audiences) and the token {@code other} (user {@code other},
 * who may get nothing), on a fake clock. The real API server's answers are in
 * {@link SecuredMetricsIntegrationTests}.
 */
class TokenAccessReviewsTests {

	private static final String PATH = "/actuator/prometheus";

	private static final Duration ALLOWED_TTL = Duration.ofMinutes(1);

	private static final Duration DENIED_TTL = Duration.ofSeconds(10);

	private static final Duration WAIT = Duration.ofSeconds(20);

	private final ExecutorService handlers = Executors.newCachedThreadPool();

	private final AtomicLong now = new AtomicLong(1_000_000_000L);

	private final AtomicInteger tokenReviews = new AtomicInteger();

	private final AtomicInteger accessReviews = new AtomicInteger();

	private final List<JsonObject> bodies = new CopyOnWriteArrayList<>();

	private volatile int failWith;

	/** A field of a newer release added to each answer's status, if set. */
	private volatile String newerField = "";

	/**
	 * Holds the TokenReviews after the first {@link #holdAfter} until released, if set.
	 */
	private volatile CountDownLatch hold;

	private volatile int holdAfter;

	private HttpServer server;

	@BeforeEach
	void start() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/", this::answer);
		// reviews asked at once are answered at once
		this.server.setExecutor(this.handlers);
		this.server.start();
	}

	@AfterEach
	void stop() {
		CountDownLatch held = this.hold;
		if (held != null) {
			held.countDown();
		}
		this.server.stop(0);
		this.handlers.shutdownNow();
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
	void theCacheForgetsTheLeastRecentlyUsedTokenBeyondItsSize() throws Exception {
		TokenAccessReviews reviews = reviews(List.of(), 1);
		reviews.review("good", "get", PATH);
		reviews.review("other", "get", PATH);
		reviews.review("good", "get", PATH);
		assertThat(this.tokenReviews).hasValue(3);
	}

	/**
	 * Anyone who reaches the port can send made-up tokens: remembering them must not push
	 * out the tokens that were let in, or every scrape would cost two reviews again.
	 */
	@Test
	void unknownTokensNeverPushOutTheTokensLetIn() throws Exception {
		TokenAccessReviews reviews = reviews(List.of(), 4);
		reviews.review("good", "get", PATH);
		for (int i = 0; i < 1000; i++) {
			assertThat(reviews.review("junk-" + i, "get", PATH).verdict()).isEqualTo(Verdict.UNAUTHENTICATED);
		}
		assertThat(reviews.review("good", "get", PATH).verdict()).isEqualTo(Verdict.ALLOWED);
		assertThat(this.tokenReviews).hasValue(1001);
		assertThat(this.accessReviews).hasValue(1);
	}

	/**
	 * A token let in may ask for any path under the endpoint's: the refusals must not
	 * push out what it, or the scraper, may do; and who a token is is asked once,
	 * whatever the paths.
	 */
	@Test
	void refusedPathsNeverPushOutTheAccessesAllowedAndTheTokenIsAuthenticatedOnce() throws Exception {
		TokenAccessReviews reviews = reviews(List.of(), 4);
		reviews.review("good", "get", PATH);
		for (int i = 0; i < 1000; i++) {
			assertThat(reviews.review("good", "get", PATH + "/" + i).verdict()).isEqualTo(Verdict.FORBIDDEN);
		}
		assertThat(reviews.review("good", "get", PATH).verdict()).isEqualTo(Verdict.ALLOWED);
		assertThat(this.tokenReviews).hasValue(1);
		assertThat(this.accessReviews).hasValue(1001);
	}

	@Test
	void aStringThatCannotBeATokenIsRefusedWithoutAsking() throws Exception {
		TokenAccessReviews reviews = reviews(List.of(), 16);
		assertThat(reviews.review("x".repeat(TokenAccessReviews.MAX_TOKEN_LENGTH + 1), "get", PATH).verdict())
			.isEqualTo(Verdict.UNAUTHENTICATED);
		assertThat(reviews.review("two words", "get", PATH).verdict()).isEqualTo(Verdict.UNAUTHENTICATED);
		assertThat(reviews.review("caf\u00e9", "get", PATH).verdict()).isEqualTo(Verdict.UNAUTHENTICATED);
		assertThat(this.tokenReviews).hasValue(0);
	}

	@Test
	void requestsThatNeedTheSameReviewAtOnceWaitForOne() throws Exception {
		TokenAccessReviews reviews = reviews(List.of(), 16);
		this.holdAfter = 0;
		this.hold = new CountDownLatch(1);
		List<Thread> threads = new ArrayList<>();
		List<Verdict> verdicts = new CopyOnWriteArrayList<>();
		for (int i = 0; i < 5; i++) {
			Thread thread = new Thread(() -> {
				try {
					verdicts.add(reviews.review("good", "get", PATH).verdict());
				}
				catch (ApiException ex) {
					throw new IllegalStateException(ex);
				}
			});
			threads.add(thread);
			thread.start();
		}
		// one asks, the four others wait for its answer
		await().atMost(WAIT)
			.until(() -> this.tokenReviews.get() == 1
					&& threads.stream().filter((thread) -> thread.getState() == Thread.State.WAITING).count() == 4);
		this.hold.countDown();
		for (Thread thread : threads) {
			thread.join(WAIT.toMillis());
		}
		assertThat(verdicts).hasSize(5).containsOnly(Verdict.ALLOWED);
		assertThat(this.tokenReviews).hasValue(1);
		assertThat(this.accessReviews).hasValue(1);
	}

	@Test
	void aReviewBeyondTheMostAskedAtOnceIsRefusedAtOnceWhileRememberedAnswersStillCount() throws Exception {
		TokenAccessReviews reviews = reviews(List.of(), 16);
		reviews.review("good", "get", PATH);
		this.holdAfter = 1;
		this.hold = new CountDownLatch(1);
		List<Thread> threads = new ArrayList<>();
		for (int i = 0; i < TokenAccessReviews.MAX_CONCURRENT_REVIEWS; i++) {
			String token = "slow-" + i;
			Thread thread = new Thread(() -> {
				try {
					reviews.review(token, "get", PATH);
				}
				catch (ApiException ex) {
					throw new IllegalStateException(ex);
				}
			});
			threads.add(thread);
			thread.start();
		}
		await().atMost(WAIT).until(() -> this.tokenReviews.get() == 1 + TokenAccessReviews.MAX_CONCURRENT_REVIEWS);
		long start = System.nanoTime();
		assertThatExceptionOfType(TokenAccessReviews.Busy.class)
			.isThrownBy(() -> reviews.review("one-more", "get", PATH));
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(WAIT);
		assertThat(reviews.review("good", "get", PATH).verdict()).isEqualTo(Verdict.ALLOWED);
		this.hold.countDown();
		for (Thread thread : threads) {
			thread.join(WAIT.toMillis());
		}
		// a permit is free again
		assertThat(reviews.review("one-more", "get", PATH).verdict()).isEqualTo(Verdict.UNAUTHENTICATED);
	}

	/**
	 * An authenticator that ignores audiences (a webhook, OIDC) answers without
	 * {@code status.audiences}: the token is valid for the API server, not for the
	 * audiences asked.
	 */
	@Test
	void withAudiencesATokenMustBeValidForOneOfThem() throws Exception {
		TokenAccessReviews reviews = reviews(List.of("metrics", "sample-operator"), 16);
		assertThat(reviews.review("good", "get", PATH).verdict()).isEqualTo(Verdict.ALLOWED);
		assertThat(reviews.review("unaware", "get", PATH).verdict()).isEqualTo(Verdict.UNAUTHENTICATED);
		assertThat(reviews(List.of(), 16).review("unaware", "get", PATH).verdict()).isEqualTo(Verdict.ALLOWED);
	}

	@Test
	void answersWithFieldsOfANewerReleaseAreRead() throws Exception {
		this.newerField = "\"fieldOfANewerRelease\":\"x\",";
		assertThat(reviews(List.of(), 16).review("good", "get", PATH).verdict()).isEqualTo(Verdict.ALLOWED);
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

	private static void waitFor(CountDownLatch latch) {
		try {
			latch.await(WAIT.toSeconds(), TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
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
			int count = this.tokenReviews.incrementAndGet();
			CountDownLatch held = this.hold;
			if (held != null && count > this.holdAfter) {
				waitFor(held);
			}
			String token = spec.get("token").getAsString();
			String user = switch (token) {
				case "good", "unaware" -> "reader";
				case "other" -> "other";
				default -> null;
			};
			// an audience-aware authenticator answers the audiences asked; "unaware" none
			String audiences = (spec.has("audiences") && !token.equals("unaware"))
					? ",\"audiences\":" + spec.get("audiences") : "";
			answer = "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenReview\",\"spec\":" + spec
					+ ",\"status\":"
					+ ((user != null)
							? "{" + this.newerField + "\"authenticated\":true,\"user\":{\"username\":\"" + user
									+ "\",\"uid\":\"uid-" + user
									+ "\",\"groups\":[\"system:authenticated\",\"monitoring\"]}" + audiences + "}"
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
					+ ",\"status\":{" + this.newerField + "\"allowed\":" + allowed + "}}";
		}
		byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(status, bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

}
