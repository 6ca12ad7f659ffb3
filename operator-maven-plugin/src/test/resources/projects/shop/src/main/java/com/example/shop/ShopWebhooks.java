package com.example.shop;

import com.example.shop.v1alpha1.Website;
import io.kubeboot.operator.webhook.Defaulter;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The shop's defaulting webhooks, as beans.
 */
@Configuration(proxyBeanMethods = false)
class ShopWebhooks {

	@Bean
	Defaulter<Website> websiteDefaulter() {
		return (website) -> {
		};
	}

}
