package io.kubeboot.operator.autoconfigure.test;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.PropertySource;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the webhook defaults of a local control plane apply, and that whatever the
 * application sets wins over them.
 */
class LocalControlPlaneWebhookDefaultsTests {

	@Test
	void withoutCertificatePropertiesWebhooksAreSelfSignedOnAFreeLoopbackPort() {
		MockEnvironment environment = new MockEnvironment();

		assertThat(LocalControlPlaneWebhookDefaults.add(environment)).isTrue();
		assertThat(environment.getProperty("operator.webhook.self-signed")).isEqualTo("true");
		assertThat(environment.getProperty("operator.webhook.port")).isEqualTo("0");
		assertThat(environment.getProperty("operator.webhook.bind-address")).isEqualTo("127.0.0.1");
	}

	@Test
	void propertiesOfTheApplicationWin() {
		MockEnvironment environment = new MockEnvironment().withProperty("operator.webhook.port", "9555")
			.withProperty("operator.webhook.bind-address", "0.0.0.0");

		LocalControlPlaneWebhookDefaults.add(environment);

		assertThat(environment.getProperty("operator.webhook.port")).isEqualTo("9555");
		assertThat(environment.getProperty("operator.webhook.bind-address")).isEqualTo("0.0.0.0");
		assertThat(environment.getProperty("operator.webhook.self-signed")).isEqualTo("true");
	}

	@Test
	void aChosenCertificateTurnsThemOff() {
		MockEnvironment selfSignedOff = new MockEnvironment().withProperty("operator.webhook.self-signed", "false");
		MockEnvironment certDir = new MockEnvironment().withProperty("operator.webhook.cert-dir", "/certs");

		assertThat(LocalControlPlaneWebhookDefaults.add(selfSignedOff)).isFalse();
		assertThat(LocalControlPlaneWebhookDefaults.add(certDir)).isFalse();
		assertThat(certDir.getProperty("operator.webhook.port")).isNull();
		assertThat(certDir.getPropertySources().contains(LocalControlPlaneWebhookDefaults.NAME)).isFalse();
	}

	@Test
	void selfSignedSetToTrueKeepsTheFreeLoopbackPort() {
		MockEnvironment selfSigned = new MockEnvironment().withProperty("operator.webhook.self-signed", "true");
		MockEnvironment selfSignedWithCertDir = new MockEnvironment()
			.withProperty("operator.webhook.self-signed", "TRUE")
			.withProperty("operator.webhook.cert-dir", "/certs");

		assertThat(LocalControlPlaneWebhookDefaults.add(selfSigned)).isTrue();
		assertThat(selfSigned.getProperty("operator.webhook.port")).isEqualTo("0");
		assertThat(selfSigned.getProperty("operator.webhook.bind-address")).isEqualTo("127.0.0.1");
		assertThat(LocalControlPlaneWebhookDefaults.add(selfSignedWithCertDir)).isTrue();
		assertThat(selfSignedWithCertDir.getProperty("operator.webhook.port")).isEqualTo("0");
	}

	@Test
	void aCertDirOfAnEnvironmentVariableTurnsThemOff() {
		ConfigurableEnvironment environment = new StandardEnvironment();
		String name = StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME;
		environment.getPropertySources()
			.replace(name, new SystemEnvironmentPropertySource(name, Map.of("OPERATOR_WEBHOOK_CERTDIR", "/certs")));
		ConfigurationPropertySources.attach(environment);

		assertThat(LocalControlPlaneWebhookDefaults.add(environment)).isFalse();
	}

	@Test
	void theyAreAddedOnce() {
		MockEnvironment environment = new MockEnvironment();

		assertThat(LocalControlPlaneWebhookDefaults.add(environment)).isTrue();
		assertThat(LocalControlPlaneWebhookDefaults.add(environment)).isFalse();
	}

	@Test
	void aPropertySourceOfAConfigurationClassWins() {
		try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
			context.addBeanFactoryPostProcessor(new LocalControlPlaneWebhookDefaults(context.getEnvironment()));
			context.register(WithAPropertySource.class);
			context.refresh();

			assertThat(context.getEnvironment().getProperty("operator.webhook.port")).isEqualTo("18443");
			assertThat(context.getEnvironment().getProperty("operator.webhook.self-signed")).isEqualTo("true");
		}
	}

	@Configuration(proxyBeanMethods = false)
	@PropertySource("classpath:localcontrolplane/webhook-port.properties")
	static class WithAPropertySource {

	}

}
