package io.kubeboot.operator.rbac.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubeboot.operator.client.internal.AccessReviews;
import io.kubeboot.operator.client.internal.StatusMessages;
import io.kubeboot.operator.rbac.PolicyRule;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ResourceAttributes;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the API server whether this operator's identity may do what every rule allows: one
 * {@code SelfSubjectAccessReview} per verb, resource, namespace and name, a few at a
 * time, so that the whole list costs about as long as two or three requests. If a review
 * cannot be made, the check reports nothing: the requests themselves still fail with a
 * {@code 403} naming what is missing.
 */
public final class AccessCheck {

	private static final Logger logger = LoggerFactory.getLogger(AccessCheck.class);

	/** How many reviews are asked at once. */
	static final int PARALLEL_REVIEWS = 8;

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
		List<Review> ordered = new ArrayList<>(reviews);
		List<Callable<Boolean>> calls = ordered.stream()
			.map((review) -> (Callable<Boolean>) () -> AccessReviews.isAllowed(client, review.attributes()))
			.toList();
		AtomicInteger threads = new AtomicInteger();
		ExecutorService executor = Executors.newFixedThreadPool(Math.min(PARALLEL_REVIEWS, calls.size()),
				(runnable) -> {
					Thread thread = new Thread(runnable, "operator-rbac-check-" + threads.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				});
		try {
			List<Future<Boolean>> answers = executor.invokeAll(calls, timeout.toMillis(), TimeUnit.MILLISECONDS);
			Map<Review, Boolean> allowed = new LinkedHashMap<>();
			for (int i = 0; i < answers.size(); i++) {
				Review review = ordered.get(i);
				try {
					allowed.put(review, answers.get(i).get());
				}
				catch (CancellationException ex) {
					logger.warn("Cannot check RBAC, continuing: verb={} resource={} error=\"no answer within {}\"",
							review.verb(), review.describe(), timeout);
					return null;
				}
				catch (ExecutionException ex) {
					Throwable cause = ex.getCause();
					logger.warn("Cannot check RBAC, continuing: verb={} resource={} error=\"{}\"", review.verb(),
							review.describe(),
							(cause instanceof ApiException api) ? StatusMessages.describe(api) : String.valueOf(cause));
					return null;
				}
			}
			return new Decisions(allowed);
		}
		finally {
			executor.shutdownNow();
		}
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
