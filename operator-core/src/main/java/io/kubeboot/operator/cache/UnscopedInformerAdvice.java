package io.kubeboot.operator.cache;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Words what narrows an informer that caches every Secret, ConfigMap, Pod or Event of the
 * cluster, for the WARN the manager logs as the informer starts
 * ({@link UnscopedInformerPolicy}): in the terms the application declared the informer
 * with, such as the annotation attribute that created it and the property that
 * acknowledges it. By default the WARN names the builder methods. Called once per
 * informer warned of, on the thread that starts it.
 */
@FunctionalInterface
public interface UnscopedInformerAdvice {

	/** The builder methods, as the WARN names them by default. */
	UnscopedInformerAdvice BUILDER = (informer, readers, fieldSelector) -> null;

	/**
	 * Returns what narrows an informer.
	 * @param informer the informer
	 * @param readers the names of the runnables that read it, such as
	 * {@code controller-app}
	 * @param fieldSelector a field selector that narrows its kind, such as
	 * {@code type!=helm.sh/release.v1} for Secrets; {@code null} for a kind without one
	 * @return the advice, or {@code null} to name the builder methods
	 */
	@Nullable String advise(InformerKey informer, List<String> readers, @Nullable String fieldSelector);

}
