package io.kubeboot.sample.storage;

import java.net.InetAddress;
import java.net.URI;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How {@link Endpoints} reads and shows bucket endpoints.
 */
class EndpointsTests {

	@ParameterizedTest
	@CsvSource(delimiter = '|',
			value = { "https://objects.example.com/photos/health | https://objects.example.com/photos/health",
					"https://user:hunter2@objects.example.com:9000/photos/health?X-Amz-Signature=secret#frag"
							+ " | https://objects.example.com:9000/photos/health",
					"http://127.0.0.1:8080/bucket?X-Amz-Credential=AKIA%2F20240101&X-Amz-Signature=secret"
							+ " | http://127.0.0.1:8080/bucket",
					"http://token@objects.example.com | http://objects.example.com",
					"http://objects.example.com?sig=secret | http://objects.example.com",
					"http://[fd00:ec2::254]:80/latest?x=secret | http://[fd00:ec2::254]:80/latest",
					"HTTPS://objects.example.com/a%20b | HTTPS://objects.example.com/a%20b" })
	void redactionKeepsSchemeHostPortAndPathOnly(String endpoint, String shown) {
		assertThat(Endpoints.redact(Endpoints.parse(endpoint))).isEqualTo(shown);
	}

	@ParameterizedTest
	@ValueSource(strings = { "ftp://objects.example.com/x", "/relative/path", "objects.example.com", "http://",
			"http://:8080/health", "https://user:pass word@host/" })
	void onlyAbsoluteHttpUrlsWithAHostParse(String endpoint) {
		assertThat(Endpoints.parse(endpoint)).isNull();
	}

	@Test
	void portsAndHosts() {
		URI https = Endpoints.parse("https://[::1]/health");
		assertThat(Endpoints.port(https)).isEqualTo(443);
		assertThat(Endpoints.host(https)).isEqualTo("::1");
		assertThat(Endpoints.port(Endpoints.parse("http://objects.example.com/"))).isEqualTo(80);
		assertThat(Endpoints.port(Endpoints.parse("http://objects.example.com:9000/"))).isEqualTo(9000);
	}

	@Test
	void literalAddressesAreReadWithoutALookup() throws Exception {
		assertThat(Endpoints.literalAddress(Endpoints.parse("http://169.254.169.254/latest")))
			.isEqualTo(InetAddress.getByName("169.254.169.254"));
		assertThat(Endpoints.literalAddress(Endpoints.parse("http://[fd00:ec2::254]/latest")))
			.isEqualTo(InetAddress.getByName("fd00:ec2::254"));
		assertThat(Endpoints.literalAddress(Endpoints.parse("http://objects.example.com/"))).isNull();
		assertThat(Endpoints.literalAddress(Endpoints.parse("http://1.2.3.4.example.com/"))).isNull();
	}

}
