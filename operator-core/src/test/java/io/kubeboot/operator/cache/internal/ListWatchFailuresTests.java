package io.kubeboot.operator.cache.internal;

import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.client.internal.ResourceKind;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests how an informer paces and reports a failing list and watch.
 */
class ListWatchFailuresTests {

	private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

	private final ListWatchFailures failures = new ListWatchFailures(new InformerKey(Gadget.class, "ns", null),
			new ResourceKind<>(Gadget.class, Gadget.class, "test.kubeboot.io", "v1", "Gadget", "gadgets", true),
			new ApiClient().setBasePath("http://127.0.0.1:1"));

	@BeforeEach
	void captureLogs() {
		this.logs.start();
		logger().addAppender(this.logs);
	}

	@AfterEach
	void stopCapturing() {
		logger().detachAppender(this.logs);
	}

	@Test
	void answersThatDoNotChangeByThemselvesSpaceTheListsOutToTenSeconds() {
		List<Duration> pauses = new ArrayList<>();
		for (int i = 0; i < 7; i++) {
			pauses.add(this.failures.retryPause());
			this.failures.failed(new ApiException(404, "not found"), "404 Not Found", "list");
		}
		pauses.add(this.failures.retryPause());
		// beyond the reflector's own second: 1s, 1s, 2s, 4s, 8s, 10s, 10s, 10s between
		// two lists
		assertThat(pauses).extracting(Duration::toSeconds).containsExactly(0L, 0L, 1L, 3L, 7L, 9L, 9L, 9L);
		this.failures.recovered();
		assertThat(this.failures.retryPause()).isZero();
	}

	@Test
	void anUnreachableApiServerAndServerErrorsAreRetriedEverySecond() {
		for (int i = 0; i < 5; i++) {
			this.failures.failed(new ApiException(new ConnectException("Connection refused")),
					"ConnectException: Connection refused", "watch");
			this.failures.failed(new ApiException(503, "unavailable"), "503 Service Unavailable", "list");
			this.failures.failed(new ApiException(410, "gone"), "410 Gone", "watch");
		}
		assertThat(this.failures.retryPause()).isZero();
	}

	@Test
	void aKindNoLongerServedIsLoggedOncePerOutageAndTheRecoveryOnce() {
		for (int i = 0; i < 3; i++) {
			this.failures.failed(new ApiException(404, "not found"), "404 Not Found", "list");
		}
		this.failures.recovered();
		this.failures.recovered();
		this.failures.failed(new ApiException(404, "not found"), "404 Not Found", "watch");
		assertThat(messages()).hasSize(3)
			.satisfies((messages) -> assertThat(messages.get(0)).isEqualTo(messages.get(2)))
			.first()
			.isEqualTo("ERROR Kind no longer served by the API server, retrying until it is (was its "
					+ "CustomResourceDefinition deleted?): informer=Gadget[namespace=ns] kind=Gadget "
					+ "apiVersion=test.kubeboot.io/v1 resource=gadgets.test.kubeboot.io");
		assertThat(messages().get(1))
			.startsWith("INFO List and watch work again: informer=Gadget[namespace=ns] " + "failedFor=");
	}

	@Test
	void aDenialIsLoggedOncePerOutageNamingTheDeniedRequestWhenRbacCannotBeAsked() {
		// the API server of this test is unreachable: the access review fails, and the
		// denied request names the verb
		this.failures.failed(new ApiException(403, "forbidden"), "403 Forbidden: no", "watch");
		this.failures.failed(new ApiException(403, "forbidden"), "403 Forbidden: no", "list");
		assertThat(messages()).containsExactly("ERROR List or watch forbidden by RBAC, retrying until it is granted: "
				+ "informer=Gadget[namespace=ns] verbs=watch resource=gadgets.test.kubeboot.io namespace=ns "
				+ "error=\"403 Forbidden: no\"");
	}

	@Test
	void otherErrorsAreLoggedOncePerMinuteForEachMessage() {
		for (int i = 0; i < 3; i++) {
			this.failures.failed(new ApiException(503, "unavailable"), "503 Service Unavailable", "list");
			this.failures.failed(new ApiException(500, "broken"), "500 Internal Server Error", "list");
		}
		this.failures.failed(new ApiException(500, "broken"), "500 Internal Server Error", "list");
		assertThat(messages()).containsExactly(
				"WARN List or watch failed, retrying: informer=Gadget[namespace=ns] error=\"503 Service Unavailable\"",
				"WARN List or watch failed, retrying: informer=Gadget[namespace=ns] error=\"500 Internal Server "
						+ "Error\"");
		// a new outage
		this.failures.recovered();
		this.failures.failed(new ApiException(500, "broken"), "500 Internal Server Error", "list");
		assertThat(messages()).hasSize(4).last().asString().startsWith("WARN List or watch failed, retrying: ");
	}

