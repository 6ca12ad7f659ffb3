package io.kubeboot.operator.cache.internal;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.kubeboot.operator.cache.InformerKey;
import io.kubeboot.operator.client.internal.ResourceKind;
import io.kubeboot.operator.client.internal.StatusMessages;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How one informer reports and paces its failing list and watch, from the first failure
 * until a watch opens again (an outage):
 * <ul>
 * <li>RBAC denying the list or watch ({@code 403}) is logged once per outage at ERROR,
 * naming the verbs RBAC denies, the resource and the namespace; the kind no longer served
 * ({@code 404}: its CustomResourceDefinition deleted) likewise, naming the kind; the
 * informer's field selector refused ({@code 400}: a field the API server does not support
 * for the kind) likewise, naming the kind and the field selector; any other error at
 * WARN, once per minute for each distinct message, a {@code 429} only once the outage has
 * lasted {@link #THROTTLED_LOG_GRACE} (kube-apiserver answers so for about a second while
 * the watch cache of a kind initializes, as after a CRD was created);</li>
 * <li>after an answer that does not change by itself (a {@code 4xx} other than
 * {@code 410 Gone}) the informer waits longer before each new list, doubling from the
 * reflector's one second to {@link #MAX_RETRY_INTERVAL}, as client-go's reflector backs
 * off, so that a denied or vanished kind is not listed every second (a list allowed while
 * its watch is denied would otherwise read every object every second); an unreachable API
 * server and {@code 5xx} answers are retried every second, so that the informer is back
 * within a second of an outage's end;</li>
 * <li>the end of an outage whose failures were logged is logged once at INFO.</li>
 * </ul>
 * Thread-safe; shared by an informer and the replacements the watchdog starts for it.
 */
final class ListWatchFailures {

	private static final Logger logger = LoggerFactory.getLogger(ScopedInformer.class);

	/**
	 * The longest pause between two lists after answers that do not change by themselves.
	 */
	static final Duration MAX_RETRY_INTERVAL = Duration.ofSeconds(10);

	/** How long the reflector itself waits before it lists again after a failure. */
	private static final Duration REFLECTOR_PERIOD = Duration.ofSeconds(1);

	private static final long ERROR_LOG_INTERVAL_NANOS = Duration.ofMinutes(1).toNanos();

	/** How long an informer may be throttled (429) before it is logged. */
	static final Duration THROTTLED_LOG_GRACE = Duration.ofSeconds(5);

	/** Whether a failure of the current outage was logged. */
	private boolean outageLogged;

	/** Errors whose last log is remembered; a message that varies endlessly is not. */
	private static final int MAX_REMEMBERED_ERRORS = 16;

	private final InformerKey key;

	private final CacheAccessCheck.Scope scope;

	private final ApiClient client;

	/** When the current outage began, {@code 0} while the informer has a watch. */
	private long failingSinceNanos;

	/** Answers that do not change by themselves since the last watch opened. */
	private int lastingFailures;

	private boolean deniedLogged;

	private boolean notServedLogged;

	private boolean fieldSelectorLogged;

	/** When each other error was last logged in this outage, by its description. */
	private final Map<String, Long> loggedAt = new HashMap<>();

	ListWatchFailures(InformerKey key, ResourceKind<?> kind, ApiClient client) {
		this.key = key;
		this.scope = new CacheAccessCheck.Scope(kind, kind.namespaced() ? key.namespace() : null);
		this.client = client;
	}

	/**
	 * Describes a failure for a person to read, as readiness and a cache that does not
	 * sync show it.
	 * @param error the failure
	 * @param description what {@code StatusMessages} makes of it
	 * @return the description, more specific for a kind that is not served
	 */
	String describe(Throwable error, String description) {
		if (code(error) == 404) {
			return "404 Not Found: " + this.scope.kind() + " is not served by the API server "
					+ "(was its CustomResourceDefinition deleted?)";
		}
		return description;
	}

