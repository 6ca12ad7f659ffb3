package io.kubeboot.operator.micrometer;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;

import io.kubeboot.operator.reconcile.ReconcileContext;
import io.kubeboot.operator.tracing.OperatorTracing;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports a manager's work to a Micrometer {@link ObservationRegistry}: an
 * {@code operator.reconcile} observation per reconcile, an
 * {@code operator.client.request} per call of its client to the API server (a child of
 * the reconcile's), an {@code operator.webhook.request} per webhook request and an
 * {@code operator.leader.election} per leader transition. With a tracing bridge on the
 * class path (Spring Boot's {@code spring-boot-starter-opentelemetry}, or Micrometer
 * Tracing's Brave bridge) each becomes a span; with a meter handler, a timer. The
 * conventions ({@link DefaultReconcileObservationConvention} and its siblings) say the
 * names and keys.
 *
 * <pre class="code">
 * Manager manager = Manager.builder(client)
 *     .tracing(new ObservationTracing(observationRegistry))
 *     .build();
 * </pre>
 *
 * A registry without handlers (or {@link ObservationRegistry#NOOP}) costs a check per
 * reconcile and per call: {@link #isNoop()} is asked first, and nothing is created. What
 * a handler or a convention throws never reaches the reconcile, the call or the webhook
 * request: the span is left out, and the first failure logged at WARN. Thread-safe.
 */
public final class ObservationTracing implements OperatorTracing {

	private static final Logger logger = LoggerFactory.getLogger(ObservationTracing.class);

	private static final String ACQUIRED = "acquired";

	private final ObservationRegistry registry;

	private final AtomicBoolean warned = new AtomicBoolean();

	/** The leaderships of this replica that last, by Lease. */
	private final Map<String, Observation> leaderships = new ConcurrentHashMap<>();

	/**
	 * Creates the binding to a registry.
	 * @param registry the registry, the application's
	 */
	public ObservationTracing(ObservationRegistry registry) {
		this.registry = Objects.requireNonNull(registry, "registry must not be null");
	}

	@Override
	public boolean isNoop() {
		return this.registry.isNoop();
	}

	@Override
	public ReconcileSpan reconcile(ReconcileContext context) {
		return guarded(() -> startReconcile(context), ReconcileSpan.NOOP);
	}

	private ReconcileSpan startReconcile(ReconcileContext context) {
		Observation observation = Observation.createNotStarted(null, DefaultReconcileObservationConvention.INSTANCE,
				() -> new ReconcileObservationContext(context), this.registry);
		if (!(observation.getContext() instanceof ReconcileObservationContext started)) {
			return ReconcileSpan.NOOP;
		}
		observation.start();
		return new ReconcileSpan() {

			@Override
			public Scope openScope() {
				return scope(observation);
			}

			@Override
			public void end(String result, @Nullable Throwable error) {
				started.setResult(result);
				stop(observation, error);
			}

		};
	}

	@Override
	public ClientSpan clientCall(String verb, String kind, @Nullable String subresource, @Nullable String namespace,
			@Nullable String name) {
		return guarded(() -> startClientCall(verb, kind, subresource, namespace, name), ClientSpan.NOOP);
	}

	private ClientSpan startClientCall(String verb, String kind, @Nullable String subresource,
			@Nullable String namespace, @Nullable String name) {
		Observation observation = Observation.createNotStarted(null, DefaultClientRequestObservationConvention.INSTANCE,
				() -> new ClientRequestObservationContext(verb, kind, subresource, namespace, name), this.registry);
		if (!(observation.getContext() instanceof ClientRequestObservationContext started)) {
			return ClientSpan.NOOP;
		}
		observation.start();
		return new ClientSpan() {

			@Override
			public Scope openScope() {
				return scope(observation);
			}

			@Override
			public @Nullable String traceParent() {
				// written by a tracer's propagating handler when the observation started
				return started.getCarrier().get(ReconcileObservationContext.TRACEPARENT);
			}

			@Override
			public void end(int statusCode, @Nullable Throwable error) {
				started.setStatusCode(statusCode);
				stop(observation, error);
			}

		};
	}

	@Override
	public WebhookSpan webhook(String webhook, String path, Function<String, @Nullable String> headers) {
		return guarded(() -> startWebhook(webhook, path, headers), WebhookSpan.NOOP);
	}

	private WebhookSpan startWebhook(String webhook, String path, Function<String, @Nullable String> headers) {
		Observation observation = Observation.createNotStarted(null, DefaultWebhookObservationConvention.INSTANCE,
				() -> new WebhookObservationContext(webhook, path, headers), this.registry);
		if (!(observation.getContext() instanceof WebhookObservationContext started)) {
			return WebhookSpan.NOOP;
		}
		observation.start();
		return new WebhookSpan() {

			@Override
			public Scope openScope() {
				return scope(observation);
			}

			@Override
			public void answered(String kind, String operation, boolean allowed) {
				started.answered(kind, operation, allowed);
			}

			@Override
			public void end(int statusCode, @Nullable Throwable error) {
				started.setStatusCode(statusCode);
				stop(observation, error);
			}

		};
	}

	/**
	 * Starts the observation of a leadership when the Lease is acquired, and stops it
	 * when the leadership is lost or stopped, with an event for each transition: a
	 * leadership's span covers its term, and its timer measures how long terms last (a
	 * transition alone would be a span and a timer of no duration).
	 */
	@Override
	public void leaderTransition(String lease, String identity, String transition) {
		guarded(() -> {
			if (ACQUIRED.equals(transition)) {
				Observation term = Observation
					.createNotStarted(null, DefaultLeaderElectionObservationConvention.INSTANCE,
							() -> new LeaderElectionObservationContext(lease, identity, transition), this.registry)
					.start();
				term.event(Observation.Event.of(transition));
				Observation previous = this.leaderships.put(lease, term);
				if (previous != null) {
					previous.stop();
				}
				return;
			}
			Observation term = this.leaderships.remove(lease);
			if (term == null) {
				return;
			}
			if (term.getContext() instanceof LeaderElectionObservationContext leadership) {
				leadership.setTransition(transition);
			}
			term.event(Observation.Event.of(transition));
			term.stop();
		});
	}

	private Scope scope(Observation observation) {
		Observation.Scope scope = guarded(observation::openScope, null);
		return (scope != null) ? () -> guarded(scope::close) : Scope.NOOP;
	}

	private void stop(Observation observation, @Nullable Throwable error) {
		guarded(() -> {
			if (error != null) {
				observation.error(error);
			}
			observation.stop();
		});
	}

	/**
	 * Runs what reports to the registry: Micrometer does not catch what a handler or a
	 * convention throws, and a failure to observe must never fail a reconcile, a call or
	 * a webhook request.
	 */
	private <T> T guarded(Supplier<T> work, T fallback) {
		try {
			return work.get();
		}
		catch (RuntimeException ex) {
			failed(ex);
			return fallback;
		}
	}

	private void guarded(Runnable work) {
		try {
			work.run();
		}
		catch (RuntimeException ex) {
			failed(ex);
		}
	}

	private void failed(RuntimeException ex) {
		if (this.warned.compareAndSet(false, true)) {
			logger.warn("An observation handler or convention failed, the operator goes on without that span "
					+ "(said once, then at DEBUG): registry={}", this.registry, ex);
		}
		else {
			logger.debug("An observation handler or convention failed: registry={}", this.registry, ex);
		}
	}

	@Override
	public String toString() {
		return "ObservationTracing[" + this.registry + "]";
	}

}
