package io.kubeboot.operator.it;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.kubeboot.operator.test.ControlPlane;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/**
 * The member control planes of a fleet test class, on loopback ports of their own beside
 * the shared home control plane: started before the class, each with a namespace of the
 * class's, and closed after it.
 */
final class FleetMembers {

	private FleetMembers() {
	}

	/**
	 * Starts control planes, each with the given namespace.
	 * @param namespace the namespace created in each
	 * @param count how many
	 * @return the control planes
	 * @throws ApiException if a namespace cannot be created
	 */
	static List<ControlPlane> start(String namespace, int count) throws ApiException {
		List<ControlPlane> members = new ArrayList<>();
		try {
			for (int i = 0; i < count; i++) {
				ControlPlane member = ControlPlane.start();
				members.add(member);
				new CoreV1Api(member.adminClient())
					.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace)))
					.execute();
			}
			return members;
		}
		catch (ApiException | RuntimeException ex) {
			close(members);
			throw ex;
		}
	}

	/**
	 * Closes control planes.
	 * @param members the control planes, {@code null} if none started
	 */
	static void close(List<ControlPlane> members) {
		if (members != null) {
			members.forEach(ControlPlane::close);
		}
	}

	/**
	 * Reads a ConfigMap of a member from its API server.
	 * @param member the member
	 * @param namespace its namespace
	 * @param name its name
	 * @return the ConfigMap, empty if there is none
	 * @throws ApiException if the read fails otherwise
	 */
	static Optional<V1ConfigMap> configMap(ControlPlane member, String namespace, String name) throws ApiException {
		try {
			return Optional.of(new CoreV1Api(member.adminClient()).readNamespacedConfigMap(name, namespace).execute());
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return Optional.empty();
			}
			throw ex;
		}
	}

}
