package io.kubeboot.operator.reconcile;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Which names and namespaces a {@link Request} accepts: none that would change the REST
 * path it is turned into.
 */
class RequestTests {

	@ParameterizedTest
	@ValueSource(strings = { "", ".", "..", "../secrets/x", "a/b", "100%", "%2e%2e" })
	void namesNoKubernetesObjectCanHaveAreRefused(String name) {
		assertThatIllegalArgumentException().isThrownBy(() -> Request.of("default", name))
			.withMessageStartingWith("Invalid object name \"" + name + "\": a Kubernetes name is not empty");
	}

	@ParameterizedTest
	@ValueSource(strings = { "web", "web-1.example", "system:controller:reader", "a?b#c", "..a", "Upper" })
	void everyOtherNameIsAcceptedForTheApiServerToJudge(String name) {
		assertThat(Request.of("default", name).name()).isEqualTo(name);
	}

	@ParameterizedTest
	@ValueSource(strings = { "../kube-system", "Default", "-a", "a-", "a.b", "a_b",
			"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" })
	void namespacesThatAreNotLowercaseLabelsAreRefused(String namespace) {
		assertThatIllegalArgumentException().isThrownBy(() -> Request.of(namespace, "x"))
			.withMessageStartingWith("Invalid namespace \"" + namespace + "\"");
	}

	@ParameterizedTest
	@ValueSource(strings = { "a", "7", "a-b", "team-a1", "0-0",
			"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" })
	void namespacesThatAreLowercaseLabelsAreAccepted(String namespace) {
		assertThat(Request.of(namespace, "x").namespace()).isEqualTo(namespace);
	}

	@Test
	void anEmptyNamespaceIsAClusterScopedRequest() {
		assertThat(Request.of("", "x").isClusterScoped()).isTrue();
	}

	@Test
	void aRefusedValueIsShownOnOneLineAndShortened() {
		assertThatIllegalArgumentException().isThrownBy(() -> Request.of("default", "a/b\nforged: line"))
			.withMessageStartingWith("Invalid object name \"a/b\\u000aforged: line\"");
		assertThatIllegalArgumentException().isThrownBy(() -> Request.of("default", "/".repeat(500)))
			.withMessageStartingWith("Invalid object name \"" + "/".repeat(100) + "...\"");
	}

}
