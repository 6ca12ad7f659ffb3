package io.kubeboot.operator.tracing;

import java.util.function.Function;

import io.kubeboot.operator.reconcile.ReconcileContext;
import org.jspecify.annotations.Nullable;

/**
 * Receives what the runtime does, to be traced: one span per reconcile, a child span per
 * call of the manager's {@code Client} to the API server, one per webhook request and one
 * per leader transition. Implemented by the Micrometer Observation binding
 * ({@code io.kubeboot.operator.micrometer.ObservationTracing}); {@link #NOOP} by default.
 * <p>
 * Callers ask {@link #isNoop()} first and skip preparing what they would report when it
 * answers {@code true}, so a disabled implementation costs one call. Implementations must
 * be thread-safe and must not throw. A span's {@code end} is called exactly once, after
 * every scope of it closed: on the thread that started it, but for a webhook request
 * whose code ran past its deadline, whose span ends on the handler's thread when that
 * code returns. A scope is closed on the thread that opened it.
 */
public interface OperatorTracing {

	/** Records nothing. */
	OperatorTracing NOOP = new OperatorTracing() {

		@Override
		public boolean isNoop() {
			return true;
		}

	};

	/**
	 * Whether nothing would be recorded now; asked before every span, since an
	 * implementation may start or stop recording while the operator runs.
	 * @return {@code true} to skip the span
	 */
	default boolean isNoop() {
		return false;
	}

	/**
	 * Starts the span of a reconcile. Its parent is the trace context that the create of
	 * the reconciled object left on it, when one of its triggers says the object was
	 * created with one
	 * ({@link io.kubeboot.operator.reconcile.ReconcileTrigger#traceParent()} of a
	 * {@code created} trigger), so that the reconcile of an object another operator
	 * created continues that operator's trace; otherwise it starts a trace.
	 * @param context the reconcile: controller, request, reconcile ID, triggers, time in
	 * the queue
	 * @return the span
	 */
	default ReconcileSpan reconcile(ReconcileContext context) {
		return ReconcileSpan.NOOP;
	}

	/**
	 * Starts the span of a call of the client to the API server, a child of the span
	 * current on this thread (the reconcile's, inside a reconcile).
	 * @param verb what the call does: {@code get}, {@code list}, {@code create},
	 * {@code update}, {@code patch}, {@code apply} or {@code delete}
	 * @param kind the kind of the object, such as {@code ConfigMap}
	 * @param subresource {@code status} for a write of the status, {@code null} otherwise
	 * @param namespace the object's namespace, {@code null} if cluster-scoped or all
	 * @param name the object's name, {@code null} for a list
	 * @return the span
	 */
	default ClientSpan clientCall(String verb, String kind, @Nullable String subresource, @Nullable String namespace,
			@Nullable String name) {
		return ClientSpan.NOOP;
	}

	/**
	 * Starts the span of a request to the webhook server. Its parent is the trace context
	 * in the request's headers ({@code traceparent}, which the API server sends when its
	 * own tracing is on), if any.
	 * @param webhook {@code admission} or {@code conversion}
	 * @param path the webhook's path
	 * @param headers reads a header of the request by name, {@code null} if absent
	 * @return the span
	 */
	default WebhookSpan webhook(String webhook, String path, Function<String, @Nullable String> headers) {
		return WebhookSpan.NOOP;
	}

	/**
	 * Records a leader transition of this replica. A binding may make a span of the
	 * leadership it starts and ends ({@code ObservationTracing} does: from
	 * {@code acquired} to {@code lost} or {@code stopped}).
	 * @param lease the Lease, {@code namespace/name}
	 * @param identity this replica's identity
	 * @param transition {@code acquired}, {@code lost}, or {@code stopped} (stopped
	 * leading on shutdown)
	 */
	default void leaderTransition(String lease, String identity, String transition) {
	}

	/**
	 * A span made current on one thread until closed.
	 */
	interface Scope extends AutoCloseable {

		/** A scope that does nothing. */
		Scope NOOP = () -> {
		};

		@Override
		void close();

	}

	/**
	 * The span of one reconcile.
	 */
	interface ReconcileSpan {

		/** A span that records nothing. */
		ReconcileSpan NOOP = new ReconcileSpan() {

			@Override
			public Scope openScope() {
				return Scope.NOOP;
			}

			@Override
			public void end(String result, @Nullable Throwable error) {
			}

		};

		/**
		 * Makes the span current on this thread, the parent of the client calls the
		 * reconciler makes.
		 * @return the scope to close
		 */
		Scope openScope();

		/**
		 * Ends the span.
		 * @param result controller-runtime's {@code result}: {@code success},
		 * {@code requeue}, {@code requeue_after} or {@code error}
		 * @param error what the reconciler threw, {@code null} if it returned
		 */
		void end(String result, @Nullable Throwable error);

	}

	/**
	 * The span of one call of the client.
	 */
	interface ClientSpan {

		/** A span that records nothing. */
		ClientSpan NOOP = new ClientSpan() {

			@Override
			public Scope openScope() {
				return Scope.NOOP;
			}

			@Override
			public @Nullable String traceParent() {
				return null;
			}

			@Override
			public void end(int statusCode, @Nullable Throwable error) {
			}

		};

		/**
		 * Makes the span current on this thread while the call is sent and answered, so
		 * that what the call logs (a throttled call's retries) and what instruments the
		 * HTTP client belongs to it.
		 * @return the scope to close
		 */
		Scope openScope();

		/**
		 * Returns the span's trace context as a W3C {@code traceparent}, for the
		 * annotation of a created object. An unsampled span has one too, with flags
		 * {@code 00}, as a W3C propagator passes it on: the reconcile it parents is not
		 * sampled either.
		 * @return the trace context, {@code null} if the tracer does not propagate in W3C
		 * format
		 */
		@Nullable String traceParent();

		/**
		 * Ends the span.
		 * @param statusCode the HTTP status code of the answer, {@code 0} if none came
		 * @param error the failure, {@code null} on success
		 */
		void end(int statusCode, @Nullable Throwable error);

	}

	/**
	 * The span of one webhook request.
	 */
	interface WebhookSpan {

		/** A span that records nothing. */
		WebhookSpan NOOP = new WebhookSpan() {

			@Override
			public Scope openScope() {
				return Scope.NOOP;
			}

			@Override
			public void answered(String kind, String operation, boolean allowed) {
			}

			@Override
			public void end(int statusCode, @Nullable Throwable error) {
			}

		};

		/**
		 * Makes the span current on this thread, the parent of the client calls the
		 * webhook's code makes.
		 * @return the scope to close
		 */
		Scope openScope();

		/**
		 * Records the review's answer, once the webhook's code ran. Neither value is read
		 * as the request sent it, so that both can be the tags of a meter.
		 * @param kind the webhook's kind; for a conversion, the kind converted if the
		 * server has a conversion for it, else {@code other}
		 * @param operation {@code CREATE}, {@code UPDATE}, {@code DELETE} or
		 * {@code CONNECT} for an admission (else {@code other}), {@code CONVERT} for a
		 * conversion
		 * @param allowed whether the request was allowed (a conversion: whether it
		 * succeeded)
		 */
		void answered(String kind, String operation, boolean allowed);

		/**
		 * Ends the span.
		 * @param statusCode the HTTP status code of the answer
		 * @param error what the webhook's code threw, {@code null} otherwise
		 */
		void end(int statusCode, @Nullable Throwable error);

	}

}
