package io.kubeboot.operator.cache;

/**
 * Thrown when the caches did not fill within the cache sync timeout. The message names
 * every informer that is not synced and the last error its list or watch saw (for example
 * a {@code 403 Forbidden} naming the verb, resource and namespace RBAC refused).
 */
public class CacheSyncException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	/**
	 * Creates an exception.
	 * @param message what did not sync and why
	 */
	public CacheSyncException(String message) {
		super(message);
	}

}
