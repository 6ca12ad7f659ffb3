package io.kubeboot.operator.controller;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import io.kubeboot.operator.cache.NamespaceNotWatchedException;
import io.kubeboot.operator.client.ApiServerException;
import io.kubeboot.operator.client.internal.RetryAfter;
import io.kubeboot.operator.client.internal.WrittenVersions;
import io.kubeboot.operator.metrics.ControllerMetrics.Outcome;
import io.kubeboot.operator.metrics.ControllerMetrics;
import io.kubeboot.operator.reconcile.ReconcileContext;
import io.kubeboot.operator.reconcile.Reconciler;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.reconcile.TerminalException;
import io.kubeboot.operator.tracing.OperatorTracing;
import io.kubeboot.operator.workqueue.WorkQueue;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Runs one reconcile of a worker and decides from its result or exception what becomes of
 * the request (see the contract of {@link Reconciler}): forgotten, requeued with backoff,
 * requeued at once after a conflict, requeued after the API server's Retry-After when it
 * throttled a call, requeued with backoff after failing past its timeout, or requeued
 * after a delay; dropped when the reconcile read a namespace that left the manager's set
 * while it ran. Sets the log context and counts the outcome. A requeue keeps the priority
 * the request was handed out with, as controller-runtime's controller does: a failing
 * object of the initial backlog stays behind live changes, a failing live change stays
 * ahead of the backlog. The log context's {@code reconcileID} and the triggers a
 * failure's log line shows are those of the {@link ReconcileContext} bound to the thread.
 * With {@link OperatorTracing}, the whole of it (the reconciler, what becomes of the
 * request and the log line of a failure) runs inside the reconcile's span, current on the
 * worker's thread, so the client calls of the reconciler are its children and a tracer's
 * log correlation puts its trace and span ids on every line, the failure's included; the
 * span ends with the outcome's {@code result}.
 */
final class ReconcileRunner {

	private static final Logger logger = LoggerFactory.getLogger(Controller.class);

	private final String name;

	private final Reconciler reconciler;

	private final ControllerMetrics metrics;

	private final OperatorTracing tracing;

	private final AtomicInteger activeWorkers = new AtomicInteger();

	/** Whether a request's namespace is no longer watched. */
	private final Predicate<Request> unwatched;

	ReconcileRunner(String name, Reconciler reconciler, ControllerMetrics metrics) {
		this(name, reconciler, metrics, OperatorTracing.NOOP, (request) -> false);
	}

	ReconcileRunner(String name, Reconciler reconciler, ControllerMetrics metrics, OperatorTracing tracing,
			Predicate<Request> unwatched) {
		this.name = name;
		this.reconciler = reconciler;
		this.metrics = metrics;
		this.tracing = tracing;
		this.unwatched = unwatched;
	}

	int activeWorkers() {
		return this.activeWorkers.get();
	}

	Outcome reconcile(WorkQueue<Request> current, Request request) {
		ReconcileContext context = ReconcileContext.current().orElse(null);
		OperatorTracing.ReconcileSpan span = (context != null && !this.tracing.isNoop())
				? this.tracing.reconcile(context) : OperatorTracing.ReconcileSpan.NOOP;
		Outcome outcome = Outcome.PANIC;
		Throwable failure = null;
		try (OperatorTracing.Scope scope = span.openScope()) {
			Attempt attempt = attempt(current, request, context);
			outcome = attempt.outcome();
			failure = attempt.failure();
			return outcome;
		}
		catch (RuntimeException | Error ex) {
			failure = ex;
			throw ex;
		}
		finally {
			span.end(outcome.label(), failure);
		}
	}

