package io.kubeboot.operator.autoconfigure.endpoint;

import io.kubeboot.operator.autoconfigure.OperatorAutoConfiguration;
import io.kubeboot.operator.cluster.Fleet;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.sharding.ShardRing;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configures the {@code operator} Actuator endpoint. Like every endpoint but health,
 * it is exposed over HTTP only when listed in
 * {@code management.endpoints.web.exposure.include}.
 */
@AutoConfiguration(after = OperatorAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
@ConditionalOnBean(Manager.class)
@ConditionalOnAvailableEndpoint(OperatorEndpoint.class)
public final class OperatorEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	OperatorEndpoint operatorEndpoint(Manager manager, ObjectProvider<ShardRing> rings, ObjectProvider<Fleet> fleet) {
		return new OperatorEndpoint(manager, rings.orderedStream().toList(), fleet.getIfAvailable());
	}

}
