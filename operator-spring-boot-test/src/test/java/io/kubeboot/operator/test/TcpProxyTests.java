package io.kubeboot.operator.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link TcpProxy#delay} and {@link TcpProxy#restore} between two plain sockets on
 * 127.0.0.1.
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
