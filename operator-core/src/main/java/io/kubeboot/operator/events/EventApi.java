package io.kubeboot.operator.events;

/**
 * Which API a {@link KubernetesEventRecorder} writes Events through.
 */
public enum EventApi {

	/**
	 * {@code events.k8s.io/v1} where the API server serves it (asked through discovery
	 * before the first write), as controller-runtime 0.23 records; {@code core/v1}
	 * otherwise. In a namespace where RBAC forbids creating {@code events.k8s.io} Events
	 * and allows {@code core/v1} ones (an operator upgraded before its RBAC, RBAC granted
	 * per namespace), as a {@code SelfSubjectAccessReview} confirms after a {@code 403},
	 * {@code core/v1} Events for 10 minutes, after which {@code events.k8s.io} is tried
	 * again. Other {@code 403}s (a namespace being deleted, a quota) change nothing.
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