	/**
	 * Records a failed list or watch and logs it if it is the first of its sort in this
	 * outage (see the class description).
	 * @param error the failure
	 * @param description the failure for a person to read
	 * @param verb {@code list} or {@code watch}, {@code null} if the reflector failed
	 * otherwise
	 */
	void failed(Throwable error, String description, @Nullable String verb) {
		int code = code(error);
		boolean logDenied = false;
		boolean logNotServed = false;
		boolean logFieldSelector = false;
		boolean logOther = false;
		synchronized (this) {
			if (this.failingSinceNanos == 0) {
				this.failingSinceNanos = System.nanoTime();
			}
			if (code >= 400 && code < 500 && code != 410) {
				this.lastingFailures++;
			}
			if (code == 403) {
				logDenied = !this.deniedLogged;
				this.deniedLogged = true;
			}
			else if (code == 404) {
				logNotServed = !this.notServedLogged;
				this.notServedLogged = true;
			}
			else if (refusesFieldSelector(error, this.key.fieldSelector())) {
				logFieldSelector = !this.fieldSelectorLogged;
				this.fieldSelectorLogged = true;
			}
			else if (code != 429 || System.nanoTime() - this.failingSinceNanos >= THROTTLED_LOG_GRACE.toNanos()) {
				long now = System.nanoTime();
				Long logged = this.loggedAt.get(description);
				if (logged == null || now - logged > ERROR_LOG_INTERVAL_NANOS) {
					if (this.loggedAt.size() >= MAX_REMEMBERED_ERRORS) {
						this.loggedAt.clear();
					}
					this.loggedAt.put(description, now);
					logOther = true;
				}
			}
			this.outageLogged |= logDenied || logNotServed || logFieldSelector || logOther;
		}
		if (logDenied) {
			logger.error(
					"List or watch forbidden by RBAC, retrying until it is granted: informer={} verbs={} resource={} "
							+ "namespace={} error=\"{}\"",
					this.key, deniedVerbs(verb), this.scope.resource(), namespace(), description);
		}
		else if (logNotServed) {
			logger.error(
					"Kind no longer served by the API server, retrying until it is (was its CustomResourceDefinition "
							+ "deleted?): informer={} kind={} apiVersion={} resource={}",
					this.key, this.scope.kind().kind(), this.scope.kind().apiVersion(), this.scope.resource());
		}
		else if (logFieldSelector) {
			logger
				.error("Field selector not supported by the API server, retrying until it is (a custom resource can be "
						+ "selected by metadata.name, metadata.namespace and the selectableFields of its "
						+ "CustomResourceDefinition): informer={} kind={} apiVersion={} fieldSelector={} error=\"{}\"",
						this.key, this.scope.kind().kind(), this.scope.kind().apiVersion(), this.key.fieldSelector(),
						description);
		}
		else if (logOther) {
			logger.warn("List or watch failed, retrying: informer={} error=\"{}\"", this.key, description);
		}
	}

	/**
	 * Ends the outage, if there is one, because a watch opened, and logs that once.
	 */
	void recovered() {
		long since;
		synchronized (this) {
			since = this.outageLogged ? this.failingSinceNanos : 0;
			this.outageLogged = false;
			this.failingSinceNanos = 0;
			this.lastingFailures = 0;
			this.deniedLogged = false;
			this.notServedLogged = false;
			this.fieldSelectorLogged = false;
			this.loggedAt.clear();
		}
		if (since != 0) {
			logger.info("List and watch work again: informer={} failedFor={}ms", this.key,
					Duration.ofNanos(System.nanoTime() - since).toMillis());
		}
	}

	/**
	 * Returns how long to wait before the next list, beyond the reflector's own second.
	 * @return the pause, zero unless the API server answered with errors that do not
	 * change by themselves
	 */
	synchronized Duration retryPause() {
		if (this.lastingFailures <= 1) {
			return Duration.ZERO;
		}
		Duration interval = REFLECTOR_PERIOD.multipliedBy(1L << Math.min(this.lastingFailures - 1, 10));
		if (interval.compareTo(MAX_RETRY_INTERVAL) > 0) {
			interval = MAX_RETRY_INTERVAL;
		}
		return interval.minus(REFLECTOR_PERIOD);
	}

	private String deniedVerbs(@Nullable String verb) {
		// which verbs RBAC denies: the request that failed names only one of them
		List<String> denied = CacheAccessCheck.deniedVerbs(this.client, this.scope);
		if (denied != null && !denied.isEmpty()) {
			return String.join(",", denied);
		}
		return (verb != null) ? verb : "unknown";
	}

	private String namespace() {
		if (!this.scope.kind().namespaced()) {
			return "(cluster-scoped)";
		}
		return (this.scope.namespace() != null) ? this.scope.namespace() : "*";
	}

	/**
	 * Tells whether a failure is the API server refusing a field selector: a
	 * {@code 400 Bad Request} to a list or watch with one, whose message speaks of a
	 * field ({@code field label not supported: spec.foo}, or {@code "spec.foo" is not a
	 * known field selector} for a kind selectable by its name and namespace only).
	 * @param error the failure
	 * @param fieldSelector the field selector of the request, {@code null} for none
	 * @return whether the field selector was refused
	 */
	static boolean refusesFieldSelector(Throwable error, @Nullable String fieldSelector) {
		if (fieldSelector == null || !(error instanceof ApiException api) || api.getCode() != 400) {
			return false;
		}
		String message = StatusMessages.message(api);
		return message != null && message.toLowerCase(Locale.ROOT).contains("field");
	}

	/**
	 * Whether a failure is RBAC refusing the list or watch.
	 * @param error the failure
	 * @return {@code true} for a {@code 403 Forbidden}
	 */
	static boolean forbidden(Throwable error) {
		return code(error) == 403;
	}

	private static int code(Throwable error) {
		return (error instanceof ApiException api) ? api.getCode() : 0;
	}

}
