package io.kubeboot.operator.events;

import java.time.Duration;

import io.kubeboot.operator.config.InvalidConfigException;
import io.kubeboot.operator.config.internal.ConfigChecks;

/**
 * How a {@link KubernetesEventRecorder} writes Events; its
 * {@link KubernetesEventRecorder.Builder builder} checks every value it is given with
 * this record, whose constructor names every value at fault.
 *
 * @param component the component written to {@code reportingController} (of an
 * {@code events.k8s.io/v1} Event), or {@code source.component} and
 * {@code reportingComponent} (of a {@code core/v1} Event), typically the operator's name;
 * not blank
 * @param queueCapacity how many distinct events may wait to be written; at least 1
 * @param aggregationInterval the shortest time between two writes of the same Event; not
 * negative, at most a day
 * @param qps the sustained rate of writes, in writes per second; positive
 * @param burst how many writes may go out at once above the rate; at least 1
 * @param cacheSize how many written Events are remembered for aggregation; at least 1
 * @param flushTimeout how long stopping the recorder may take to write pending events;
 * not negative, zero drops what is pending
 * @param api the API Events are written through; not {@code null}
 */
public record EventRecorderConfig(String component, int queueCapacity, Duration aggregationInterval, double qps,
		int burst, int cacheSize, Duration flushTimeout, EventApi api) {

	/**
	 * The defaults: component {@code operator}, 1000 waiting events, 1s between writes of
	 * one Event, 10 writes per second with a burst of 25, 4096 Events remembered, 5s to
	 * flush, {@code events.k8s.io/v1} where served.
	 */
	public static final EventRecorderConfig DEFAULT = new EventRecorderConfig("operator", 1000, Duration.ofSeconds(1),
			10, 25, 4096, Duration.ofSeconds(5), EventApi.AUTO);

	/**
	 * Creates the configuration.
	 * @throws InvalidConfigException naming every value that breaks the rules
	 */
	public EventRecorderConfig {
		ConfigChecks checks = new ConfigChecks();
		checks.notBlank("component", component);
		checks.atLeast("queueCapacity", queueCapacity, 1);
		if (checks.notNull("aggregationInterval", aggregationInterval)) {
			checks.check(!aggregationInterval.isNegative() && aggregationInterval.compareTo(Duration.ofDays(1)) <= 0,
					"aggregationInterval", aggregationInterval, "must be between 0 and 1 day");
		}
		checks.check(qps > 0 && !Double.isInfinite(qps), "qps", qps, "must be positive");
		checks.atLeast("burst", burst, 1);
		checks.atLeast("cacheSize", cacheSize, 1);
		checks.notNegative("flushTimeout", flushTimeout);
		if (checks.notNull("api", api) && api != EventApi.CORE_V1 && component != null && !component.isBlank()) {
			checks.check(ConfigChecks.isQualifiedName(component), "component", component,
					"must be a Kubernetes qualified name, such as shop-operator or example.com/shop-operator: it is "
							+ "the reportingController of events.k8s.io/v1 Events (or record core/v1 Events only)");
		}
		checks.throwIfAny();
	}

}
