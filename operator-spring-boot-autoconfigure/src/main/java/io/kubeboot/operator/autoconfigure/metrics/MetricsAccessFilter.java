package io.kubeboot.operator.autoconfigure.metrics;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.kubeboot.operator.autoconfigure.metrics.TokenAccessReviews.Decision;
import io.kubeboot.operator.autoconfigure.metrics.TokenAccessReviews.Verdict;
import io.kubeboot.operator.client.internal.StatusMessages;
import io.kubernetes.client.openapi.ApiException;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets a request through only if the API server authenticates its bearer token and
 * authorizes its user for the request's verb on its path ({@link TokenAccessReviews}):
 * {@code 401} without a token or with one the API server does not authenticate,
 * {@code 403} for a user RBAC does not allow, {@code 500} if the API server could not be
 * asked, as controller-runtime's metrics filter answers; and {@code 429} (with
 * {@code Retry-After: 1}) if a review was needed while as many as allowed were asked
 * already, so that a flood of unknown tokens holds no thread and spares the API server.
 * The path is the one the container matched, decoded and normalized. A failure to ask is
 * logged at most every 10 seconds.
 */
final class MetricsAccessFilter extends HttpFilter {

	private static final long serialVersionUID = 1L;

	private static final int TOO_MANY_REQUESTS = 429;

	private static final Logger logger = LoggerFactory.getLogger(MetricsAccessFilter.class);

	private static final String BEARER = "Bearer ";

	private static final long WARN_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

	private final AtomicLong lastWarning = new AtomicLong(System.nanoTime() - WARN_INTERVAL_NANOS);

	private final AtomicLong failedSinceWarning = new AtomicLong();

	private final transient TokenAccessReviews reviews;

	MetricsAccessFilter(TokenAccessReviews reviews) {
		this.reviews = reviews;
	}

	@Override
	protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		String token = bearerToken(request);
		if (token == null) {
			answer(response, HttpServletResponse.SC_UNAUTHORIZED, "Unauthorized");
			return;
		}
		String path = path(request);
		String verb = request.getMethod().toLowerCase(Locale.ROOT);
		Decision decision;
		try {
			decision = this.reviews.review(token, verb, path);
		}
		catch (TokenAccessReviews.Busy ex) {
			response.setHeader("Retry-After", "1");
			answer(response, TOO_MANY_REQUESTS, "Too many requests to authenticate");
			return;
		}
		catch (ApiException | RuntimeException ex) {
			failed(path, ex);
			answer(response, HttpServletResponse.SC_INTERNAL_SERVER_ERROR, "Authentication failed");
			return;
		}
		if (decision.verdict() == Verdict.ALLOWED) {
			chain.doFilter(request, response);
		}
		else if (decision.verdict() == Verdict.UNAUTHENTICATED) {
			answer(response, HttpServletResponse.SC_UNAUTHORIZED, "Unauthorized");
		}
		else {
			logger.debug("Refused a request to a metrics endpoint: user={} verb={} path={}", decision.user(), verb,
					path);
			answer(response, HttpServletResponse.SC_FORBIDDEN, "Authorization denied for user " + decision.user());
		}
	}

	/**
	 * Logs a review that could not be made, at most every 10 seconds: while the API
	 * server is down, every scrape fails.
	 */
	private void failed(String path, Exception ex) {
		long failures = this.failedSinceWarning.incrementAndGet();
		long now = System.nanoTime();
		long last = this.lastWarning.get();
		if (now - last >= WARN_INTERVAL_NANOS && this.lastWarning.compareAndSet(last, now)) {
			this.failedSinceWarning.addAndGet(-failures);
			logger.warn("Cannot review a request to a metrics endpoint, answering 500: path={} failures={} "
					+ "error=\"{}\"", path, failures, StatusMessages.describe(ex));
		}
		else {
			logger.debug("Cannot review a request to a metrics endpoint, answering 500: path={} error=\"{}\"", path,
					StatusMessages.describe(ex));
		}
	}

	private static @Nullable String bearerToken(HttpServletRequest request) {
		String header = request.getHeader("Authorization");
		if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
			return null;
		}
		String token = header.substring(BEARER.length()).trim();
		return token.isEmpty() ? null : token;
	}

	private static String path(HttpServletRequest request) {
		String pathInfo = request.getPathInfo();
		return request.getContextPath() + request.getServletPath() + ((pathInfo != null) ? pathInfo : "");
	}

	private static void answer(HttpServletResponse response, int status, String message) throws IOException {
		response.setStatus(status);
		if (status == HttpServletResponse.SC_UNAUTHORIZED) {
			response.setHeader("WWW-Authenticate", "Bearer");
		}
		response.setContentType("text/plain;charset=UTF-8");
		response.getOutputStream().write((message + "\n").getBytes(StandardCharsets.UTF_8));
	}

}
