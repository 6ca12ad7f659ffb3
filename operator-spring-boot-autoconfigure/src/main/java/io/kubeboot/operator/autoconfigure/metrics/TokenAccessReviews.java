package io.kubeboot.operator.autoconfigure.metrics;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.function.LongSupplier;

import com.google.gson.Gson;
import io.kubeboot.operator.client.internal.Answers;
import io.kubeboot.operator.client.internal.ModelReading;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AuthenticationV1Api;
import io.kubernetes.client.openapi.apis.AuthorizationV1Api;
import io.kubernetes.client.openapi.models.V1NonResourceAttributes;
import io.kubernetes.client.openapi.models.V1SubjectAccessReview;
import io.kubernetes.client.openapi.models.V1SubjectAccessReviewSpec;
import io.kubernetes.client.openapi.models.V1SubjectAccessReviewStatus;
import io.kubernetes.client.openapi.models.V1TokenReview;
import io.kubernetes.client.openapi.models.V1TokenReviewSpec;
import io.kubernetes.client.openapi.models.V1TokenReviewStatus;
import io.kubernetes.client.openapi.models.V1UserInfo;
import org.jspecify.annotations.Nullable;

/**
 * Asks the API server who presents a bearer token (a TokenReview) and whether they may
 * use a path with a verb (a SubjectAccessReview with non-resource attributes, as RBAC's
 * {@code nonResourceURLs} grant), as kube-rbac-proxy and controller-runtime's metrics
 * filter do, and remembers the answers apart, as the API server's delegating
 * authenticator and authorizer do: who a token is (by its SHA-256, never in clear), and
 * what a user may do on a path with a verb. A positive answer is remembered for one time
 * to live, a negative one for another, in a cache of its own, smaller, so that a flood of
 * junk tokens or paths cannot push out the answers that let a scraper in.
 * <p>
 * A review costs the API server, so: a token that cannot be one (too long, or not
 * printable ASCII) is refused without asking; requests that need the same answer at once
 * wait for one review; and at most {@value #MAX_CONCURRENT_REVIEWS} reviews are asked at
 * a time, a request that would need another is answered {@link Busy} at once, without
 * holding a thread. A review that fails is not remembered. When audiences are given, a
 * token is authenticated only if the API server says it is valid for one of them
 * ({@code status.audiences}): an authenticator that ignores audiences answers with none.
 * Thread-safe.
 */
final class TokenAccessReviews {

	/** How many reviews are asked of the API server at once, at most. */
	static final int MAX_CONCURRENT_REVIEWS = 8;

	/**
	 * The longest token asked about, in characters; service account tokens take ~1 KiB.
	 */
	static final int MAX_TOKEN_LENGTH = 8192;

	/** How many negative answers (of each cache) are remembered at most. */
	private static final int NEGATIVE_CACHE_SIZE = 256;

	private final AuthenticationV1Api authentication;

	private final AuthorizationV1Api authorization;

	/** Reads the answers, ignoring fields client-java's models lack. */
	private final Gson answers;

	private final List<String> audiences;

	private final long allowedTtlNanos;

	private final long deniedTtlNanos;

	private final LongSupplier nanoTime;

	private final Semaphore reviews = new Semaphore(MAX_CONCURRENT_REVIEWS);

	private final ExpiringCache<String, V1UserInfo> authenticated;

	private final ExpiringCache<String, Boolean> unauthenticated;

	private final ExpiringCache<Access, Boolean> allowed;

	private final ExpiringCache<Access, Boolean> denied;

	/** The reviews asked now, by what they ask: a token's hash, or an access. */
	private final Map<Object, CompletableFuture<?>> asking = new ConcurrentHashMap<>();

