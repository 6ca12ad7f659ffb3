package io.kubeboot.operator.benchmarks.model;

import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;

/**
 * The benchmark's custom resource: a spec with a small payload and the time its creator
 * stamped, and a status holding the generation a controller last observed. Every
 * implementation (the starter, client-java-extended and the raw program) uses this class,
 * so they parse and cache the same objects.
 */
@KubernetesKind(group = Widget.GROUP, version = Widget.VERSION, kind = Widget.KIND)
public class Widget extends CustomResource<Widget.Spec, Widget.Status> {

	/**
	 * The API group.
	 */
	public static final String GROUP = "bench.kubeboot.io";

	/**
	 * The API version.
	 */
	public static final String VERSION = "v1";

	/**
	 * The kind.
	 */
	public static final String KIND = "Widget";

	/**
	 * The plural resource name.
	 */
	public static final String PLURAL = "widgets";

	/**
	 * The desired state.
	 */
	public static class Spec {

		private String payload;

		private Integer replicas;

		private Long createdAt;

		private Long value;

		public String getPayload() {
			return this.payload;
		}

		public void setPayload(String payload) {
			this.payload = payload;
		}

		public Integer getReplicas() {
			return this.replicas;
		}

		public void setReplicas(Integer replicas) {
			this.replicas = replicas;
		}

		/**
		 * Returns when the benchmark sent the create request, in epoch milliseconds.
		 * @return the creation stamp, or {@code null}
		 */
		public Long getCreatedAt() {
			return this.createdAt;
		}

		public void setCreatedAt(Long createdAt) {
			this.createdAt = createdAt;
		}

		/**
		 * Returns the value the chaos run's driver last wrote; a reconcile copies it into
		 * {@code status.observedValue}.
		 * @return the value, or {@code null} if never written
		 */
		public Long getValue() {
			return this.value;
		}

		public void setValue(Long value) {
			this.value = value;
		}

	}

	/**
	 * The observed state.
	 */
	public static class Status {

		private Long observedGeneration;

		private Long observedValue;

		public Long getObservedGeneration() {
			return this.observedGeneration;
		}

		public void setObservedGeneration(Long observedGeneration) {
			this.observedGeneration = observedGeneration;
		}

		/**
		 * Returns the {@code spec.value} the chaos run's reconciler last observed.
		 * @return the value, or {@code null} if never written
		 */
		public Long getObservedValue() {
			return this.observedValue;
		}

		public void setObservedValue(Long observedValue) {
			this.observedValue = observedValue;
		}

	}

}
