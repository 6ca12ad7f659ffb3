package io.kubeboot.operator.cache;

import java.io.IOException;
import java.util.Iterator;

import io.kubernetes.client.util.Watch;
import io.kubernetes.client.util.Watchable;

/**
 * A watch that reports when it ends, so that the time an informer spends without a watch
 * (the API server restarting, the network gone) is visible to readiness even while no
 * request fails outright.
 */
final class ObservedWatch<T> implements Watchable<T> {

	private final Watchable<T> delegate;

	private final java.lang.Runnable onEnd;

	ObservedWatch(Watchable<T> delegate, java.lang.Runnable onEnd) {
		this.delegate = delegate;
		this.onEnd = onEnd;
	}

	@Override
	public boolean hasNext() {
		try {
			boolean next = this.delegate.hasNext();
			if (!next) {
				this.onEnd.run();
			}
			return next;
		}
		catch (RuntimeException ex) {
			this.onEnd.run();
			throw ex;
		}
	}

	@Override
	public Watch.Response<T> next() {
		return this.delegate.next();
	}

	@Override
	public Iterator<Watch.Response<T>> iterator() {
		return this;
	}

	@Override
	public void close() throws IOException {
		this.delegate.close();
	}

}
