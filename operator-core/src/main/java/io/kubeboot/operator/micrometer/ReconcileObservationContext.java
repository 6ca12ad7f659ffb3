package io.kubeboot.operator.micrometer;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.kubeboot.operator.reconcile.ReconcileContext;
import io.kubeboot.operator.reconcile.ReconcileTrigger;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.ReceiverContext;
import org.jspecify.annotations.Nullable;

/**
 * The Micrometer context of a reconcile's observation: the {@link ReconcileContext} (why
 * it runs, how long it waited) and, once it ended, its result. A receiver's context: its
 * carrier holds the W3C {@code traceparent} that the create of the reconciled object left
 * on it, when a trigger says the object was created with one, so that a tracer continues
 * the trace of that create; otherwise the reconcile starts a trace. Changes, and the
 * objects it owns or watches, never give it a parent: a controller that writes its owned
 * objects on every reconcile would otherwise chain its reconciles into one trace without
 * end.
 */
public class ReconcileObservationContext extends ReceiverContext<Map<String, String>> {

	/** The carrier's key of the trace context, W3C's header name. */
	static final String TRACEPARENT = "traceparent";

	private final ReconcileContext reconcile;

	private @Nullable String result;

	private @Nullable String triggersValue;

	private @Nullable String queuedValue;

	/**
	 * Creates the context of a reconcile.
	 * @param reconcile the reconcile
	 */
	public ReconcileObservationContext(ReconcileContext reconcile) {
		super((carrier, key) -> carrier.get(key), Kind.CONSUMER);
		this.reconcile = reconcile;
		Map<String, String> carrier = new HashMap<>(2);
		String parent = creation(reconcile);
		if (parent != null) {
			carrier.put(TRACEPARENT, parent);
		}
		setCarrier(carrier);
	}

	/**
	 * The trace context of the create that made the reconciled object: the newest
	 * {@code created} trigger of the object itself that carries one.
	 */
	private static @Nullable String creation(ReconcileContext reconcile) {
		List<ReconcileTrigger> triggers = reconcile.triggers();
		for (int i = triggers.size() - 1; i >= 0; i--) {
			ReconcileTrigger trigger = triggers.get(i);
			if (trigger.kind() == ReconcileTrigger.Kind.CREATED && trigger.object() == null
					&& trigger.traceParent() != null) {
				return trigger.traceParent();
			}
		}
		return null;
	}

	/**
	 * Returns the reconcile.
	 * @return the controller, request, reconcile ID, triggers and time in the queue
	 */
	public ReconcileContext getReconcile() {
		return this.reconcile;
	}

	/**
	 * Returns the triggers as the {@code reconcile.triggers} key shows them, computed
	 * once: a convention's keys are read when the observation starts and again when it
	 * stops.
	 * @return such as {@code spec_changed,owned_object:ConfigMap/default/settings}
	 */
	String triggersValue() {
		String value = this.triggersValue;
		if (value == null) {
			StringBuilder triggers = new StringBuilder();
			for (ReconcileTrigger trigger : this.reconcile.triggers()) {
				triggers.append((triggers.length() > 0) ? "," : "").append(trigger);
			}
			value = triggers.toString();
			this.triggersValue = value;
		}
		return value;
	}

	/**
	 * Returns the time in the queue as the {@code reconcile.queued} key shows it,
	 * computed once.
	 * @return seconds with six decimals, such as {@code 0.003120}
	 */
	String queuedValue() {
		String value = this.queuedValue;
		if (value == null) {
			value = BigDecimal.valueOf(this.reconcile.queued().toNanos() / 1000, 6).toPlainString();
			this.queuedValue = value;
		}
		return value;
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
