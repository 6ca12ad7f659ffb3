package io.kubeboot.operator.autoconfigure.metrics;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

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
 * filter do, and remembers each decision, for the token (by its SHA-256, never in
 * clear), path and verb, in a bounded cache: an allowed one for one time to live, a
 * refused one for another. A review that fails is not remembered. Thread-safe; reviews
 * of the same token may run at once.
 */
final class TokenAccessReviews {

	private final AuthenticationV1Api authentication;

	private final AuthorizationV1Api authorization;

	private final List<String> audiences;

	private final long allowedTtlNanos;

	private final long deniedTtlNanos;

	private final LongSupplier nanoTime;

	private final Map<Key, Decision> decisions;

	/**
	 * Creates the reviews.
	 * @param authentication the API of TokenReviews, through a client with a timeout
	 * @param authorization the API of SubjectAccessReviews, through the same client
	 * @param audiences the audiences a token must be valid for, empty for the API
	 * server's
	 * @param allowedTtl how long a decision to let a token through is remembered
	 * @param deniedTtl how long a refusal is remembered
	 * @param cacheSize how many decisions are remembered at most
	 * @param nanoTime the monotonic clock
	 */
	TokenAccessReviews(AuthenticationV1Api authentication, AuthorizationV1Api authorization, List<String> audiences,
			Duration allowedTtl, Duration deniedTtl, int cacheSize, LongSupplier nanoTime) {
		this.authentication = authentication;
		this.authorization = authorization;
		this.audiences = List.copyOf(audiences);
		this.allowedTtlNanos = allowedTtl.toNanos();
		this.deniedTtlNanos = deniedTtl.toNanos();
		this.nanoTime = nanoTime;
		// access order: a token scraping every 30s stays, the oldest is forgotten
		this.decisions = new LinkedHashMap<>(16, 0.75f, true) {

			@Override
			protected boolean removeEldestEntry(Map.Entry<Key, Decision> eldest) {
				return size() > cacheSize;
			}

		};
	}

	/**
	 * Decides whether a bearer token may use a path, from the cache or the API server.
	 * @param token the bearer token
	 * @param verb the verb, the request's method in lower case
	 * @param path the request's path
	 * @return the decision
	 * @throws ApiException if a review could not be made
	 */
	Decision review(String token, String verb, String path) throws ApiException {
		Key key = new Key(sha256(token), verb, path);
		long now = this.nanoTime.getAsLong();
		synchronized (this.decisions) {
			Decision known = this.decisions.get(key);
			if (known != null && known.expiresAtNanos() - now > 0) {
				return known;
			}
		}
		Decision decision = ask(token, verb, path, now);
		long ttl = (decision.verdict() == Verdict.ALLOWED) ? this.allowedTtlNanos : this.deniedTtlNanos;
		if (ttl > 0) {
			synchronized (this.decisions) {
				this.decisions.put(key, decision);
			}
		}
		return decision;
	}

	private Decision ask(String token, String verb, String path, long now) throws ApiException {
		V1TokenReviewSpec spec = new V1TokenReviewSpec().token(token);
		if (!this.audiences.isEmpty()) {
			spec.audiences(this.audiences);
		}
		V1TokenReviewStatus authenticated = this.authentication
			.createTokenReview(new V1TokenReview().spec(spec))
			.execute()
			.getStatus();
		if (authenticated == null || !Boolean.TRUE.equals(authenticated.getAuthenticated())
				|| authenticated.getUser() == null) {
			return new Decision(Verdict.UNAUTHENTICATED, null, now + this.deniedTtlNanos);
		}
		V1UserInfo user = authenticated.getUser();
		V1SubjectAccessReviewSpec question = new V1SubjectAccessReviewSpec().user(user.getUsername())
			.uid(user.getUid())
			.groups(user.getGroups())
			.extra(user.getExtra())
			.nonResourceAttributes(new V1NonResourceAttributes().path(path).verb(verb));
		V1SubjectAccessReviewStatus allowed = this.authorization
			.createSubjectAccessReview(new V1SubjectAccessReview().spec(question))
			.execute()
			.getStatus();
		boolean yes = allowed != null && Boolean.TRUE.equals(allowed.getAllowed());
		return new Decision(yes ? Verdict.ALLOWED : Verdict.FORBIDDEN, user.getUsername(),
				now + (yes ? this.allowedTtlNanos : this.deniedTtlNanos));
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
	 * A decision and until when it holds.
	 *
	 * @param verdict the verdict
	 * @param user the token's user, {@code null} if it was not authenticated
	 * @param expiresAtNanos when it is no longer remembered, a reading of the clock
	 */
	record Decision(Verdict verdict, @Nullable String user, long expiresAtNanos) {

	}

	private record Key(String tokenHash, String verb, String path) {

	}

}
