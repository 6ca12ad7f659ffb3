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
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A TCP proxy on 127.0.0.1 for fault tests: point one client at it instead of the API
 * server and {@link #cut()} the connection to simulate a crashed or partitioned replica
 * while other clients keep working. While cut, open connections are closed and new ones
 * are closed as soon as they are accepted; while hung, every connection is accepted but
 * never answered; while delayed, what the target sends arrives late. Thread-safe.
 */
public final class TcpProxy implements AutoCloseable {

	private final InetSocketAddress target;

	private final ServerSocket server;

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private final Set<AtomicBoolean> connections = ConcurrentHashMap.newKeySet();

	private volatile boolean cut;

	private volatile boolean hung;

	private volatile boolean closed;

	private volatile long delayNanos;

	private final Object delayLifted = new Object();

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
		// under the lock that registers new connections: one accepted while cutting is
		// either closed here or refused by register
		synchronized (this.sockets) {
			this.cut = true;
			this.sockets.forEach(TcpProxy::closeQuietly);
			this.sockets.clear();
		}
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
	 * Holds every chunk the target sends, on open and new connections, for a while before
	 * forwarding it, as a slow or distant API server would answer: a response arrives
	 * that much later (a TLS handshake, which waits for several answers, a multiple of
	 * it), while chunks that follow each other are not spaced out. Until
	 * {@link #restore()}, which forwards what is held at once, or a delay of zero.
	 * @param delay how long each chunk is held
	 */
	public void delay(Duration delay) {
		synchronized (this.delayLifted) {
			this.delayNanos = delay.toNanos();
			this.delayLifted.notifyAll();
		}
	}

	/**
	 * Forwards new connections again, after {@link #cut()} or {@link #hang()}, and
	 * without delay. Connections that were stalled or hung stay silent.
	 */
	public void restore() {
		this.cut = false;
		this.hung = false;
		synchronized (this.delayLifted) {
			this.delayNanos = 0;
			this.delayLifted.notifyAll();
		}
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
				if (!register(client)) {
					continue;
				}
				Socket upstream = connect(client);
				if (upstream == null || !register(upstream)) {
					closeQuietly(client);
					continue;
				}
				AtomicBoolean stalled = new AtomicBoolean();
				this.connections.add(stalled);
				if (this.hung) {
					// read after registering: a concurrent hang() stalls it either way
					stalled.set(true);
				}
				pump(client, upstream, stalled, false);
				pump(upstream, client, stalled, true);
			}
			catch (IOException ex) {
				// the proxy closed
			}
		}
	}

	/**
	 * Connects to the target, or closes the client's connection when the target refuses,
	 * as a client connecting to the target directly would see.
	 * @return the connection to the target, {@code null} if refused
	 */
	private Socket connect(Socket client) {
		try {
			return new Socket(this.target.getAddress(), this.target.getPort());
		}
		catch (IOException ex) {
			this.sockets.remove(client);
			closeQuietly(client);
			return null;
		}
	}

	/**
	 * Keeps a socket to close on {@link #cut()}, or closes it at once while cut.
	 */
	private boolean register(Socket socket) {
		synchronized (this.sockets) {
			if (this.cut) {
				closeQuietly(socket);
				return false;
			}
			this.sockets.add(socket);
			return true;
		}
	}

	/**
	 * Forwards what one side sends to the other: what the client sends at once, what the
	 * target sends through a queue, each chunk stamped when it arrived and forwarded once
	 * the delay set then has passed (so a delay adds latency without throttling, and
	 * {@link #restore()} forwards what is held at once).
	 */
	private void pump(Socket from, Socket to, AtomicBoolean stalled, boolean fromTarget) {
		BlockingQueue<Chunk> held = new LinkedBlockingQueue<>();
		Thread reader = new Thread(() -> {
			byte[] buffer = new byte[16 * 1024];
			try {
				InputStream in = from.getInputStream();
				OutputStream out = to.getOutputStream();
				int read;
				while ((read = in.read(buffer)) >= 0) {
					if (fromTarget) {
						held.add(new Chunk(Arrays.copyOf(buffer, read), System.nanoTime() + this.delayNanos));
					}
					else if (!stalled.get()) {
						out.write(buffer, 0, read);
						out.flush();
					}
				}
			}
			catch (IOException ex) {
				// either side closed
			}
			finally {
				if (fromTarget) {
					held.add(Chunk.END);
				}
				else {
					closeBoth(from, to, stalled);
				}
			}
		}, "tcp-proxy-pump");
		reader.setDaemon(true);
		reader.start();
		if (fromTarget) {
			Thread writer = new Thread(() -> forward(held, from, to, stalled), "tcp-proxy-delay");
			writer.setDaemon(true);
			writer.start();
		}
	}

	private void forward(BlockingQueue<Chunk> held, Socket from, Socket to, AtomicBoolean stalled) {
		try {
			OutputStream out = to.getOutputStream();
			while (true) {
				Chunk chunk = held.take();
				if (chunk == Chunk.END) {
					return;
				}
				awaitDue(chunk.dueNanos());
				if (!stalled.get()) {
					out.write(chunk.bytes());
					out.flush();
				}
			}
		}
		catch (IOException ex) {
			// either side closed
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			closeBoth(from, to, stalled);
		}
	}

	/**
	 * Waits until a chunk is due, or the delay was lifted.
	 */
	private void awaitDue(long dueNanos) throws InterruptedException {
		synchronized (this.delayLifted) {
			long left;
			while (this.delayNanos > 0 && (left = dueNanos - System.nanoTime()) > 0) {
				this.delayLifted.wait(Math.max(1, left / 1_000_000));
			}
		}
	}

	private void closeBoth(Socket from, Socket to, AtomicBoolean stalled) {
		if (!stalled.get() || this.closed) {
			closeQuietly(from);
			closeQuietly(to);
			this.sockets.remove(from);
			this.sockets.remove(to);
		}
	}

	private record Chunk(byte[] bytes, long dueNanos) {

		static final Chunk END = new Chunk(new byte[0], 0);

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
