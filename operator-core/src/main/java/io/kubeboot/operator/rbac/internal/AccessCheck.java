package io.kubeboot.operator.rbac.internal;

import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubeboot.operator.client.internal.AccessReviews;
import io.kubeboot.operator.client.internal.StatusMessages;
import io.kubeboot.operator.rbac.PolicyRule;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ResourceAttributes;
import io.kubernetes.client.openapi.models.V1ResourceRule;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the API server whether this operator's identity may do what every rule allows: one
 * {@code SelfSubjectRulesReview} per namespace with more than one question allows what
 * the rules it lists allow, and one {@code SelfSubjectAccessReview} per verb, resource,
 * namespace and name answers the rest (denials included), a few at a time. If a review
 * cannot be made, the check reports nothing: the requests themselves still fail with a
 * {@code 403} naming what is missing. Each review's call may take only the time the check
 * has left, and is cancelled then, never interrupted: its thread may share an HTTP/2
 * connection with the rest of the operator, which an interrupt in the middle of a write
 * would break.
 */
public final class AccessCheck {

	private static final Logger logger = LoggerFactory.getLogger(AccessCheck.class);

	/** How many reviews are asked at once. */
	static final int PARALLEL_REVIEWS = 8;

	/**
	 * How long past the deadline an answer is still waited for: a call ends at the
	 * deadline, but a wait before it is sent (the client's rate limit) may not.
	 */
	private static final long GRACE_NANOS = Duration.ofSeconds(1).toNanos();

	private AccessCheck() {
	}