	/**
	 * Creates the reviews.
	 * @param authentication the API of TokenReviews, through a client with a timeout
	 * @param authorization the API of SubjectAccessReviews, through the same client
	 * @param audiences the audiences a token must be valid for, empty for the API
	 * server's
	 * @param allowedTtl how long an authenticated token, and an allowed access, is
	 * remembered
	 * @param deniedTtl how long a token not authenticated, and an access denied, is
	 * remembered
	 * @param cacheSize how many authenticated tokens, and allowed accesses, are
	 * remembered at most
	 * @param nanoTime the monotonic clock
	 */
	TokenAccessReviews(AuthenticationV1Api authentication, AuthorizationV1Api authorization, List<String> audiences,
			Duration allowedTtl, Duration deniedTtl, int cacheSize, LongSupplier nanoTime) {
		this.authentication = authentication;
		this.authorization = authorization;
		this.answers = ModelReading.gson(authentication.getApiClient());
		this.audiences = List.copyOf(audiences);
		this.allowedTtlNanos = allowedTtl.toNanos();
		this.deniedTtlNanos = deniedTtl.toNanos();
		this.nanoTime = nanoTime;
		int negativeSize = Math.min(cacheSize, NEGATIVE_CACHE_SIZE);
		this.authenticated = new ExpiringCache<>(cacheSize);
		this.unauthenticated = new ExpiringCache<>(negativeSize);
		this.allowed = new ExpiringCache<>(cacheSize);
		this.denied = new ExpiringCache<>(negativeSize);
	}

	/**
	 * Decides whether a bearer token may use a path, from the caches or the API server.
	 * @param token the bearer token
	 * @param verb the verb, the request's method in lower case
	 * @param path the request's path
	 * @return the decision
	 * @throws ApiException if a review could not be made
	 * @throws Busy if a review is needed and as many as allowed are asked already
	 */
	Decision review(String token, String verb, String path) throws ApiException {
		if (!couldBeAToken(token)) {
			return new Decision(Verdict.UNAUTHENTICATED, null);
		}
		V1UserInfo user = authenticate(sha256(token), token);
		if (user == null) {
			return new Decision(Verdict.UNAUTHENTICATED, null);
		}
		Access access = new Access(user.getUsername(), user.getUid(), user.getGroups(), user.getExtra(), verb, path);
		return new Decision(authorize(access) ? Verdict.ALLOWED : Verdict.FORBIDDEN, user.getUsername());
	}

	private static boolean couldBeAToken(String token) {
		if (token.length() > MAX_TOKEN_LENGTH) {
			return false;
		}
		for (int i = 0; i < token.length(); i++) {
			char c = token.charAt(i);
			if (c <= ' ' || c > '~') {
				return false;
			}
		}
		return true;
	}

	private @Nullable V1UserInfo authenticate(String tokenHash, String token) throws ApiException {
		long now = this.nanoTime.getAsLong();
		V1UserInfo known = this.authenticated.get(tokenHash, now);
		if (known != null || this.unauthenticated.get(tokenHash, now) != null) {
			return known;
		}
		return once(tokenHash, () -> {
			V1UserInfo user = askTokenReview(token);
			long answered = this.nanoTime.getAsLong();
			if (user != null) {
				this.authenticated.put(tokenHash, user, answered, this.allowedTtlNanos);
			}
			else {
				this.unauthenticated.put(tokenHash, Boolean.TRUE, answered, this.deniedTtlNanos);
			}
			return user;
		});
	}

	private boolean authorize(Access access) throws ApiException {
		long now = this.nanoTime.getAsLong();
		if (this.allowed.get(access, now) != null) {
			return true;
		}
		if (this.denied.get(access, now) != null) {
			return false;
		}
		Boolean yes = once(access, () -> {
			boolean answer = askSubjectAccessReview(access);
			long answered = this.nanoTime.getAsLong();
			if (answer) {
				this.allowed.put(access, Boolean.TRUE, answered, this.allowedTtlNanos);
			}
			else {
				this.denied.put(access, Boolean.TRUE, answered, this.deniedTtlNanos);
			}
			return answer;
		});
		return Boolean.TRUE.equals(yes);
	}

