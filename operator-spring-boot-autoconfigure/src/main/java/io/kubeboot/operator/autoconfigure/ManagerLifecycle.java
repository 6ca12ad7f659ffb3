package io.kubeboot.operator.autoconfigure;

import java.util.concurrent.CountDownLatch;

import io.kubeboot.operator.client.ApiServerUnreachableException;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.manager.ManagerState;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.SmartLifecycle;

/**
 * Starts and stops the {@link Manager} with the application context.
 * <p>
 * It starts in {@link #PHASE}, after the web server (so health probes answer while the
 * caches sync), and {@link #start()} blocks until the caches have synced, so a kind that
 * is not served or a cache that cannot sync fails the application's start-up. It stops
 * before the web server's graceful shutdown, asynchronously, within the manager's
 * graceful shutdown timeout; the auto-configuration raises Spring's shutdown timeout for
 * this phase to match. While the manager runs, a non-daemon thread keeps the JVM alive.
 */
public class ManagerLifecycle implements SmartLifecycle, DisposableBean {

	/**
	 * The phase of the manager: later than the web server's start, earlier than its
	 * graceful shutdown.
	 */
	public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;

	private final Manager manager;

	private final boolean autoStartup;

	private final boolean keepAlive;

	private volatile @Nullable CountDownLatch keepAliveLatch;

	private volatile @Nullable String server;

	private volatile @Nullable String serverOrigin;

	/**
	 * Creates the lifecycle.
	 * @param manager the manager
	 * @param autoStartup whether to start with the application context
	 * @param keepAlive whether to keep the JVM alive while the manager runs
	 */
	public ManagerLifecycle(Manager manager, boolean autoStartup, boolean keepAlive) {
		this.manager = manager;
		this.autoStartup = autoStartup;
		this.keepAlive = keepAlive;
	}

	/**
	 * Sets where the URL of the application's API server came from, so that a start-up
	 * that cannot reach it says so.
	 * @param server the URL of the {@code ApiClient} bean
	 * @param origin where it came from, such as {@code KUBECONFIG=/path, context x}
	 */
	void serverOrigin(String server, String origin) {
		this.server = server;
		this.serverOrigin = origin;
	}

	@Override
	public void start() {
		try {
			this.manager.start();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while starting the operator manager", ex);
		}
		catch (ApiServerUnreachableException ex) {
			String origin = this.serverOrigin;
			// a manager of the application's own may talk to another server
			throw (origin != null && ex.server().equals(this.server)) ? ex.withServerOrigin(origin) : ex;
		}
		if (this.keepAlive) {
			CountDownLatch latch = new CountDownLatch(1);
			Thread thread = new Thread(() -> {
				try {
					latch.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}, "operator-keep-alive");
			thread.setDaemon(false);
			thread.start();
			this.keepAliveLatch = latch;
		}
	}

	@Override
	public void stop() {
		this.manager.stop();
		releaseKeepAlive();
	}

	@Override
	public void stop(Runnable callback) {
		Thread stopper = new Thread(() -> {
			try {
				stop();
			}
			finally {
				callback.run();
			}
		}, "operator-manager-stop");
		stopper.start();
	}

	/**
	 * Stops the manager if it still runs and releases the keep-alive thread, also when
	 * the manager failed (then Spring does not call {@link #stop()}).
	 */
	@Override
	public void destroy() {
		stop();
	}

	private void releaseKeepAlive() {
		CountDownLatch latch = this.keepAliveLatch;
		if (latch != null) {
			latch.countDown();
			this.keepAliveLatch = null;
		}
	}

	@Override
	public boolean isRunning() {
		ManagerState state = this.manager.state();
		return state == ManagerState.STARTING || state == ManagerState.RUNNING;
	}

	@Override
	public boolean isAutoStartup() {
		return this.autoStartup;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

}
