package io.kubeboot.sample.storage;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;

import io.kubeboot.operator.webhook.AdmissionDeniedException;
import io.kubeboot.operator.webhook.AdmissionValidator;
import io.kubeboot.operator.webhook.Webhook;
import io.kubeboot.sample.storage.v1alpha1.StorageBucket;
import io.kubeboot.sample.storage.v1alpha1.StorageBucketSpec;
import org.springframework.stereotype.Component;

/**
 * Refuses a StorageBucket at {@code kubectl apply} time when the operator could not watch
 * over it, with a message naming the field, instead of accepting it and failing later in
 * the reconciler:
 * <ul>
 * <li>{@code spec.endpoint} must be an absolute http or https URL with a host, and must
 * not carry credentials ({@code user:password@}): they would end up in the bucket for
 * anyone who may read it;</li>
 * <li>{@code spec.endpoint} must not name an address the operator does not probe (see
 * {@link AddressPolicy}): a cloud metadata service by name or address, a link-local,
 * unspecified or multicast address, and a loopback or private one unless
 * {@code sample.buckets.allow-private-endpoints} allows them. Only what the URL says
 * literally is checked here, without a DNS lookup; the prober checks what a name resolves
 * to before every probe;</li>
 * <li>{@code spec.region}, when {@code sample.buckets.regions} lists the allowed regions,
 * must be one of them.</li>
 * </ul>
 * What needs no code is the CRD's: the API server itself keeps {@code spec.bucketName}
 * from changing (a CEL transition rule) and writes the default probe timeout. The starter
 * serves this class as the validating admission webhook of StorageBucket. The API server
 * calls it only when a bucket is created or its endpoint or region changes: the
 * {@link Webhook} annotation's match condition, which the generated
 * {@code deploy/webhook.yaml} carries; a status write, a label or a finalizer never
 * reaches the operator. What cannot be checked is refused while no replica answers.
 */
@Component
@Webhook(failurePolicy = Webhook.FailurePolicy.FAIL,
		matchConditions = @Webhook.MatchCondition(name = "endpoint-or-region-changed",
				expression = "request.operation != 'UPDATE' || !has(object.spec) || !has(oldObject.spec)"
						+ " || object.spec.endpoint != oldObject.spec.endpoint"
						+ " || (has(object.spec.region) ? object.spec.region : '')"
						+ " != (has(oldObject.spec.region) ? oldObject.spec.region : '')"))
class StorageBucketValidator implements AdmissionValidator<StorageBucket> {

	private final BucketProperties properties;

	private final AddressPolicy addresses;

	StorageBucketValidator(BucketProperties properties) {
		this.properties = properties;
		this.addresses = new AddressPolicy(properties.allowPrivateEndpoints());
	}

	@Override
	public List<String> validateCreate(StorageBucket bucket) throws AdmissionDeniedException {
		return validate(bucket);
	}

	@Override
	public List<String> validateUpdate(StorageBucket old, StorageBucket bucket) throws AdmissionDeniedException {
		return validate(bucket);
	}

	private List<String> validate(StorageBucket bucket) throws AdmissionDeniedException {
		StorageBucketSpec spec = bucket.getSpec();
		if (spec == null) {
			throw new AdmissionDeniedException("spec is required");
		}
		checkEndpoint(spec.getEndpoint());
		List<String> regions = this.properties.regions();
		if (!regions.isEmpty() && spec.getRegion() != null && !regions.contains(spec.getRegion())) {
			throw new AdmissionDeniedException("spec.region '" + spec.getRegion()
					+ "' is not one of the regions this operator serves: " + String.join(", ", regions));
		}
		List<String> warnings = new ArrayList<>();
		if (spec.getRegion() == null && !regions.isEmpty()) {
			warnings.add("spec.region is not set: the bucket is assumed to be in any of " + String.join(", ", regions));
		}
		return warnings;
	}

	private void checkEndpoint(String endpoint) throws AdmissionDeniedException {
		if (endpoint == null || endpoint.isBlank()) {
			throw new AdmissionDeniedException(
					"spec.endpoint is required: the http or https URL of the bucket's " + "health check");
		}
		URI uri;
		try {
			uri = new URI(endpoint);
		}
		catch (URISyntaxException ex) {
			throw new AdmissionDeniedException("spec.endpoint is not a URL: " + ex.getReason());
		}
		if (!"http".equalsIgnoreCase(uri.getScheme()) && !"https".equalsIgnoreCase(uri.getScheme())) {
			throw new AdmissionDeniedException("spec.endpoint must be an http or https URL, not "
					+ ((uri.getScheme() != null) ? "a " + uri.getScheme() + " URL" : "a relative one"));
		}
		if (uri.getRawUserInfo() != null) {
			// the credentials themselves are not repeated: the message goes back to the
			// user, and into the API server's audit log
			throw new AdmissionDeniedException("spec.endpoint must not carry credentials (user:password@): "
					+ "the bucket is readable by anyone who may read StorageBuckets");
		}
		if (uri.getHost() == null || uri.getHost().isEmpty()) {
			throw new AdmissionDeniedException("spec.endpoint has no host");
		}
		if (AddressPolicy.isMetadataName(Endpoints.host(uri))) {
			throw new AdmissionDeniedException("spec.endpoint must not name a cloud metadata service (" + uri.getHost()
					+ "): the operator does not probe it");
		}
		InetAddress literal = Endpoints.literalAddress(uri);
		AddressPolicy.Kind refused = (literal != null) ? this.addresses.refusal(literal) : null;
		if (refused != null) {
			throw new AdmissionDeniedException("spec.endpoint must not name " + refused.description() + " ("
					+ uri.getHost() + "): the operator does not probe it" + (refused.allowedIfPrivateAllowed()
							? " unless sample.buckets.allow-private-endpoints is true" : ""));
		}
	}

}
