package io.kubeboot.sample;

import java.util.List;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.annotation.Watches;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import io.kubeboot.sample.storage.v1alpha1.StorageBucket;
import io.kubernetes.client.openapi.models.V1Secret;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;

/**
 * What not to do, for the tests only: a controller that watches every Secret of the
 * cluster, without a namespace, a selector or the metadata-only form, as an operator that
 * looks for the credentials of its buckets might. Such a watch is how operators are most
 * often killed for memory, and the operator warns of it at start-up; with
 * {@code sample.test.unselected-secret-watch=true} (and {@code operator.namespace}
 * unset), a test sees that WARN and what the watch costs in the metrics. Picked up by the
 * sample's component scan when the test classes are on the class path, as they are for
 * {@link OperatorProcess}.
 */
@Reconciles(value = StorageBucket.class, name = "bucket-credentials")
@ConditionalOnBooleanProperty("sample.test.unselected-secret-watch")
class UnselectedSecretWatch {

	Result reconcile(Request request) {
		return Result.done();
	}

	/**
	 * A bucket's credentials would be the Secret {@code <bucket>-credentials} of its
	 * namespace: a watch of the Secrets of the buckets' namespaces, labelled, would do.
	 */
	@Watches(V1Secret.class)
	List<Request> bucketOfCredentials(V1Secret secret) {
		String name = secret.getMetadata().getName();
		return (name != null && name.endsWith("-credentials")) ? List.of(Request.of(secret.getMetadata().getNamespace(),
				name.substring(0, name.length() - "-credentials".length()))) : List.of();
	}

}
