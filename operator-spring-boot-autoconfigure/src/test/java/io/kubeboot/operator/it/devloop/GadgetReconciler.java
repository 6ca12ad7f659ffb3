package io.kubeboot.operator.it.devloop;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import io.kubeboot.operator.annotation.Reconciles;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.client.Patch;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a gadget's {@code spec.color} into its {@code status.observedColor}.
 */
@Reconciles(Gadget.class)
class GadgetReconciler {

	private static final Logger logger = LoggerFactory.getLogger(GadgetReconciler.class);

	private final Client client;

	GadgetReconciler(Client client) {
		this.client = client;
	}

	Result reconcile(Request request) {
		Optional<Gadget> found = this.client.get(Gadget.class, request);
		if (found.isEmpty()) {
			return Result.done();
		}
		Gadget gadget = found.get();
		Object color = (gadget.getSpec() != null) ? gadget.getSpec().get("color") : null;
		Object observed = (gadget.getStatus() != null) ? gadget.getStatus().get("observedColor") : null;
		if (color != null && !Objects.equals(color, observed)) {
			this.client.status().patch(gadget, Patch.merge(Map.of("status", Map.of("observedColor", color))));
			logger.info("Gadget reconciled: gadget={} color={}", request, color);
		}
		return Result.done();
	}

}
