package io.kubeboot.operator.client.internal;

import java.util.Map;

import com.google.gson.JsonParser;
import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests field selectors parsed as the API server parses them, and matched at the JSON
 * paths their fields spell.
 */
class FieldSelectorTests {

	@Test
	void parsesTheThreeOperatorsSeparatedByCommas() {
		FieldSelector selector = FieldSelector.parse("spec.nodeName=node-1,status.phase!=Failed,metadata.name==web");
		assertThat(selector.fields()).containsExactly("spec.nodeName", "status.phase", "metadata.name");
		assertThat(selector.matches(pod("web", "node-1", "Running"))).isTrue();
		assertThat(selector.matches(pod("web", "node-2", "Running"))).isFalse();
		assertThat(selector.matches(pod("web", "node-1", "Failed"))).isFalse();
		assertThat(selector.matches(pod("api", "node-1", "Running"))).isFalse();
	}

	@Test
	void anEmptySelectorMatchesEverything() {
		assertThat(FieldSelector.parse("").fields()).isEmpty();
		assertThat(FieldSelector.parse("").matches(pod("web", null, null))).isTrue();
	}

	@Test
	void anAbsentFieldReadsAsTheEmptyString() {
		// as the API server reads an absent selectable field of a custom resource
		assertThat(FieldSelector.parse("spec.nodeName=").matches(pod("web", null, null))).isTrue();
		assertThat(FieldSelector.parse("spec.nodeName!=node-1").matches(pod("web", null, null))).isTrue();
		assertThat(FieldSelector.parse("spec.nodeName=node-1").matches(pod("web", null, null))).isFalse();
		assertThat(FieldSelector.parse("spec.nodeName.deeper=x").matches(pod("web", "node-1", null))).isFalse();
	}

	@Test
	void integersAndBooleansCompareInTheirJsonForm() {
		// integers decoded into a map are doubles: 3.0 must read as 3
		Thing thing = new Thing();
		thing.setSpec(Map.of("replicas", 3.0, "paused", true, "ratio", 0.5, "color", "blue"));
		assertThat(
				FieldSelector.parse("spec.replicas=3,spec.paused=true,spec.ratio=0.5,spec.color=blue").matches(thing))
			.isTrue();
		assertThat(FieldSelector.parse("spec.replicas=3.0").matches(thing)).isFalse();
		assertThat(FieldSelector.parse("spec.paused=false").matches(thing)).isFalse();
	}

	@Test
	void aFieldAtTheTopLevelIsReadThere() {
		V1Secret secret = new V1Secret().metadata(new V1ObjectMeta().name("tls")).type("kubernetes.io/tls");
		assertThat(FieldSelector.parse("type=kubernetes.io/tls").matches(secret)).isTrue();
		assertThat(FieldSelector.parse("type!=kubernetes.io/tls").matches(secret)).isFalse();
	}

	@Test
	void escapedCommasEqualsAndBackslashesBelongToTheValue() {
		FieldSelector selector = FieldSelector.parse("metadata.name=a\\,b\\=c\\\\d,spec.nodeName=n");
		assertThat(selector.fields()).containsExactly("metadata.name", "spec.nodeName");
		assertThat(selector.matches(
				JsonParser.parseString("{\"metadata\": {\"name\": \"a,b=c\\\\d\"}, \"spec\": {\"nodeName\": \"n\"}}")))
			.isTrue();
	}

	@Test
	void aTermWithoutOperatorFailsNamingTheSelectorAndTheTerm() {
		assertThatIllegalArgumentException().isThrownBy(() -> FieldSelector.parse("spec.color=blue,spec.shape"))
			.withMessage("Cannot parse field selector 'spec.color=blue,spec.shape' at 'spec.shape': it has no "
					+ "operator (=, == or !=)");
	}

	@Test
	void aTermWithoutFieldFails() {
		assertThatIllegalArgumentException().isThrownBy(() -> FieldSelector.parse("=blue"))
			.withMessage("Cannot parse field selector '=blue' at '=blue': it names no field");
	}

	@Test
	void aFieldNameWithSpacesFailsRatherThanBeingRefusedByTheServer() {
		assertThatIllegalArgumentException().isThrownBy(() -> FieldSelector.parse("spec.color=blue, spec.size=2"))
			.withMessage("Cannot parse field selector 'spec.color=blue, spec.size=2' at ' spec.size=2': the field "
					+ "name ' spec.size' has spaces");
	}

	@Test
	void anUnescapedCommaOrEqualsInAValueOrABadEscapeFails() {
		assertThatIllegalArgumentException().isThrownBy(() -> FieldSelector.parse("metadata.name=a=b"))
			.withMessageEndingWith("'=' in a value must be escaped as '\\='");
		assertThatIllegalArgumentException().isThrownBy(() -> FieldSelector.parse("metadata.name=a\\b"))
			.withMessageEndingWith("'\\b' is no escape sequence (escape only \\, , and =)");
		assertThatIllegalArgumentException().isThrownBy(() -> FieldSelector.parse("metadata.name=a\\"))
			.withMessageEndingWith("it ends in a lone '\\'");
	}

	@Test
	void toStringIsTheSelectorAsWritten() {
		assertThat(FieldSelector.parse("spec.color==blue")).hasToString("spec.color==blue");
	}

	private static V1Pod pod(String name, String node, String phase) {
		return new V1Pod().metadata(new V1ObjectMeta().namespace("ns").name(name))
			.spec((node != null) ? new V1PodSpec().nodeName(node) : null)
			.status((phase != null) ? new V1PodStatus().phase(phase) : null);
	}

	@KubernetesKind(group = "test.kubeboot.io", version = "v1", kind = "Thing")
	static class Thing extends CustomResource<Map<String, Object>, Map<String, Object>> {

	}

}
