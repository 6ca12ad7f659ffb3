package io.kubeboot.operator.autoconfigure.docs.model;

/**
 * The spec of a {@link StorageBucket}.
 */
public class StorageBucketSpec {

	private String bucketName;

	private String endpoint;

	private String region;

	private Integer probeTimeoutSeconds;

	public String getBucketName() {
		return this.bucketName;
	}

	public StorageBucketSpec bucketName(String bucketName) {
		this.bucketName = bucketName;
		return this;
	}

	public String getEndpoint() {
		return this.endpoint;
	}

	public StorageBucketSpec endpoint(String endpoint) {
		this.endpoint = endpoint;
		return this;
	}

	public String getRegion() {
		return this.region;
	}

	public StorageBucketSpec region(String region) {
		this.region = region;
		return this;
	}

	public Integer getProbeTimeoutSeconds() {
		return this.probeTimeoutSeconds;
	}

	public StorageBucketSpec probeTimeoutSeconds(Integer probeTimeoutSeconds) {
		this.probeTimeoutSeconds = probeTimeoutSeconds;
		return this;
	}

}
