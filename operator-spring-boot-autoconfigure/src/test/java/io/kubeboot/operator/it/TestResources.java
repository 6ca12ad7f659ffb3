package io.kubeboot.operator.it;

import java.util.Deque;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.test.TcpProxy;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What an integration test starts and must not leave running, released after the test:
 * the {@link Manager managers} it builds, stopped in the order they were registered, then
 * what it opens ({@link TcpProxy proxies} to the API server and any other
 * {@link AutoCloseable}), closed last registered first. The managers stop before the
 * proxies their requests go through close.
 * <p>
 * Registered on an instance field with
 * {@link org.junit.jupiter.api.extension.RegisterExtension @RegisterExtension}: its
 * callback runs after the test class's own {@code @AfterEach} methods (which can still
 * release what a manager waits for before it is stopped) and before the test's namespace
 * is deleted. A failure to stop or close one does not keep the others running: it is
 * thrown once all are released.
 */
final class TestResources implements AfterEachCallback {

	private final List<Manager> managers = new CopyOnWriteArrayList<>();

	private final Deque<AutoCloseable> closeables = new ConcurrentLinkedDeque<>();

	/**
	 * Registers a manager, to be stopped after the test.
	 * @param manager the manager, started or not
	 * @return the manager
	 */
	Manager manager(Manager manager) {
		this.managers.add(manager);
		return manager;
	}

	/**
	 * Registers something to close after the test, once the managers stopped.
	 * @param <T> its type
	 * @param closeable a proxy, an application context, ...
	 * @return the closeable
	 */
	<T extends AutoCloseable> T closeable(T closeable) {
		this.closeables.push(closeable);
		return closeable;
	}

	@Override
	public void afterEach(ExtensionContext context) throws Exception {
		Exception failure = null;
		for (Manager manager : this.managers) {
			try {
				manager.stop();
			}
			catch (RuntimeException ex) {
				failure = addTo(failure, ex);
			}
		}
		this.managers.clear();
		AutoCloseable closeable;
		while ((closeable = this.closeables.poll()) != null) {
			try {
				closeable.close();
			}
			catch (Exception ex) {
				failure = addTo(failure, ex);
			}
		}
		if (failure != null) {
			throw failure;
		}
	}

	private static Exception addTo(Exception failure, Exception ex) {
		if (failure == null) {
			return ex;
		}
		failure.addSuppressed(ex);
		return failure;
	}

}
