package io.kubeboot.operator.webhook;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

import org.jspecify.annotations.Nullable;

/**
 * A server key manager that serves whichever key material was set last: each TLS
 * handshake chooses the current material, so a rotated certificate reaches every new
 * connection while established ones keep theirs.
 * <p>
 * The alias a handshake chooses names the material's generation, and the key and chain it
 * asks for next come from that same generation even if a rotation happened in between:
 * the current and the previous material are kept. It offers no client certificates.
 */
final class CurrentKeyManager extends X509ExtendedKeyManager {

	private static final String ALIAS_PREFIX = "webhook-serving-";

	private final Object lock = new Object();

	private volatile Generation current;

	private volatile @Nullable Generation previous;

	CurrentKeyManager(KeyMaterial initial) {
		this.current = new Generation(ALIAS_PREFIX + 1, 1, initial);
	}

	/**
	 * Serves new material from the next handshake on.
	 * @param material the material to serve
	 */
	void set(KeyMaterial material) {
		synchronized (this.lock) {
			Generation last = this.current;
			long number = last.number() + 1;
			this.previous = last;
			this.current = new Generation(ALIAS_PREFIX + number, number, material);
		}
	}

	/**
	 * Returns the material served to new handshakes.
	 * @return the current material
	 */
	KeyMaterial current() {
		return this.current.material();
	}

	@Override
	public String @Nullable [] getServerAliases(String keyType, Principal @Nullable [] issuers) {
		String alias = serverAlias(keyType);
		return (alias != null) ? new String[] { alias } : null;
	}

	@Override
	public @Nullable String chooseServerAlias(String keyType, Principal @Nullable [] issuers, @Nullable Socket socket) {
		return serverAlias(keyType);
	}

	@Override
	public @Nullable String chooseEngineServerAlias(String keyType, Principal @Nullable [] issuers,
			@Nullable SSLEngine engine) {
		return serverAlias(keyType);
	}

	private @Nullable String serverAlias(@Nullable String keyType) {
		Generation served = this.current;
		return (keyType != null && keyType.equalsIgnoreCase(keyType(served.material().privateKey()))) ? served.alias()
				: null;
	}

	/**
	 * The key type JSSE asks for with a key: "RSA", "EC", "EdDSA", ...
	 */
	private static String keyType(PrivateKey key) {
		String algorithm = key.getAlgorithm();
		return switch (algorithm) {
			case "Ed25519", "Ed448" -> "EdDSA";
			default -> algorithm;
		};
	}

	@Override
	public X509Certificate @Nullable [] getCertificateChain(@Nullable String alias) {
		KeyMaterial material = material(alias);
		return (material != null) ? material.chain().toArray(X509Certificate[]::new) : null;
	}

	@Override
	public @Nullable PrivateKey getPrivateKey(@Nullable String alias) {
		KeyMaterial material = material(alias);
		return (material != null) ? material.privateKey() : null;
	}

	private @Nullable KeyMaterial material(@Nullable String alias) {
		Generation served = this.current;
		if (served.alias().equals(alias)) {
			return served.material();
		}
		Generation before = this.previous;
		return (before != null && before.alias().equals(alias)) ? before.material() : null;
	}

	@Override
	public String @Nullable [] getClientAliases(String keyType, Principal @Nullable [] issuers) {
		return null;
	}

	@Override
	public @Nullable String chooseClientAlias(String @Nullable [] keyTypes, Principal @Nullable [] issuers,
			@Nullable Socket socket) {
		return null;
	}

	@Override
	public @Nullable String chooseEngineClientAlias(String @Nullable [] keyTypes, Principal @Nullable [] issuers,
			@Nullable SSLEngine engine) {
		return null;
	}

	private record Generation(String alias, long number, KeyMaterial material) {

	}

}
