package io.kubeboot.operator.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link TcpProxy#delay}, {@link TcpProxy#cut} and {@link TcpProxy#restore} between plain
 * sockets on 127.0.0.1.
 */
class TcpProxyTests {

	private ServerSocket target;

	private TcpProxy proxy;

	private Socket client;

	private Socket accepted;

	@BeforeEach
	void connect() throws IOException {
		this.target = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
		this.proxy = TcpProxy.to(URI.create("tcp://127.0.0.1:" + this.target.getLocalPort()));
		this.client = new Socket(InetAddress.getLoopbackAddress(), this.proxy.port());
		this.accepted = this.target.accept();
	}

	@AfterEach
	void close() throws IOException {
		this.client.close();
		this.accepted.close();
		this.proxy.close();
		this.target.close();
	}

	@Test
	void whatTheTargetSendsArrivesNoSoonerThanTheDelay() throws Exception {
		this.proxy.delay(Duration.ofMillis(300));
		long sent = System.nanoTime();
		send("hello");
		assertThat(receive(5)).isEqualTo("hello");
		assertThat(Duration.ofNanos(System.nanoTime() - sent)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
	}

	@Test
	void restoreForwardsWhatIsHeldAtOnce() throws Exception {
		this.proxy.delay(Duration.ofHours(1));
		send("held");
		CompletableFuture<String> received = CompletableFuture.supplyAsync(() -> {
			try {
				return receive(4);
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex);
			}
		});
		this.proxy.restore();
		assertThat(received.get(30, TimeUnit.SECONDS)).isEqualTo("held");
	}

	@Test
	void whatTheClientSendsIsNotDelayed() throws Exception {
		this.proxy.delay(Duration.ofHours(1));
		OutputStream out = this.client.getOutputStream();
		out.write("ping".getBytes(StandardCharsets.US_ASCII));
		out.flush();
		this.accepted.setSoTimeout(30_000);
		assertThat(new String(this.accepted.getInputStream().readNBytes(4), StandardCharsets.US_ASCII))
			.isEqualTo("ping");
	}

	@Test
	void aConnectionTheTargetRefusesIsClosed() throws Exception {
		this.target.close();
		try (Socket refused = new Socket(InetAddress.getLoopbackAddress(), this.proxy.port())) {
			refused.setSoTimeout(10_000);
			assertThat(refused.getInputStream().read()).isEqualTo(-1);
		}
	}

	@Test
	void noConnectionOpenedWhileCuttingOutlivesTheCut() throws Exception {
		List<Socket> upstream = new CopyOnWriteArrayList<>();
		try (ServerSocket busyTarget = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
				TcpProxy busyProxy = TcpProxy.to(URI.create("tcp://127.0.0.1:" + busyTarget.getLocalPort()))) {
			Thread acceptor = new Thread(() -> {
				try {
					while (true) {
						upstream.add(busyTarget.accept());
					}
				}
				catch (IOException ex) {
					// the target closed
				}
			});
			acceptor.start();
			for (int round = 0; round < 20; round++) {
				List<Socket> opened = new CopyOnWriteArrayList<>();
				AtomicBoolean cutting = new AtomicBoolean();
				Thread opener = new Thread(() -> {
					// connections keep arriving until just after the cut
					while (!cutting.get()) {
						try {
							opened.add(new Socket(InetAddress.getLoopbackAddress(), busyProxy.port()));
							// no faster than the proxy accepts, lest its backlog fill
							LockSupport.parkNanos(300_000);
						}
						catch (IOException ex) {
							return;
						}
					}
				});
				opener.start();
				// cut while connections keep arriving
				long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
				while (opened.size() < 10 && opener.isAlive() && System.nanoTime() < deadline) {
					Thread.onSpinWait();
				}
				busyProxy.cut();
				cutting.set(true);
				opener.join();
				for (Socket socket : opened) {
					try (socket) {
						socket.setSoTimeout(10_000);
						assertThat(socket.getInputStream().read()).as("a connection opened while cutting")
							.isEqualTo(-1);
					}
					catch (SocketTimeoutException ex) {
						throw new AssertionError("a connection opened while cutting outlived the cut", ex);
					}
					catch (IOException ex) {
						// reset: closed as well
					}
				}
				busyProxy.restore();
			}
		}
		finally {
			for (Socket socket : upstream) {
				socket.close();
			}
		}
	}

	private void send(String text) throws IOException {
		OutputStream out = this.accepted.getOutputStream();
		out.write(text.getBytes(StandardCharsets.US_ASCII));
		out.flush();
	}

	private String receive(int length) throws IOException {
		this.client.setSoTimeout(30_000);
		InputStream in = this.client.getInputStream();
		return new String(in.readNBytes(length), StandardCharsets.US_ASCII);
	}

}
