package io.kubeboot.operator.leaderelection.internal;

import java.util.ArrayList;
import java.util.List;

import io.kubeboot.operator.client.internal.AccessReviews;
import io.kubeboot.operator.client.internal.StatusMessages;
import io.kubeboot.operator.leaderelection.LeaderElectionConfig;
import io.kubeboot.operator.leaderelection.LeaseAccessDeniedException;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ResourceAttributes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the API server, before campaigning, whether this replica's identity may get,
 * create and update the Lease ({@code SelfSubjectAccessReview}), so that missing RBAC
 * fails start-up with a {@link LeaseAccessDeniedException} naming the verbs instead of a
 * silent retry loop.
 */
public final class LeaseAccessCheck {

	private static final Logger logger = LoggerFactory.getLogger(LeaseAccessCheck.class);

	private static final List<String> VERBS = List.of("get", "create", "update");

	private LeaseAccessCheck() {
	}

	/**
	 * Verifies the access.
	 * @param client the client whose identity campaigns
	 * @param config the election settings naming the Lease
	 * @throws LeaseAccessDeniedException naming the denied verbs, the namespace and the
	 * Lease
	 */
	public static void verify(ApiClient client, LeaderElectionConfig config) {
		List<String> denied = new ArrayList<>();
		for (String verb : VERBS) {
			V1ResourceAttributes attributes = new V1ResourceAttributes().verb(verb)
				.group("coordination.k8s.io")
				.resource("leases")
				.namespace(config.namespace())
				.name(verb.equals("create") ? null : config.name());
			try {
				if (!AccessReviews.isAllowed(client, attributes)) {
					denied.add(verb);
				}
			}
			catch (ApiException ex) {
				logger.warn("Cannot check leader election RBAC, continuing: verb={} error=\"{}\"", verb,
						StatusMessages.describe(ex));
				return;
			}
		}
		if (!denied.isEmpty()) {
			throw new LeaseAccessDeniedException(config.namespace(), config.name(), denied);
		}
	}

}