	/**
	 * Asks about every rule.
	 * @param client the client whose identity the operator uses
	 * @param rules the rules
	 * @param timeout how long all reviews may take together
	 * @return the answers, or {@code null} if a review could not be made (logged once)
	 * @throws InterruptedException if interrupted while waiting for the answers
	 */
	public static @Nullable Decisions review(ApiClient client, List<PolicyRule> rules, Duration timeout)
			throws InterruptedException {
		Set<Review> reviews = new LinkedHashSet<>();
		for (PolicyRule rule : rules) {
			reviews.addAll(reviewsOf(rule));
		}
		if (reviews.isEmpty()) {
			return new Decisions(Map.of());
		}
		long deadline = System.nanoTime() + timeout.toNanos();
		AtomicInteger threads = new AtomicInteger();
		ExecutorService executor = Executors.newFixedThreadPool(Math.min(PARALLEL_REVIEWS, reviews.size()),
				(runnable) -> {
					Thread thread = new Thread(runnable, "operator-rbac-check-" + threads.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				});
		try {
			Map<Review, Boolean> allowed = new LinkedHashMap<>();
			List<Review> unanswered = new ArrayList<>(reviews);
			if (reviews.stream().filter((review) -> review.namespace() != null).count() > 1) {
				unanswered = answerByRules(client, executor, reviews, allowed, deadline);
			}
			if (!answerEach(client, executor, unanswered, allowed, deadline, timeout)) {
				return null;
			}
			return new Decisions(allowed);
		}
		finally {
			// every call ends by the deadline on its own
			executor.shutdown();
		}
	}

	/**
	 * Answers the reviews of each namespace that its {@code SelfSubjectRulesReview}
	 * allows, where the API server lists every rule, and returns the reviews left, which
	 * single reviews answer as before: those of all namespaces or cluster-scoped
	 * resources, those of a namespace whose rules review was incomplete or failed, and
	 * those no rule allows.
	 */
	private static List<Review> answerByRules(ApiClient client, ExecutorService executor, Set<Review> reviews,
			Map<Review, Boolean> allowed, long deadline) throws InterruptedException {
		List<String> namespaces = reviews.stream()
			.map(Review::namespace)
			.filter((namespace) -> namespace != null)
			.distinct()
			.toList();
		List<Future<@Nullable List<V1ResourceRule>>> answers = submitAll(executor,
				namespaces.stream()
					.map((namespace) -> (Callable<@Nullable List<V1ResourceRule>>) () -> AccessReviews.rulesIn(client,
							namespace, left(deadline)))
					.toList());
		Map<String, List<V1ResourceRule>> rulesByNamespace = new LinkedHashMap<>();
		for (int i = 0; i < answers.size(); i++) {
			try {
				List<V1ResourceRule> rules = answers.get(i).get(waitLeft(deadline), TimeUnit.NANOSECONDS);
				if (rules != null) {
					rulesByNamespace.put(namespaces.get(i), rules);
				}
			}
			catch (ExecutionException | TimeoutException ex) {
				// the namespace's reviews are asked one by one
			}
		}
		dropUnstarted(answers);
		List<Review> left = new ArrayList<>();
		for (Review review : reviews) {
			List<V1ResourceRule> rules = (review.namespace() != null) ? rulesByNamespace.get(review.namespace()) : null;
			// a denial is confirmed by a single review: an authorizer that lists no rules
			// (the API server's own for system:masters) may allow what no rule does
			if (rules != null && rules.stream().anyMatch((rule) -> AccessReviews.allows(rule, review.attributes()))) {
				allowed.put(review, true);
			}
			else {
				left.add(review);
			}
		}
		return left;
	}

	private static boolean answerEach(ApiClient client, ExecutorService executor, List<Review> reviews,
			Map<Review, Boolean> allowed, long deadline, Duration timeout) throws InterruptedException {
		List<Future<Boolean>> answers = submitAll(executor,
				reviews.stream()
					.map((review) -> (Callable<Boolean>) () -> AccessReviews.isAllowed(client, review.attributes(),
							left(deadline)))
					.toList());
		try {
			return answerEach(reviews, answers, allowed, deadline, timeout);
		}
		finally {
			dropUnstarted(answers);
		}
	}

	private static boolean answerEach(List<Review> reviews, List<Future<Boolean>> answers, Map<Review, Boolean> allowed,
			long deadline, Duration timeout) throws InterruptedException {
		for (int i = 0; i < answers.size(); i++) {
			Review review = reviews.get(i);
			try {
				allowed.put(review, answers.get(i).get(waitLeft(deadline), TimeUnit.NANOSECONDS));
			}
			catch (TimeoutException ex) {
				logger.warn("Cannot check RBAC, continuing: verb={} resource={} error=\"no answer within {}\"",
						review.verb(), review.describe(), timeout);
				return false;
			}
			catch (ExecutionException ex) {
				Throwable cause = ex.getCause();
				if (cause instanceof TimeoutException || (cause instanceof ApiException api && api.getCode() == 0
						&& api.getCause() instanceof InterruptedIOException)) {
					logger.warn("Cannot check RBAC, continuing: verb={} resource={} error=\"no answer within {}\"",
							review.verb(), review.describe(), timeout);
					return false;
				}
				logger.warn("Cannot check RBAC, continuing: verb={} resource={} error=\"{}\"", review.verb(),
						review.describe(),
						(cause instanceof ApiException api) ? StatusMessages.describe(api) : String.valueOf(cause));
				return false;
			}
		}
		return true;
	}

	/**
	 * Starts calls, each bounded by its own timeout: none is ever interrupted.
	 */
	private static <T> List<Future<T>> submitAll(ExecutorService executor, List<Callable<T>> calls) {
		return calls.stream().map(executor::submit).toList();
	}

	/**
	 * Drops the calls not started yet, once their answers are no longer waited for; never
	 * interrupts one under way.
	 */
	private static void dropUnstarted(List<? extends Future<?>> answers) {
		answers.forEach((answer) -> answer.cancel(false));
	}

	/** How long an answer is still waited for. */
	private static long waitLeft(long deadline) {
		return Math.max(0, deadline - System.nanoTime()) + GRACE_NANOS;
	}

	/**
	 * The time left until the deadline, for a call about to be sent.
	 * @throws TimeoutException if none is left
	 */
	private static Duration left(long deadline) throws TimeoutException {
		long left = deadline - System.nanoTime();
		if (left <= 0) {
			throw new TimeoutException();
		}
		return Duration.ofNanos(left);
	}

	/**
	 * Returns the reviews that together check a rule: one per verb and name.
	 * @param rule the rule
	 * @return the reviews
	 */
	static List<Review> reviewsOf(PolicyRule rule) {
		List<Review> reviews = new ArrayList<>();
		for (String verb : rule.verbs()) {
			if (rule.resourceNames().isEmpty()) {
				reviews
					.add(new Review(verb, rule.apiGroup(), rule.plural(), rule.subresource(), rule.namespace(), null));
			}
			for (String name : rule.resourceNames()) {
				reviews
					.add(new Review(verb, rule.apiGroup(), rule.plural(), rule.subresource(), rule.namespace(), name));
			}
		}
		return reviews;
	}

	/**
	 * One question to the API server.
	 *
	 * @param verb the verb
	 * @param group the API group
	 * @param resource the plural resource name
	 * @param subresource the subresource, empty for none
	 * @param namespace the namespace, {@code null} for all namespaces or a cluster-scoped
	 * resource
	 * @param name the object's name, {@code null} for any
	 */
	public record Review(String verb, String group, String resource, String subresource, @Nullable String namespace,
			@Nullable String name) {

		V1ResourceAttributes attributes() {
			return new V1ResourceAttributes().verb(this.verb)
				.group(this.group)
				.resource(this.resource)
				.subresource(this.subresource.isEmpty() ? null : this.subresource)
				.namespace(this.namespace)
				.name(this.name);
		}

		String describe() {
			return (this.group.isEmpty() ? this.resource : this.resource + "." + this.group)
					+ (this.subresource.isEmpty() ? "" : "/" + this.subresource)
					+ ((this.namespace != null) ? " in namespace '" + this.namespace + "'" : " in all namespaces");
		}

	}

	/**
	 * The API server's answers.
	 */
	public static final class Decisions {

		private final Map<Review, Boolean> allowed;

		Decisions(Map<Review, Boolean> allowed) {
			this.allowed = Map.copyOf(allowed);
		}

		/**
		 * Whether the API server denied a review; one that was not asked counts as
		 * allowed.
		 * @param review the review
		 * @return {@code true} if denied
		 */
		public boolean isDenied(Review review) {
			return Boolean.FALSE.equals(this.allowed.get(review));
		}

		/**
		 * Returns the verbs of a rule that RBAC denies, for any of its names.
		 * @param rule the rule
		 * @return the denied verbs in the rule's order, empty if none
		 */
		public List<String> deniedVerbs(PolicyRule rule) {
			Set<String> denied = new LinkedHashSet<>();
			for (Review review : reviewsOf(rule)) {
				if (isDenied(review)) {
					denied.add(review.verb());
				}
			}
			return List.copyOf(denied);
		}

	}

}
