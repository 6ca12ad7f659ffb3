package io.kubeboot.operator.test;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the names of {@link TestNamespace}.
 */
class TestNamespaceIntegrationTests {

	private static final String DNS_LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";

	@Test
	void nameIsPrefixedLowercasedAndSuffixed() {
		assertThat(TestNamespace.generateName("createsConfigMap", "ab1c2")).isEqualTo("t-createsconfigmap-ab1c2");
	}

	@Test
	void invalidCharactersBecomeSingleDashes() {
		assertThat(TestNamespace.generateName("[1] value=Foo_Bar()", "zzzzz")).isEqualTo("t-1-value-foo-bar-zzzzz");
	}

	@Test
	void longNamesAreShortenedToADnsLabel() {
		String name = TestNamespace.generateName("a".repeat(54) + "_b" + "c".repeat(40));
		assertThat(name).hasSizeLessThanOrEqualTo(63).matches(DNS_LABEL).startsWith("t-aaaa");
		assertThat(name.substring(0, name.length() - 6)).doesNotEndWith("-");
	}

	@Test
	void emptyNamesStillGiveAValidLabel() {
		assertThat(TestNamespace.generateName("___", "x1y2z")).isEqualTo("t-x1y2z");
		assertThat(TestNamespace.generateName(null)).matches("t-[a-z0-9]{5}");
	}

	@Test
	void randomSuffixesDiffer() {
		assertThat(TestNamespace.generateName("same")).isNotEqualTo(TestNamespace.generateName("same"))
			.matches(DNS_LABEL);
	}

	@Test
	void toStringIsTheName() {
		TestNamespace namespace = new TestNamespace("t-x-12345");
		assertThat(namespace).hasToString("t-x-12345");
		assertThat(namespace.name()).isEqualTo("t-x-12345");
		assertThat(namespace).isEqualTo(new TestNamespace("t-x-12345"));
	}

}
