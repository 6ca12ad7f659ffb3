package io.kubeboot.operator.cache.internal;

import java.util.List;
import java.util.Set;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.cache.UnscopedInformerAdvice;
import io.kubeboot.operator.cache.UnscopedInformerPolicy;
import io.kubeboot.operator.client.internal.ResourceKind;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1SecretList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link UnscopedInformerWarning}: which informers are warned of, each once, in
 * the words of the policy's advice or the builder's, acknowledged kinds and transformed
 * ones.
 */
class UnscopedInformerWarningTests {

	private static final ResourceKind<V1Secret> SECRETS = new ResourceKind<>(V1Secret.class, V1SecretList.class, "",
			"v1", "Secret", "secrets", true);

	private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

	@BeforeEach
	void captureLogs() {
		this.logs.start();
		logger().addAppender(this.logs);
	}

	@AfterEach
	void releaseLogs() {
		logger().detachAppender(this.logs);
	}

	@Test
	void secretsConfigMapsPodsAndEventsOfEveryNamespaceUnselectedAreWarnedOf() {
		assertThat(UnscopedInformerWarning.isUnscoped(new InformerKey(V1Secret.class, null, null), SECRETS)).isTrue();
		assertThat(UnscopedInformerWarning.isUnscoped(new InformerKey(V1ConfigMap.class, null, null),
				kind(V1ConfigMap.class, "", "ConfigMap", true)))
			.isTrue();
		assertThat(UnscopedInformerWarning.isUnscoped(new InformerKey(V1Pod.class, null, null),
				kind(V1Pod.class, "", "Pod", true)))
			.isTrue();
		assertThat(UnscopedInformerWarning.isUnscoped(new InformerKey(CoreV1Event.class, null, null),
				kind(CoreV1Event.class, "", "Event", true)))
			.isTrue();
		assertThat(UnscopedInformerWarning.isUnscoped(new InformerKey(EventsV1Event.class, null, null),
				kind(EventsV1Event.class, "events.k8s.io", "Event", true)))
			.isTrue();
	}

	@Test
	void aNamespaceASelectorOrTheMetadataOnlyFormNarrowsAnInformerEnough() {
		assertThat(UnscopedInformerWarning.isUnscoped(new InformerKey(V1Secret.class, "shop", null), SECRETS))
			.isFalse();
		assertThat(UnscopedInformerWarning.isUnscoped(new InformerKey(V1Secret.class, null, "app=shop"), SECRETS))
			.isFalse();
		assertThat(UnscopedInformerWarning
			.isUnscoped(new InformerKey(V1Secret.class, null, null, "type=kubernetes.io/tls", false), SECRETS))
			.isFalse();
		assertThat(UnscopedInformerWarning.isUnscoped(new InformerKey(V1Secret.class, null, null, true), SECRETS))
			.isFalse();
	}

	@Test
	void otherKindsAreNotWarnedOf() {
		assertThat(UnscopedInformerWarning.isUnscoped(new InformerKey(V1Deployment.class, null, null),
				kind(V1Deployment.class, "apps", "Deployment", true)))
			.isFalse();
		assertThat(UnscopedInformerWarning.isUnscoped(new InformerKey(V1Namespace.class, null, null),
				kind(V1Namespace.class, "", "Namespace", false)))
			.isFalse();
		// a custom resource named like a core kind, of another group
		assertThat(UnscopedInformerWarning.isUnscoped(new InformerKey(V1ConfigMap.class, null, null),
				kind(V1ConfigMap.class, "example.com", "Secret", true)))
			.isFalse();
	}

	@Test
	void eachInformerIsWarnedOfOnceNamingItsReadersAndTheBuilderMethodsThatNarrowIt() {
		UnscopedInformerWarning warning = new UnscopedInformerWarning();
		InformerKey secrets = new InformerKey(V1Secret.class, null, null);
		assertThat(warning.warnOnce(secrets, SECRETS, List.of("controller-app"), false)).isTrue();
		assertThat(warning.warnOnce(secrets, SECRETS, List.of("controller-app"), false)).isFalse();
		assertThat(warning.warnOnce(new InformerKey(V1Secret.class, "shop", null), SECRETS, List.of(), false))
			.isFalse();
		assertThat(this.logs.list).singleElement().satisfies((event) -> {
			assertThat(event.getLevel()).isEqualTo(Level.WARN);
			assertThat(event.getFormattedMessage()).startsWith("Informer caches every object of a kind that is often "
					+ "numerous and large, in all namespaces, unselected: watch fewer to keep the operator's memory in "
					+ "check: informer=V1Secret[namespace=*] kind=Secret (core/v1) readBy=[controller-app] "
					+ "narrowWith=\"")
				// Helm's releases: the most effective narrowing of Secrets
				.contains("a field selector such as type!=helm.sh/release.v1", "ControllerBuilder.labelSelector",
						"ownsMetadataOnly", "CacheTransform",
						"ManagerBuilder.unscopedInformers(new UnscopedInformerPolicy(Set.of(\"Secret\")")
				// the core names no annotation of the Spring Boot starter
				.doesNotContain("@Watches", "@Reconciles", "operator.");
		});
	}

