package io.kubeboot.operator.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A TCP proxy on 127.0.0.1 for fault tests: point one client at it instead of the API
 * server and {@link #cut()} the connection to simulate a crashed or partitioned replica
 * while other clients keep working. While cut, open connections are closed and new ones
 * are closed as soon as they are accepted; while hung, every connection is accepted but
 * never answered. Thread-safe.
 */
public final class TcpProxy implements AutoCloseable {

	private final InetSocketAddress target;

	private final ServerSocket server;

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private final Set<AtomicBoolean> connections = ConcurrentHashMap.newKeySet();

	private volatile boolean cut;

	private volatile boolean hung;

	private volatile boolean closed;

	private TcpProxy(InetSocketAddress target) throws IOException {
		this.target = target;
		this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread acceptor = new Thread(this::accept, "tcp-proxy-" + this.server.getLocalPort());
		acceptor.setDaemon(true);
		acceptor.start();
	}

	/**
	 * Starts a proxy to the host and port of a URL.
	 * @param url the target, such as {@link ControlPlane#apiServerUrl()}
	 * @return the running proxy
	 */
	public static TcpProxy to(URI url) {
		try {
			return new TcpProxy(new InetSocketAddress(url.getHost(), url.getPort()));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Returns the port the proxy listens on.
	 * @return the port on 127.0.0.1
	 */
	public int port() {
		return this.server.getLocalPort();
	}

	/**
	 * Returns the proxy's URL with the scheme of the target.
	 * @param scheme for example {@code https}
	 * @return the URL
	 */
	public String url(String scheme) {
		return scheme + "://127.0.0.1:" + port();
	}

	/**
	 * Closes every open connection and refuses new ones until {@link #restore()}.
	 */
	public void cut() {
		this.cut = true;
		this.sockets.forEach(TcpProxy::closeQuietly);
		this.sockets.clear();
	}

	/**
	 * Makes every open connection go silent without closing it, as a half-open TCP
	 * connection after a network failure does: bytes in both directions are dropped and
	 * neither side sees the other close. New connections are forwarded as usual.
	 */
	public void stall() {
		this.connections.forEach((stalled) -> stalled.set(true));
	}

	/**
	 * Makes every open and every new connection go silent until {@link #restore()}: new
	 * connections are accepted but nothing is forwarded in either direction, as with a
	 * server that accepts connections but never answers. Unlike {@link #stall()}, a
	 * client cannot escape by opening a new connection.
	 */
	public void hang() {
		this.hung = true;
		stall();
	}

	/**
	 * Forwards new connections again, after {@link #cut()} or {@link #hang()}.
	 * Connections that were stalled or hung stay silent.
	 */
	public void restore() {
		this.cut = false;
		this.hung = false;
	}

	@Override
	public void close() {
		this.closed = true;
		cut();
		closeQuietly(this.server);
	}

	private void accept() {
		while (!this.closed) {
			try {
				Socket client = this.server.accept();
				if (this.cut) {
					closeQuietly(client);
					continue;
				}
				Socket upstream = new Socket(this.target.getAddress(), this.target.getPort());
				this.sockets.add(client);
				this.sockets.add(upstream);
				AtomicBoolean stalled = new AtomicBoolean();
				this.connections.add(stalled);
				if (this.hung) {
					// read after registering: a concurrent hang() stalls it either way
					stalled.set(true);
				}
				pump(client, upstream, stalled);
				pump(upstream, client, stalled);
			}
			catch (IOException ex) {
				// closed, or the target refused: the client sees a closed connection
			}
		}
	}

	private void pump(Socket from, Socket to, AtomicBoolean stalled) {
		Thread thread = new Thread(() -> {
			byte[] buffer = new byte[16 * 1024];
			try {
				InputStream in = from.getInputStream();
				OutputStream out = to.getOutputStream();
				int read;
				while ((read = in.read(buffer)) >= 0) {
					if (!stalled.get()) {
						out.write(buffer, 0, read);
						out.flush();
					}
				}
			}
			catch (IOException ex) {
				// either side closed
			}
			finally {
				if (!stalled.get() || this.closed) {
					closeQuietly(from);
					closeQuietly(to);
					this.sockets.remove(from);
					this.sockets.remove(to);
				}
			}
		}, "tcp-proxy-pump");
		thread.setDaemon(true);
		thread.start();
	}

	private static void closeQuietly(AutoCloseable closeable) {
		try {
			closeable.close();
		}
		catch (Exception ex) {
			// nothing to do
		}
	}

}
