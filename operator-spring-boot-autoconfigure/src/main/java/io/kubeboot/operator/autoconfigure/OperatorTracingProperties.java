package io.kubeboot.operator.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The operator's traces. Its reconciles, client calls, webhook requests and leader
 * transitions are observed when the application has an ObservationRegistry and Micrometer
 * Tracing with a bridge (spring-boot-starter-opentelemetry, or the Brave bridge), or when
 * the observations' timers are asked for; the trace context a create leaves on the object
 * lets the reconcile of that object, here or in another operator, continue the trace. The
 * default of annotate-objects is {@code TraceContextAnnotation.DEFAULT_WRITTEN}.
 */
@ConfigurationProperties(prefix = "operator.tracing", ignoreUnknownFields = false)
public class OperatorTracingProperties {

	/**
	 * Whether the client writes the current trace context (a W3C traceparent) into the
	 * annotation tracing.kubeboot.io/traceparent of each object it creates, in the same
	 * write, so that the reconcile of the created object continues the trace. Updates,
	 * patches and applies never carry it, and a change of the annotation alone never
	 * triggers a reconcile.
	 */
	private boolean annotateObjects = false;

	/**
	 * Whether the operator's observations also become timers through the application's
	 * meter handler (operator_reconcile_seconds, operator_client_request_seconds,
	 * operator_webhook_request_seconds, operator_leader_election_seconds, each with its
	 * active long task timer). Off, controller_runtime_* and workqueue_* stay the only
	 * timers of reconciles, and the observations are made only when Micrometer Tracing
	 * has a bridge. On, they are made whenever the application has an
	 * ObservationRegistry.
	 */
	private boolean observationTimers = false;

	public boolean isAnnotateObjects() {
		return this.annotateObjects;
	}

	public void setAnnotateObjects(boolean annotateObjects) {
		this.annotateObjects = annotateObjects;
	}

	public boolean isObservationTimers() {
		return this.observationTimers;
	}

	public void setObservationTimers(boolean observationTimers) {
		this.observationTimers = observationTimers;
	}

}
