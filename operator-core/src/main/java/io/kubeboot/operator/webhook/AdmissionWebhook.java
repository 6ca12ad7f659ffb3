package io.kubeboot.operator.webhook;

import java.util.Locale;
import java.util.Objects;

import com.google.gson.Gson;
import io.kubeboot.operator.client.internal.KindResolver;
import io.kubeboot.operator.client.internal.ModelReading;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;
import org.jspecify.annotations.Nullable;

/**
 * Registers the admission webhooks of one kind on a {@link WebhookServer}, the
 * counterpart of controller-runtime's
 * {@code ctrl.NewWebhookManagedBy(mgr).For(&Bucket{}).WithValidator(v).WithDefaulter(d)}:
 *
 * <pre class="code">
 * AdmissionWebhook.forKind(server, StorageBucket.class)
 * 	.withValidator(new StorageBucketValidator())
 * 	.withDefaulter((bucket) -&gt; ...)
 * 	.complete();
 * </pre>
 *
 * The paths are kubebuilder's: {@code /validate-<group>-<version>-<kind>} and
 * {@code /mutate-<group>-<version>-<kind>}, the group's dots turned into dashes and the
 * kind lower-cased, such as {@code /validate-storage-example-com-v1alpha1-storagebucket}.
 * Point a {@code ValidatingWebhookConfiguration} or {@code MutatingWebhookConfiguration}
 * at them.
 *
 * @param <T> the model type
 */
public final class AdmissionWebhook<T extends KubernetesObject> {

	private final WebhookServer server;

	private final Class<T> type;

	private @Nullable AdmissionValidator<T> validator;

	private @Nullable Defaulter<T> defaulter;

	private AdmissionWebhook(WebhookServer server, Class<T> type) {
		this.server = server;
		this.type = type;
	}

	/**
	 * Starts registering the webhooks of a kind.
	 * @param <T> the model type
	 * @param server the server
	 * @param type the model class: a client-java model or a {@code @KubernetesKind} class
	 * @return the builder
	 * @throws IllegalArgumentException if the class declares no Kubernetes kind
	 */
	public static <T extends KubernetesObject> AdmissionWebhook<T> forKind(WebhookServer server, Class<T> type) {
		Objects.requireNonNull(server, "server must not be null");
		KindResolver.declaredKind(type);
		return new AdmissionWebhook<>(server, type);
	}

	/**
	 * Validates the kind's objects.
	 * @param validator the validator
	 * @return this builder
	 */
	public AdmissionWebhook<T> withValidator(AdmissionValidator<T> validator) {
		this.validator = Objects.requireNonNull(validator, "validator must not be null");
		return this;
	}

	/**
	 * Sets defaults on the kind's objects.
	 * @param defaulter the defaulter
	 * @return this builder
	 */
	public AdmissionWebhook<T> withDefaulter(Defaulter<T> defaulter) {
		this.defaulter = Objects.requireNonNull(defaulter, "defaulter must not be null");
		return this;
	}

	/**
	 * Registers the webhooks on the server.
	 * @return the paths they are served on
	 * @throws IllegalStateException if neither a validator nor a defaulter was given
	 * @throws IllegalArgumentException if the kind has a validator (or a defaulter) on
	 * the server already
	 */
	public Paths complete() {
		if (this.validator == null && this.defaulter == null) {
			throw new IllegalStateException("An admission webhook for " + this.type.getSimpleName()
					+ " needs a validator, a defaulter or both");
		}
		// the API server's objects, built-in kinds' newer fields included
		Gson gson = ModelReading.gson(new JSON().getGson());
		String validating = null;
		String mutating = null;
		if (this.validator != null) {
			validating = validatingPath(this.type);
			String path = validating;
			register(validating, "validator", AdmissionHandler.validating(this.type, gson, this.validator,
					() -> this.server.metrics().panicked(path)));
		}
		if (this.defaulter != null) {
			mutating = mutatingPath(this.type);
			String path = mutating;
			register(mutating, "defaulter", AdmissionHandler.mutating(this.type, gson, this.defaulter,
					() -> this.server.metrics().panicked(path)));
		}
		return new Paths(validating, mutating);
	}

	private void register(String path, String what, AdmissionHandler<T> handler) {
		try {
			this.server.register(path, handler);
		}
		catch (IllegalArgumentException ex) {
			KindResolver.DeclaredKind kind = KindResolver.declaredKind(this.type);
			throw new IllegalArgumentException("A " + what + " for " + kind.kind() + " is already registered at " + path
					+ ": a kind has one " + what + "; combine them into one", ex);
		}
	}

	/**
	 * Returns the path of a kind's validating webhook.
	 * @param type the model class
	 * @return the path, such as
	 * {@code /validate-storage-example-com-v1alpha1-storagebucket}
	 */
	public static String validatingPath(Class<? extends KubernetesObject> type) {
		return "/validate-" + pathSuffix(type);
	}

	/**
	 * Returns the path of a kind's mutating webhook.
	 * @param type the model class
	 * @return the path, such as
	 * {@code /mutate-storage-example-com-v1alpha1-storagebucket}
	 */
	public static String mutatingPath(Class<? extends KubernetesObject> type) {
		return "/mutate-" + pathSuffix(type);
	}

	private static String pathSuffix(Class<? extends KubernetesObject> type) {
		KindResolver.DeclaredKind kind = KindResolver.declaredKind(type);
		String group = (kind.group() != null) ? kind.group().replace('.', '-') : "";
		return group + "-" + kind.version() + "-" + kind.kind().toLowerCase(Locale.ROOT);
	}

	/**
	 * Where a kind's webhooks are served.
	 *
	 * @param validating the validating webhook's path, {@code null} without a validator
	 * @param mutating the mutating webhook's path, {@code null} without a defaulter
	 */
	public record Paths(@Nullable String validating, @Nullable String mutating) {
	}

}
