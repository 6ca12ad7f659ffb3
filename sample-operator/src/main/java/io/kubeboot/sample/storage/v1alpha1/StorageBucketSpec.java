package io.kubeboot.sample.storage.v1alpha1;

import io.kubeboot.operator.model.Default;
import io.kubeboot.operator.model.Immutable;
import io.kubeboot.operator.model.SelectableField;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * What the user says about a bucket: where it lives and how to tell that it is healthy.
 */
public class StorageBucketSpec {

	@NotNull
	@Size(min = 3, max = 63)
	@Immutable(message = "cannot change: create another StorageBucket for another bucket")
	private String bucketName;

	@NotNull
	@Size(max = 2048)
	@Pattern(regexp = "^https?://[^\\s]+$")
	private String endpoint;

	@Size(max = 63)
	@SelectableField
	private String region;

	@Min(1)
	@Max(60)
	@Default("5")
	private Integer probeTimeoutSeconds;

	/**
	 * The bucket's name in the object store; it cannot change, another bucket is another
	 * StorageBucket.
	 * @return the bucket name
	 */
	public String getBucketName() {
		return this.bucketName;
	}

	public StorageBucketSpec bucketName(String bucketName) {
		this.bucketName = bucketName;
		return this;
	}

	/**
	 * The http or https URL answering the bucket's health check, such as
	 * {@code https://objects.example.com/my-bucket/health}; a 2xx or 3xx answer means
	 * available.
	 * @return the endpoint URL
	 */
	public String getEndpoint() {
		return this.endpoint;
	}

	public StorageBucketSpec endpoint(String endpoint) {
		this.endpoint = endpoint;
		return this;
	}

	/**
	 * The object store's region, for people and tools reading the resource; the operator
	 * does not use it. Selectable: {@code kubectl get storagebuckets --field-selector
	 * spec.region=eu-west-1}.
	 * @return the region, or {@code null}
	 */
	public String getRegion() {
		return this.region;
	}

	public StorageBucketSpec region(String region) {
		this.region = region;
		return this;
	}

	/**
	 * How long one probe of this bucket may take, in seconds; the API server writes 5
	 * when it is left out.
	 * @return the timeout in seconds, or {@code null} for the operator's
	 * {@code sample.buckets.probe-timeout} (a bucket stored before the default existed)
	 */
	public Integer getProbeTimeoutSeconds() {
		return this.probeTimeoutSeconds;
	}

	public StorageBucketSpec probeTimeoutSeconds(Integer probeTimeoutSeconds) {
		this.probeTimeoutSeconds = probeTimeoutSeconds;
		return this;
	}

}
