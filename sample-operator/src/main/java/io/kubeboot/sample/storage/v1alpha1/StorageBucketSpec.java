package io.kubeboot.sample.storage.v1alpha1;

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
	private String bucketName;

	@NotNull
	@Size(max = 2048)
	@Pattern(regexp = "^https?://[^\\s]+$")
	private String endpoint;

	@Size(max = 63)
	private String region;

	@Min(1)
	@Max(60)
	private Integer probeTimeoutSeconds;

	/**
	 * The bucket's name in the object store.
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
	 * does not use it.
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
	 * How long one probe of this bucket may take, overriding the operator's
	 * {@code sample.buckets.probe-timeout}.
	 * @return the timeout in seconds, or {@code null} for the operator's default
	 */
	public Integer getProbeTimeoutSeconds() {
		return this.probeTimeoutSeconds;
	}

	public StorageBucketSpec probeTimeoutSeconds(Integer probeTimeoutSeconds) {
		this.probeTimeoutSeconds = probeTimeoutSeconds;
		return this;
	}

}
