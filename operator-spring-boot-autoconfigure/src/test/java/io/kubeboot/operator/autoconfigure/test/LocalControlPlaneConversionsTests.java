package io.kubeboot.operator.autoconfigure.test;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The patch that points a CRD's conversion webhook at the local webhook server.
 */
class LocalControlPlaneConversionsTests {

	private static final String URL = "https://127.0.0.1:40123/convert";

	@Test
	void theServiceOfTheManifestsMakesWayForTheUrlAndTheReviewVersionsAreKept() {
		JsonObject crd = JsonParser.parseString("""
				{"spec": {"conversion": {"strategy": "Webhook",
				 "webhook": {"conversionReviewVersions": ["v1", "v1beta1"],
				  "clientConfig": {"service": {"namespace": "shop-system", "name": "shop-operator-webhook",
				   "path": "/convert", "port": 443}}}}}}
				""").getAsJsonObject();

		assertThat(LocalControlPlaneConversions.patch(crd, URL, "Q0E=")).hasToString("""
				{"spec":{"conversion":{"strategy":"Webhook","webhook":{"clientConfig":{"url":"%s","caBundle":"Q0E=",\
				"service":null}}}}}""".formatted(URL));
	}

	@Test
	void aCrdWithoutAWebhookGetsOneAnsweringV1Reviews() {
		JsonObject crd = JsonParser.parseString("""
				{"spec": {"conversion": {"strategy": "None"}}}
				""").getAsJsonObject();

		assertThat(LocalControlPlaneConversions.patch(crd, URL, "Q0E=")).hasToString("""
				{"spec":{"conversion":{"strategy":"Webhook","webhook":{"clientConfig":{"url":"%s","caBundle":"Q0E=",\
				"service":null},"conversionReviewVersions":["v1"]}}}}""".formatted(URL));
	}

}