	@Test
	void theAdviceOfThePolicyWordsWhatNarrowsAnInformerWithTheFieldSelectorOfItsKind() {
		UnscopedInformerWarning warning = new UnscopedInformerWarning();
		warning.policy(new UnscopedInformerPolicy(Set.of(),
				(informer, readers, field) -> "declared by " + readers + ": set fieldSelector = " + field));
		warning.warnOnce(new InformerKey(V1Secret.class, null, null), SECRETS, List.of("controller-app"), false);
		warning.warnOnce(new InformerKey(EventsV1Event.class, null, null),
				kind(EventsV1Event.class, "events.k8s.io", "Event", true), List.of("controller-b"), false);
		warning.warnOnce(new InformerKey(V1ConfigMap.class, null, null), kind(V1ConfigMap.class, "", "ConfigMap", true),
				List.of(), false);
		assertThat(this.logs.list).extracting(ILoggingEvent::getFormattedMessage)
			.satisfiesExactly(
					(message) -> assertThat(message).endsWith("narrowWith=\"declared by [controller-app]: set "
							+ "fieldSelector = type!=helm.sh/release.v1\""),
					(message) -> assertThat(message).endsWith("narrowWith=\"declared by [controller-b]: set "
							+ "fieldSelector = regarding.kind=<Kind>\""),
					(message) -> assertThat(message)
						.endsWith("narrowWith=\"declared by []: set fieldSelector = null\""));
		// advice that fails: the builder's words
		UnscopedInformerWarning failing = new UnscopedInformerWarning();
		failing.policy(new UnscopedInformerPolicy(Set.of(), (informer, readers, field) -> {
			throw new IllegalStateException("broken");
		}));
		assertThat(failing.warnOnce(new InformerKey(V1Secret.class, null, null), SECRETS, List.of(), false)).isTrue();
		assertThat(this.logs.list).last()
			.satisfies((event) -> assertThat(event.getFormattedMessage()).contains("ControllerBuilder.labelSelector"));
	}

	@Test
	void anAcknowledgedKindIsNotWarnedOf() {
		UnscopedInformerWarning warning = new UnscopedInformerWarning();
		warning
			.policy(new UnscopedInformerPolicy(Set.of("pod", "Event.events.k8s.io"), UnscopedInformerAdvice.BUILDER));
		assertThat(warning.warnOnce(new InformerKey(V1Pod.class, null, null), kind(V1Pod.class, "", "Pod", true),
				List.of(), false))
			.isFalse();
		assertThat(warning.warnOnce(new InformerKey(EventsV1Event.class, null, null),
				kind(EventsV1Event.class, "events.k8s.io", "Event", true), List.of(), false))
			.isFalse();
		// the core group's Events are not acknowledged by those of events.k8s.io
		assertThat(warning.warnOnce(new InformerKey(CoreV1Event.class, null, null),
				kind(CoreV1Event.class, "", "Event", true), List.of(), false))
			.isTrue();
		assertThat(this.logs.list).singleElement()
			.satisfies((event) -> assertThat(event.getFormattedMessage()).contains("informer=CoreV1Event"));
	}

	@Test
	void anInformerWhoseObjectsATransformChangesIsReportedAtInfo() {
		UnscopedInformerWarning warning = new UnscopedInformerWarning();
		assertThat(warning.warnOnce(new InformerKey(V1Secret.class, null, null), SECRETS, List.of(), true)).isTrue();
		assertThat(this.logs.list).singleElement().satisfies((event) -> {
			assertThat(event.getLevel()).isEqualTo(Level.INFO);
			assertThat(event.getFormattedMessage())
				.contains("through a cache transform: check that the transform drops " + "what makes them large");
		});
	}

	private static <T extends KubernetesObject> ResourceKind<T> kind(Class<T> type, String group, String kind,
			boolean namespaced) {
		return new ResourceKind<>(type, V1ConfigMapList.class, group, "v1", kind, kind.toLowerCase() + "s", namespaced);
	}

	private static Logger logger() {
		return (Logger) LoggerFactory.getLogger(UnscopedInformerWarning.class);
	}

}
