package io.kubeboot.operator.events;

/**
 * Which API a {@link KubernetesEventRecorder} writes Events through.
 */
public enum EventApi {

	/**
	 * {@code events.k8s.io/v1} where the API server serves it (asked through discovery
	 * before the first write), as controller-runtime 0.23 records; {@code core/v1}
	 * otherwise, and also once RBAC forbids creating {@code events.k8s.io} Events while it
	 * allows {@code core/v1} ones (an operator upgraded before its RBAC).
	 */
	AUTO,

	/**
	 * {@code events.k8s.io/v1} only: {@code regarding}, {@code note}, {@code action},
	 * {@code reportingController}, {@code eventTime}, and a {@code series} for repeats.
	 */
	EVENTS_V1,

	/**
	 * {@code core/v1} only: {@code involvedObject}, {@code message}, {@code source},
	 * {@code firstTimestamp}, {@code lastTimestamp} and {@code count}, as client-go's
	 * legacy recorder writes them.
	 */
	CORE_V1

}
