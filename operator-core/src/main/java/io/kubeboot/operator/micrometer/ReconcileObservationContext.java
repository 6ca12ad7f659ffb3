package io.kubeboot.operator.micrometer;

import java.util.HashMap;
import java.util.Map;

import io.kubeboot.operator.reconcile.ReconcileContext;
import io.kubeboot.operator.reconcile.Trigger;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.ReceiverContext;
import org.jspecify.annotations.Nullable;

/**
 * The Micrometer context of a reconcile's observation: the {@link ReconcileContext} (why
 * it runs, how long it waited) and, once it ended, its result. A receiver's context: its
 * carrier holds the W3C {@code traceparent} of the first trigger that carries one, so that
 * a tracer continues the trace of the write that caused the reconcile.
 */
public class ReconcileObservationContext extends ReceiverContext<Map<String, String>> {

	/** The carrier's key of the trace context, W3C's header name. */
	static final String TRACEPARENT = "traceparent";

	private final ReconcileContext reconcile;

	private @Nullable String result;

	/**
	 * Creates the context of a reconcile.
	 * @param reconcile the reconcile
	 */
	public ReconcileObservationContext(ReconcileContext reconcile) {
		super((carrier, key) -> carrier.get(key), Kind.CONSUMER);
		this.reconcile = reconcile;
		Map<String, String> carrier = new HashMap<>(2);
		for (Trigger trigger : reconcile.triggers()) {
			if (trigger.traceParent() != null) {
				carrier.put(TRACEPARENT, trigger.traceParent());
				break;
			}
		}
		setCarrier(carrier);
	}

	/**
	 * Returns the reconcile.
	 * @return the controller, request, reconcile ID, triggers and time in the queue
	 */
	public ReconcileContext getReconcile() {
		return this.reconcile;
	}

	/**
	 * Returns how the reconcile ended: controller-runtime's {@code result}.
	 * @return {@code success}, {@code requeue}, {@code requeue_after} or {@code error};
	 * {@code null} while it runs
	 */
	public @Nullable String getResult() {
		return this.result;
	}

	/**
	 * Sets how the reconcile ended.
	 * @param result controller-runtime's {@code result}
	 */
	public void setResult(@Nullable String result) {
		this.result = result;
	}

}
