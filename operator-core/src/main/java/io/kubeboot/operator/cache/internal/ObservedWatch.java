package io.kubeboot.operator.cache.internal;

import java.io.IOException;
import java.util.Iterator;

import io.kubernetes.client.util.Watch;
import io.kubernetes.client.util.Watchable;

/**
 * A watch that reports its events and its end, so that the time an informer spends
 * without a watch (the API server restarting, the network gone) is visible to readiness
 * even while no request fails outright, and a watch that stalls silently is noticed by
 * the watchdog.
 */
final class ObservedWatch<T> implements Watchable<T> {

	private final Watchable<T> delegate;

	private final java.lang.Runnable onEvent;

	private final java.lang.Runnable onEnd;

	ObservedWatch(Watchable<T> delegate, java.lang.Runnable onEvent, java.lang.Runnable onEnd) {
		this.delegate = delegate;
		this.onEvent = onEvent;
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
		Watch.Response<T> response = this.delegate.next();
		this.onEvent.run();
		return response;
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
