package io.kubeboot.operator.controller;

import io.kubeboot.operator.client.ApiServerException;
import io.kubeboot.operator.reconcile.ReconcileContext;
import io.kubeboot.operator.reconcile.Reconciler;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.operator.tracing.Tracing;

/**
 * Runs a reconciler inside the span of its reconcile, current on the worker's thread so
 * that the client calls it makes are its children. The span ends with controller-runtime's
 * {@code result} of the reconcile and what it threw. Installed only when the controller
 * has a {@link Tracing} other than {@link Tracing#NOOP}; asks {@link Tracing#isNoop()}
 * before each reconcile, so a registry without handlers costs one call.
 */
final class TracedReconciler implements Reconciler {

	private final Reconciler reconciler;

	private final Tracing tracing;

	TracedReconciler(Reconciler reconciler, Tracing tracing) {
		this.reconciler = reconciler;
		this.tracing = tracing;
	}

	@Override
	public Result reconcile(Request request) throws Exception {
		ReconcileContext context = ReconcileContext.current().orElse(null);
		if (context == null || this.tracing.isNoop()) {
			return this.reconciler.reconcile(request);
		}
		Tracing.ReconcileSpan span = this.tracing.reconcile(context);
		String result = "error";
		Throwable error = null;
		try (Tracing.Scope scope = span.openScope()) {
			Result answer = this.reconciler.reconcile(request);
			result = label((answer != null) ? answer : Result.done());
			return answer;
		}
		catch (ApiServerException.ConflictException ex) {
			// requeued at once, not an error (see ReconcileRunner)
			result = "requeue";
			throw ex;
		}
		catch (Throwable ex) {
			error = ex;
			throw ex;
		}
		finally {
			span.end(result, error);
		}
	}

	private static String label(Result result) {
		if (result.getRequeueAfter() != null) {
			return "requeue_after";
		}
		return result.isRequeue() ? "requeue" : "success";
	}

	@Override
	public String toString() {
		return this.reconciler.toString();
	}

}
