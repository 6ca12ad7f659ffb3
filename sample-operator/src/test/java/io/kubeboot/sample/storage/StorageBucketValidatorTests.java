package io.kubeboot.sample.storage;

import java.time.Duration;
import java.util.List;

import io.kubeboot.operator.webhook.AdmissionDeniedException;
import io.kubeboot.sample.storage.v1alpha1.StorageBucket;
import io.kubeboot.sample.storage.v1alpha1.StorageBucketSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The endpoints {@link StorageBucketValidator} refuses up front, without a DNS lookup.
 * {@code StorageBucketWebhookIntegrationTests} shows the API server passing its messages
 * on.
 */
class StorageBucketValidatorTests {

	@ParameterizedTest
	@CsvSource(delimiter = '|', value = {
			"http://169.254.169.254/latest/meta-data/ | a cloud metadata address (169.254.169.254)",
			"http://[fd00:ec2::254]/latest | a cloud metadata address ([fd00:ec2::254])",
			"http://169.254.10.1:8080/ | a link-local address (169.254.10.1)",
			"http://[fe80::1]/ | a link-local address ([fe80::1])", "http://0.0.0.0:9000/ | an unspecified address",
			"http://metadata.google.internal/computeMetadata/v1/ | a cloud metadata service (metadata.google.internal)" })
	void refusesMetadataAndLinkLocalEndpointsEvenIfPrivateOnesAreAllowed(String endpoint, String named) {
		for (boolean allowPrivate : List.of(false, true)) {
			assertThatExceptionOfType(AdmissionDeniedException.class)
				.isThrownBy(() -> validator(allowPrivate).validateCreate(bucket(endpoint)))
				.withMessageStartingWith("spec.endpoint must not name " + named);
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "http://127.0.0.1:8080/health", "http://10.96.0.1/", "http://[::1]:9000/",
			"https://192.168.1.10/bucket" })
	void refusesLoopbackAndPrivateLiteralsUnlessAllowed(String endpoint) {
		assertThatExceptionOfType(AdmissionDeniedException.class)
			.isThrownBy(() -> validator(false).validateCreate(bucket(endpoint)))
			.withMessageContaining(
					"the operator does not probe it unless sample.buckets.allow-private-endpoints is true");
		assertThatCode(() -> validator(true).validateCreate(bucket(endpoint))).doesNotThrowAnyException();
	}

	@ParameterizedTest
	@ValueSource(strings = { "https://objects.example.com/photos/health", "http://8.8.8.8/health",
			"https://localhost.example.com/" })
	void acceptsPublicLiteralsAndNames(String endpoint) {
		assertThatCode(() -> validator(false).validateCreate(bucket(endpoint))).doesNotThrowAnyException();
	}

	private static StorageBucketValidator validator(boolean allowPrivate) {
		return new StorageBucketValidator(new BucketProperties(Duration.ofSeconds(30), Duration.ofSeconds(5),
				Duration.ofMinutes(5), Duration.ofMinutes(1), null, List.of(), allowPrivate));
	}

	private static StorageBucket bucket(String endpoint) {
		return new StorageBucket().metadata(new V1ObjectMeta().namespace("ns").name("b"))
			.spec(new StorageBucketSpec().bucketName("b").endpoint(endpoint));
	}

}