	private Attempt attempt(WorkQueue<Request> current, Request request, @Nullable ReconcileContext context) {
		MDC.put("controller", this.name);
		MDC.put("namespace", (request.namespace() != null) ? request.namespace() : "");
		MDC.put("name", request.name());
		MDC.put("reconcileID", (context != null) ? context.reconcileId() : UUID.randomUUID().toString());
		this.metrics.activeWorkers(this.activeWorkers.incrementAndGet());
		long start = System.nanoTime();
		int priority = current.priorityOf(request);
		Outcome outcome;
		Throwable failure = null;
		try {
			Result result = this.reconciler.reconcile(request);
			outcome = handle(current, request, (result != null) ? result : Result.done(), priority);
		}
		catch (ReconcileTimeoutException ex) {
			// failed after its deadline (counted as a timeout already): an error retried
			// with backoff, as controller-runtime retries the error of a reconcile whose
			// context expired; its InterruptedException, if any, was the timeout's
			outcome = Outcome.ERROR;
			failure = ex;
			current.addRateLimited(request, priority);
			logger.error("Reconcile failed past its timeout, retried with backoff: controller={} request={} "
					+ "timeout={} triggers={}", this.name, request, ex.timeout(), triggers(context), ex);
		}
		catch (ApiServerException.ConflictException ex) {
			// the normal course of things: someone wrote first; read again at once
			outcome = Outcome.CONFLICT;
			current.forget(request);
			current.add(request, priority);
			// a cache behind this process's own write is no conflict: say which it was
			logger.info("{}, requeued: controller={} request={} error=\"{}\"",
					(ex instanceof WrittenVersions.CacheBehindException) ? "Cache behind this process's own write"
							: "Write conflict",
					this.name, request, ex.getMessage());
		}
		catch (ApiServerException.TooManyRequestsException ex) {
			// the API server asked to come back later: its Retry-After, not the growing
			// backoff, which it would only inflate; controller-runtime counts it as an
			// error
			outcome = Outcome.ERROR;
			failure = ex;
			Duration wait = RetryAfter.wait(ex.retryAfter());
			current.addAfter(request, wait, priority);
			logger.warn(
					"Throttled by the API server, requeued after its Retry-After: controller={} request={} "
							+ "retryAfter={}s triggers={} error=\"{}\"",
					this.name, request, wait.toSeconds(), triggers(context), ex.getMessage());
		}
		catch (TerminalException ex) {
			outcome = Outcome.TERMINAL_ERROR;
			failure = ex;
			current.forget(request);
			logger.error("Reconciler error, not retried: controller={} request={} triggers={}", this.name, request,
					triggers(context), ex);
		}
		catch (InterruptedException ex) {
			outcome = Outcome.ERROR;
			failure = ex;
			current.addRateLimited(request, priority);
			Thread.currentThread().interrupt();
		}
		catch (NamespaceNotWatchedException ex) {
			outcome = Outcome.ERROR;
			failure = ex;
			if (this.unwatched.test(request)) {
				// its namespace left the manager's set while it ran: dropped, as the
				// requests of a namespace no longer watched are
				current.forget(request);
				logger.info("Reconcile cut short, its namespace is no longer watched: controller={} request={}",
						this.name, request);
			}
			else {
				current.addRateLimited(request, priority);
				logger.error("Reconciler error: controller={} request={} triggers={}", this.name, request,
						triggers(context), ex);
			}
		}
		catch (Exception ex) {
			outcome = Outcome.ERROR;
			failure = ex;
			current.addRateLimited(request, priority);
			logger.error("Reconciler error: controller={} request={} triggers={}", this.name, request,
					triggers(context), ex);
		}
		catch (OutOfMemoryError | InternalError | UnknownError ex) {
			// the JVM is in trouble: let the worker die, liveness reports it and
			// Kubernetes restarts the pod
			throw ex;
		}
		catch (Throwable ex) {
			outcome = Outcome.PANIC;
			failure = ex;
			current.addRateLimited(request, priority);
			logger.error("Observed a panic in reconciler: controller={} request={} triggers={}", this.name, request,
					triggers(context), ex);
		}
		finally {
			this.metrics.activeWorkers(this.activeWorkers.decrementAndGet());
			MDC.remove("controller");
			MDC.remove("namespace");
			MDC.remove("name");
			MDC.remove("reconcileID");
		}
		this.metrics.reconciled(outcome, System.nanoTime() - start);
		return new Attempt(outcome, failure);
	}

	private static String triggers(@Nullable ReconcileContext context) {
		if (context == null) {
			return "[]";
		}
		String listed = context.triggers().toString();
		return (context.droppedTriggers() > 0) ? listed + "+" + context.droppedTriggers() + " dropped" : listed;
	}

	/**
	 * How a reconcile ended.
	 *
	 * @param outcome what became of the request
	 * @param failure what the reconciler threw, {@code null} if it returned or its write
	 * conflicted (requeued at once, not an error)
	 */
	private record Attempt(Outcome outcome, @Nullable Throwable failure) {
	}

	private Outcome handle(WorkQueue<Request> current, Request request, Result result, int priority) {
		if (result.getRequeueAfter() != null) {
			current.forget(request);
			current.addAfter(request, result.getRequeueAfter(), priority);
			return Outcome.REQUEUE_AFTER;
		}
		if (result.isRequeue()) {
			current.addRateLimited(request, priority);
			return Outcome.REQUEUE;
		}
		current.forget(request);
		return Outcome.SUCCESS;
	}

}