	@Test
	void aBriefThrottlingIsNotLoggedNorItsEnd() {
		// as while the watch cache of a CRD created a moment ago initializes
		this.failures.failed(new ApiException(429, "throttled"), "429 Too Many Requests: storage is (re)initializing",
				"list");
		this.failures.failed(new ApiException(429, "throttled"), "429 Too Many Requests: storage is (re)initializing",
				"watch");
		this.failures.recovered();
		assertThat(messages()).isEmpty();
		// a failure of another sort in the next outage is logged, and so is its end
		this.failures.failed(new ApiException(503, "unavailable"), "503 Service Unavailable", "list");
		this.failures.recovered();
		assertThat(messages()).hasSize(2).last().asString().startsWith("INFO List and watch work again: ");
	}

	@Test
	void aRefusedFieldSelectorIsLoggedOncePerOutageNamingItAndTheKind() {
		ListWatchFailures selected = new ListWatchFailures(
				new InformerKey(Gadget.class, "ns", null, "spec.shape=round", false),
				new ResourceKind<>(Gadget.class, Gadget.class, "test.kubeboot.io", "v1", "Gadget", "gadgets", true),
				new ApiClient().setBasePath("http://127.0.0.1:1"));
		ApiException refused = new ApiException("Bad Request", 400, Map.of(),
				"{\"kind\":\"Status\",\"message\":\"field label not supported: spec.shape\"}");
		for (int i = 0; i < 3; i++) {
			selected.failed(refused, "400 Bad Request: field label not supported: spec.shape", "list");
		}
		assertThat(messages())
			.containsExactly("ERROR Field selector not supported by the API server, retrying until it "
					+ "is (a custom resource can be selected by metadata.name, metadata.namespace and the selectableFields "
					+ "of its CustomResourceDefinition): informer=Gadget[namespace=ns, fieldSelector=spec.shape=round] "
					+ "kind=Gadget apiVersion=test.kubeboot.io/v1 fieldSelector=spec.shape=round "
					+ "error=\"400 Bad Request: field label not supported: spec.shape\"");
		// a lasting answer: the lists are spaced out
		assertThat(selected.retryPause()).isPositive();
	}

	@Test
	void onlyABadRequestAboutAFieldOfAFieldSelectedListRefusesTheFieldSelector() {
		ApiException unsupported = new ApiException("Bad Request", 400, Map.of(),
				"{\"kind\":\"Status\",\"message\":\"field label not supported: spec.shape\"}");
		ApiException unknown = new ApiException("Bad Request", 400, Map.of(),
				"{\"kind\":\"Status\",\"message\":\"\\\"spec.shape\\\" is not a known field selector: only "
						+ "\\\"metadata.name\\\", \\\"metadata.namespace\\\"\"}");
		assertThat(ListWatchFailures.refusesFieldSelector(unsupported, "spec.shape=round")).isTrue();
		assertThat(ListWatchFailures.refusesFieldSelector(unknown, "spec.shape=round")).isTrue();
		assertThat(ListWatchFailures.refusesFieldSelector(unsupported, null)).isFalse();
		assertThat(ListWatchFailures.refusesFieldSelector(new ApiException(400, "bad"), "spec.shape=round")).isFalse();
		assertThat(ListWatchFailures.refusesFieldSelector(new ApiException("Forbidden", 403, Map.of(),
				"{\"kind\":\"Status\",\"message\":\"field is forbidden\"}"), "spec.shape=round"))
			.isFalse();
	}

	@Test
	void aKindNoLongerServedIsDescribedByName() {
		assertThat(this.failures.describe(new ApiException(404, Map.of(), "404 page not found"),
				"404 Not Found: 404 page not found"))
			.isEqualTo("404 Not Found: Gadget (test.kubeboot.io/v1) is not served by the API server "
					+ "(was its CustomResourceDefinition deleted?)");
		assertThat(this.failures.describe(new ApiException(403, "forbidden"), "403 Forbidden: no"))
			.isEqualTo("403 Forbidden: no");
	}

	private List<String> messages() {
		return this.logs.list.stream().map((event) -> event.getLevel() + " " + event.getFormattedMessage()).toList();
	}

	private static Logger logger() {
		return (Logger) LoggerFactory.getLogger(ScopedInformer.class);
	}

}
