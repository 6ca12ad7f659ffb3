package io.kubeboot.operator.deploy;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

import io.kubeboot.operator.client.internal.KindResolver;
import io.kubeboot.operator.rbac.internal.DeclaredNames;
import io.kubeboot.operator.rbac.internal.KindNames;
import io.kubeboot.operator.webhook.AdmissionValidator;
import io.kubeboot.operator.webhook.AdmissionWebhook;
import io.kubeboot.operator.webhook.Webhook;
import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

/**
 * One admission webhook the operator serves, as its entry in the generated
 * {@code ValidatingWebhookConfiguration} or {@code MutatingWebhookConfiguration} names
 * it: the kind's group, version and resource, the path the starter serves it on, and what
 * its {@link Webhook @Webhook} says (operations, failure policy, timeout, match
 * conditions).
 *
 * @param mutating whether it is a defaulter's (mutating) webhook, else a validator's
 * @param name the webhook's name in its configuration, such as
 * {@code vstoragebucket.storage.kubeboot.io}
 * @param path the path the operator serves it on
 * @param group the kind's API group, empty for the core group
 * @param version the version the webhook decodes
 * @param resource the kind's plural resource name
 * @param namespaced whether the kind's objects live in namespaces
 * @param operations the operations sent, such as {@code CREATE}
 * @param failurePolicy {@code Fail} or {@code Ignore}
 * @param timeoutSeconds how long the API server waits, 1 to 30
 * @param matchConditions the conditions for calling it, in order
 * @param namespaceSelector the requirements its {@code @Webhook} puts on the namespace
 * @param objectSelector the requirements its {@code @Webhook} puts on the object
 */
