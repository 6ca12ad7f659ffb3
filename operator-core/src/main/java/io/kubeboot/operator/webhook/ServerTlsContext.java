package io.kubeboot.operator.webhook;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.security.GeneralSecurityException;
import java.security.KeyManagementException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;

import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

import org.jspecify.annotations.Nullable;

/**
 * A TLS server {@link SSLContext} that speaks TLS 1.3 and 1.2 only, whatever else the JDK
 * would enable: its default parameters, its engines and its server sockets offer no older
 * protocol. Everything else is the JDK's default TLS context, initialized with one key
 * manager and no trust managers (the API server presents no client certificate).
 */
final class ServerTlsContext {

	/** The protocols a webhook server speaks, newest first. */
	static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

	private ServerTlsContext() {
	}

	/**
	 * Creates a server context.
	 * @param keyManager chooses the certificate of each handshake
	 * @return a context whose sockets and engines speak TLS 1.3 and 1.2 only
	 */
	static SSLContext create(KeyManager keyManager) {
		try {
			SSLContext delegate = SSLContext.getInstance("TLS");
			delegate.init(new KeyManager[] { keyManager }, null, null);
			return new LimitedContext(delegate);
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("The JDK offers no TLS context: " + ex.getMessage(), ex);
		}
	}

	/**
	 * Keeps the protocols of {@link #PROTOCOLS}, in the given order; if none is left (the
	 * JDK was configured to offer only others), all of {@link #PROTOCOLS}.
	 */
	static String[] limit(String[] protocols) {
		String[] kept = Arrays.stream(protocols).filter(PROTOCOLS::contains).toArray(String[]::new);
		return (kept.length > 0) ? kept : PROTOCOLS.toArray(String[]::new);
	}

	private static final class LimitedContext extends SSLContext {

		LimitedContext(SSLContext delegate) {
			super(new LimitedSpi(delegate), delegate.getProvider(), delegate.getProtocol());
		}

	}

	private static final class LimitedSpi extends SSLContextSpi {

		private final SSLContext delegate;

		LimitedSpi(SSLContext delegate) {
			this.delegate = delegate;
		}

		@Override
		protected void engineInit(KeyManager @Nullable [] keyManagers, TrustManager @Nullable [] trustManagers,
				@Nullable SecureRandom random) throws KeyManagementException {
			throw new KeyManagementException(
					"A webhook server's TLS context is initialized with its serving " + "certificate already");
		}

		@Override
		protected SSLSocketFactory engineGetSocketFactory() {
			return this.delegate.getSocketFactory(); // a client's: no limits
		}

		@Override
		protected SSLServerSocketFactory engineGetServerSocketFactory() {
			return new LimitedServerSocketFactory(this.delegate.getServerSocketFactory());
		}

		@Override
		protected SSLEngine engineCreateSSLEngine() {
			return limited(this.delegate.createSSLEngine());
		}

		@Override
		protected SSLEngine engineCreateSSLEngine(String host, int port) {
			return limited(this.delegate.createSSLEngine(host, port));
		}

		private static SSLEngine limited(SSLEngine engine) {
			engine.setEnabledProtocols(limit(engine.getEnabledProtocols()));
			return engine;
		}

		@Override
		protected SSLSessionContext engineGetServerSessionContext() {
			return this.delegate.getServerSessionContext();
		}

		@Override
		protected SSLSessionContext engineGetClientSessionContext() {
			return this.delegate.getClientSessionContext();
		}

		@Override
		protected SSLParameters engineGetDefaultSSLParameters() {
			SSLParameters parameters = this.delegate.getDefaultSSLParameters();
			parameters.setProtocols(limit(parameters.getProtocols()));
			return parameters;
		}

		@Override
		protected SSLParameters engineGetSupportedSSLParameters() {
			SSLParameters parameters = this.delegate.getSupportedSSLParameters();
			parameters.setProtocols(limit(parameters.getProtocols()));
			return parameters;
		}

	}

	private static final class LimitedServerSocketFactory extends SSLServerSocketFactory {

		private final SSLServerSocketFactory delegate;

		LimitedServerSocketFactory(SSLServerSocketFactory delegate) {
			this.delegate = delegate;
		}

		@Override
		public ServerSocket createServerSocket() throws IOException {
			return limited(this.delegate.createServerSocket());
		}

		@Override
		public ServerSocket createServerSocket(int port) throws IOException {
			return limited(this.delegate.createServerSocket(port));
		}

		@Override
		public ServerSocket createServerSocket(int port, int backlog) throws IOException {
			return limited(this.delegate.createServerSocket(port, backlog));
		}

		@Override
		public ServerSocket createServerSocket(int port, int backlog, InetAddress address) throws IOException {
			return limited(this.delegate.createServerSocket(port, backlog, address));
		}

		private static ServerSocket limited(ServerSocket socket) {
			SSLServerSocket tls = (SSLServerSocket) socket;
			tls.setEnabledProtocols(limit(tls.getEnabledProtocols()));
			return tls;
		}

		@Override
		public String[] getDefaultCipherSuites() {
			return this.delegate.getDefaultCipherSuites();
		}

		@Override
		public String[] getSupportedCipherSuites() {
			return this.delegate.getSupportedCipherSuites();
		}

	}

}
