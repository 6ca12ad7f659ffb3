package io.kubeboot.operator.cache;

/**
 * Thrown when the caches did not sync within the cache sync timeout and RBAC denies this
 * operator's identity a verb they need ({@code list} or {@code watch}). The message names
 * every denied verb, resource and namespace.
 */
public class CacheAccessDeniedException extends CacheSyncException {

	private static final long serialVersionUID = 1L;

	/**
	 * Creates an exception.
	 * @param message what is denied
	 */
	public CacheAccessDeniedException(String message) {
		super(message);
	}

}
