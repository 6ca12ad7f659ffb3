package io.kubeboot.operator.benchmarks.josdk;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The benchmark's custom resource as a fabric8 model class, with the same fields as the
 * client-java model the other implementations use: a spec with a small payload and the
 * time its creator stamped, and a status holding the generation a controller last
 * observed.
 */
@Group(Widget.GROUP)
@Version(Widget.VERSION)
@Kind(Widget.KIND)
@Plural(Widget.PLURAL)
public class Widget extends CustomResource<Widget.Spec, Widget.Status> implements Namespaced {

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

		public Long getCreatedAt() {
			return this.createdAt;
		}

		public void setCreatedAt(Long createdAt) {
			this.createdAt = createdAt;
		}

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

		public Long getObservedValue() {
			return this.observedValue;
		}

		public void setObservedValue(Long observedValue) {
			this.observedValue = observedValue;
		}

	}

}
