package io.kubeboot.operator.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Traces across operators: the trace context a write leaves on the object it writes, for
 * the reconcile it triggers, here or in another operator, to continue the trace. The
 * reconciles, client calls, webhook requests and leader transitions are observed whenever
 * the application has an ObservationRegistry; with a tracing bridge on the class path
 * (spring-boot-starter-opentelemetry, or Micrometer Tracing's Brave bridge) they are
 * traced. The default is {@code TraceContextAnnotation.DEFAULT_WRITTEN}.
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

	public boolean isAnnotateObjects() {
		return this.annotateObjects;
	}

	public void setAnnotateObjects(boolean annotateObjects) {
		this.annotateObjects = annotateObjects;
	}

}