record WebhookRegistration(boolean mutating, String name, String path, String group, String version, String resource,
		boolean namespaced, List<String> operations, String failurePolicy, int timeoutSeconds,
		List<MatchCondition> matchConditions, List<LabelSelectors.Requirement> namespaceSelector,
		List<LabelSelectors.Requirement> objectSelector) {

	/** {@code @Webhook}'s default timeout, for a webhook without the annotation. */
	private static final int DEFAULT_TIMEOUT_SECONDS;

	static {
		try {
			DEFAULT_TIMEOUT_SECONDS = (Integer) Webhook.class.getMethod("timeoutSeconds").getDefaultValue();
		}
		catch (NoSuchMethodException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** Kubernetes' qualified name: an optional DNS subdomain and '/', then a name. */
	private static final Pattern QUALIFIED_NAME = Pattern.compile("([a-z0-9]([-a-z0-9]*[a-z0-9])?"
			+ "(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");

	WebhookRegistration {
		Objects.requireNonNull(name, "name must not be null");
		Objects.requireNonNull(path, "path must not be null");
		operations = List.copyOf(operations);
		matchConditions = List.copyOf(matchConditions);
		namespaceSelector = List.copyOf(namespaceSelector);
		objectSelector = List.copyOf(objectSelector);
		if (operations.isEmpty()) {
			throw new IllegalArgumentException("Webhook " + name + " names no operation");
		}
		if (timeoutSeconds < 1 || timeoutSeconds > 30) {
			throw new IllegalArgumentException(
					"Webhook " + name + ": timeoutSeconds must be 1 to 30, not " + timeoutSeconds);
		}
		if (!failurePolicy.equals("Fail") && !failurePolicy.equals("Ignore")) {
			throw new IllegalArgumentException(
					"Webhook " + name + ": failurePolicy must be Fail or Ignore, not " + failurePolicy);
		}
		if (matchConditions.size() > 64) {
			throw new IllegalArgumentException("Webhook " + name + " has " + matchConditions.size()
					+ " match conditions; the API server takes at most 64");
		}
		Set<String> names = new HashSet<>();
		for (MatchCondition condition : matchConditions) {
			if (!names.add(condition.name())) {
				throw new IllegalArgumentException(
						"Webhook " + name + " has two match conditions named '" + condition.name() + "'");
			}
		}
	}

	/**
	 * The webhook of a kind's validator.
	 * @param kind the model class
	 * @param validator the validator's class, whose {@code validateDelete} override adds
	 * {@code DELETE} to the default operations
	 * @param declaration its {@link Webhook @Webhook}, or {@code null} for the defaults
	 * @return the webhook
	 * @throws IllegalArgumentException if the kind cannot be named without the API
	 * server, or the declaration is invalid
	 */
	static WebhookRegistration validating(Class<? extends KubernetesObject> kind, Class<?> validator,
			@Nullable Webhook declaration) {
		boolean checksDeletes = overridesValidateDelete(validator);
		return of(false, kind, AdmissionWebhook.validatingPath(kind), declaration, checksDeletes);
	}

	/**
	 * The webhook of a kind's defaulter.
	 * @param kind the model class
	 * @param declaration its {@link Webhook @Webhook}, or {@code null} for the defaults
	 * @return the webhook
	 * @throws IllegalArgumentException if the kind cannot be named without the API
	 * server, or the declaration is invalid
	 */
	static WebhookRegistration mutating(Class<? extends KubernetesObject> kind, @Nullable Webhook declaration) {
		return of(true, kind, AdmissionWebhook.mutatingPath(kind), declaration, false);
	}

	private static WebhookRegistration of(boolean mutating, Class<? extends KubernetesObject> kind, String path,
			@Nullable Webhook declaration, boolean checksDeletes) {
		KindResolver.DeclaredKind declared = KindResolver.declaredKind(kind);
		KindNames.Name names = DeclaredNames.INSTANCE.resolve(kind);
		List<String> operations = new ArrayList<>();
		if (declaration == null || declaration.operations().length == 0) {
			operations.add("CREATE");
			operations.add("UPDATE");
			if (checksDeletes) {
				operations.add("DELETE");
			}
		}
		else {
			for (Webhook.Operation operation : declaration.operations()) {
				if (!operations.contains(operation.name())) {
					operations.add(operation.name());
				}
			}
		}
		List<MatchCondition> conditions = new ArrayList<>();
		String name = (mutating ? "m" : "v") + declared.kind().toLowerCase(Locale.ROOT) + "."
				+ (names.group().contains(".") ? names.group()
						: (names.group().isEmpty() ? "core" : names.group()) + ".kubeboot.io");
		if (declaration != null) {
			for (Webhook.MatchCondition condition : declaration.matchConditions()) {
				if (!QUALIFIED_NAME.matcher(condition.name()).matches() || condition.name().length() > 63) {
					throw new IllegalArgumentException("@Webhook of " + name + ": the match condition name '"
							+ condition.name() + "' is no qualified name (letters, digits, '-', '_' and '.', "
							+ "at most 63, starting and ending with a letter or digit)");
				}
				if (condition.expression().isBlank()) {
					throw new IllegalArgumentException(
							"@Webhook of " + name + ": the match condition '" + condition.name() + "' is empty");
				}
				conditions.add(new MatchCondition(condition.name(), condition.expression().strip()));
			}
		}
		String failurePolicy = (declaration == null || declaration.failurePolicy() == Webhook.FailurePolicy.FAIL)
				? "Fail" : "Ignore";
		int timeout = (declaration != null) ? declaration.timeoutSeconds() : DEFAULT_TIMEOUT_SECONDS;
		List<LabelSelectors.Requirement> namespaces = (declaration != null)
				? LabelSelectors.parse(declaration.namespaceSelector(), "@Webhook of " + name + ": namespaceSelector")
				: List.of();
		List<LabelSelectors.Requirement> objects = (declaration != null)
				? LabelSelectors.parse(declaration.objectSelector(), "@Webhook of " + name + ": objectSelector")
				: List.of();
		return new WebhookRegistration(mutating, name, path, names.group(), declared.version(), names.plural(),
				names.namespaced(), operations, failurePolicy, timeout, conditions, namespaces, objects);
	}

	private static boolean overridesValidateDelete(Class<?> validator) {
		for (Class<?> type = validator; type != null && type != Object.class; type = type.getSuperclass()) {
			for (Method method : type.getDeclaredMethods()) {
				if (method.getName().equals("validateDelete") && method.getParameterCount() == 1 && !method.isBridge()
						&& !method.isSynthetic() && AdmissionValidator.class.isAssignableFrom(type)) {
					return true;
				}
			}
		}
		return false;
	}

	/**
	 * A condition for calling a webhook.
	 *
	 * @param name its name
	 * @param expression its CEL expression
	 */
	record MatchCondition(String name, String expression) {

		MatchCondition {
			Objects.requireNonNull(name, "name must not be null");
			Objects.requireNonNull(expression, "expression must not be null");
		}

	}

}