	/**
	 * Asks a review once for all the requests that need it at the same time: the first
	 * asks, if a review may be asked now, and the others wait for its answer.
	 */
	@SuppressWarnings("unchecked")
	private <T> @Nullable T once(Object question, Review<T> review) throws ApiException {
		CompletableFuture<T> mine = new CompletableFuture<>();
		CompletableFuture<T> asked = (CompletableFuture<T>) this.asking.putIfAbsent(question, mine);
		if (asked == null) {
			try {
				if (!this.reviews.tryAcquire()) {
					throw new Busy();
				}
				try {
					mine.complete(review.ask());
				}
				finally {
					this.reviews.release();
				}
			}
			catch (ApiException | RuntimeException ex) {
				mine.completeExceptionally(ex);
			}
			finally {
				if (!mine.isDone()) {
					// an Error: the waiters must not wait for ever
					mine.completeExceptionally(new IllegalStateException("The review failed"));
				}
				this.asking.remove(question, mine);
			}
			asked = mine;
		}
		try {
			return asked.get();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new Busy();
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof ApiException api) {
				// a copy per waiter, each with its own stack
				throw new ApiException(api.getMessage(), api, api.getCode(), api.getResponseHeaders(),
						api.getResponseBody());
			}
			if (ex.getCause() instanceof Busy) {
				throw new Busy();
			}
			throw (ex.getCause() instanceof RuntimeException runtime) ? runtime
					: new IllegalStateException(ex.getCause());
		}
	}

	private @Nullable V1UserInfo askTokenReview(String token) throws ApiException {
		V1TokenReviewSpec spec = new V1TokenReviewSpec().token(token);
		if (!this.audiences.isEmpty()) {
			spec.audiences(this.audiences);
		}
		V1TokenReview answer = Answers
			.<V1TokenReview>execute("create tokenreviews", this.answers,
					this.authentication.createTokenReview(new V1TokenReview().spec(spec)).buildCall(null),
					V1TokenReview.class)
			.data();
		V1TokenReviewStatus status = (answer != null) ? answer.getStatus() : null;
		if (status == null || !Boolean.TRUE.equals(status.getAuthenticated()) || status.getUser() == null) {
			return null;
		}
		if (!this.audiences.isEmpty() && (status.getAudiences() == null
				|| status.getAudiences().stream().noneMatch(this.audiences::contains))) {
			// an authenticator that ignores audiences vouches for the API server's only
			return null;
		}
		return status.getUser();
	}

	private boolean askSubjectAccessReview(Access access) throws ApiException {
		V1SubjectAccessReviewSpec question = new V1SubjectAccessReviewSpec().user(access.user())
			.uid(access.uid())
			.groups(access.groups())
			.extra(access.extra())
			.nonResourceAttributes(new V1NonResourceAttributes().path(access.path()).verb(access.verb()));
		V1SubjectAccessReview answer = Answers
			.<V1SubjectAccessReview>execute("create subjectaccessreviews", this.answers,
					this.authorization.createSubjectAccessReview(new V1SubjectAccessReview().spec(question))
						.buildCall(null),
					V1SubjectAccessReview.class)
			.data();
		V1SubjectAccessReviewStatus status = (answer != null) ? answer.getStatus() : null;
		return status != null && Boolean.TRUE.equals(status.getAllowed());
	}

	private static String sha256(String token) {
		try {
			return HexFormat.of()
				.formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("Every Java platform has SHA-256", ex);
		}
	}

	/**
	 * What a review decided.
	 */
	enum Verdict {

		/** The token is authenticated and its user may use the path: 200. */
		ALLOWED,

		/** The API server does not authenticate the token: 401. */
		UNAUTHENTICATED,

		/** The token's user may not use the path: 403. */
		FORBIDDEN

	}

	/**
	 * A decision.
	 *
	 * @param verdict the verdict
	 * @param user the token's user, {@code null} if it was not authenticated
	 */
	record Decision(Verdict verdict, @Nullable String user) {

	}

	/**
	 * A review was needed, and as many as allowed are asked of the API server already:
	 * the request is answered {@code 429} at once.
	 */
	static final class Busy extends RuntimeException {

		private static final long serialVersionUID = 1L;

		Busy() {
			super("Too many reviews of tokens are asked of the API server at once", null, false, false);
		}

	}

	/**
	 * A user's access to a path with a verb: what a SubjectAccessReview asks.
	 */
	private record Access(@Nullable String user, @Nullable String uid, @Nullable List<String> groups,
			@Nullable Map<String, List<String>> extra, String verb, String path) {

	}

	@FunctionalInterface
	private interface Review<T> {

		@Nullable T ask() throws ApiException;

	}

}
