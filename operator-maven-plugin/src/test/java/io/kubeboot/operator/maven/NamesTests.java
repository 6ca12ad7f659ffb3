package io.kubeboot.operator.maven;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class NamesTests {

	private static final Path ARCHETYPE_METADATA = Path.of("..", "operator-spring-boot-archetype", "src", "main",
			"resources", "META-INF", "maven", "archetype-metadata.xml");

	@ParameterizedTest
	@ValueSource(strings = { "Database", "A", "S3Bucket", "AppConfig" })
	void acceptsUpperCamelCaseKinds(String kind) {
		assertThat(Names.kind(kind)).isEqualTo(kind);
	}

	@ParameterizedTest
	@ValueSource(strings = { "database", "3Scale", "App-Config", "App_Config", "Ünicode" })
	void refusesKindsThatAreNoUpperCamelCase(String kind) {
		assertThatExceptionOfType(ScaffoldException.class).isThrownBy(() -> Names.kind(kind))
			.withMessage("-Dkind=" + kind + " is no kind: UpperCamelCase letters and digits starting with a capital, "
					+ "at most 63 characters, such as Database");
	}

	@Test
	void refusesAKindLongerThanALabel() {
		assertThat(Names.kind("A".repeat(63))).hasSize(63);
		assertThatExceptionOfType(ScaffoldException.class).isThrownBy(() -> Names.kind("A".repeat(64)))
			.withMessageContaining("is no kind");
	}

	@Test
	void refusesAMissingKind() {
		assertThatExceptionOfType(ScaffoldException.class).isThrownBy(() -> Names.kind(null))
			.withMessage("Pass -Dkind: the kind, UpperCamelCase, such as Database");
	}

	@ParameterizedTest
	@ValueSource(strings = { "String", "Record", "Thread", "Override", "Module" })
	void refusesKindsThatWouldHideJavaLang(String kind) {
		assertThatExceptionOfType(ScaffoldException.class).isThrownBy(() -> Names.kind(kind))
			.withMessage("-Dkind=" + kind + " would hide java.lang." + kind + ": choose another name");
	}

	@ParameterizedTest
	@ValueSource(strings = { "Condition", "Request", "Result", "Client", "Patch", "OperatorApplication" })
	void refusesKindsTheGeneratedCodeUses(String kind) {
		assertThatExceptionOfType(ScaffoldException.class).isThrownBy(() -> Names.kind(kind))
			.withMessageStartingWith("-Dkind=" + kind + " is a name the generated code uses already");
	}

	@Test
	void refusesAListSuffix() {
		assertThatExceptionOfType(ScaffoldException.class).isThrownBy(() -> Names.kind("DatabaseList"))
			.withMessageStartingWith("-Dkind=DatabaseList ends with List");
	}

	@ParameterizedTest
	@ValueSource(strings = { "shop.example.com", "a.b", "x-1.example.com" })
	void acceptsDnsSubdomainsWithADot(String group) {
		assertThat(Names.group(group)).isEqualTo(group);
	}

	@ParameterizedTest
	@ValueSource(strings = { "Shop.example.com", "shop", "shop..com", "-shop.com", "shop.com-", "shop_1.com" })
	void refusesGroupsThatAreNoDnsSubdomainWithADot(String group) {
		assertThatExceptionOfType(ScaffoldException.class).isThrownBy(() -> Names.group(group))
			.withMessage("-Dgroup=" + group + " is no API group: a lower-case DNS subdomain with at least one dot, "
					+ "such as shop.example.com");
	}

	@ParameterizedTest
	@ValueSource(strings = { "k8s.io", "apps.k8s.io", "kubernetes.io", "x.kubernetes.io" })
	void refusesGroupsThatNeedApiApproval(String group) {
		assertThatExceptionOfType(ScaffoldException.class).isThrownBy(() -> Names.group(group))
			.withMessage("-Dgroup=" + group + ": groups under k8s.io and kubernetes.io need Kubernetes' API approval");
	}

	@Test
	void acceptsLongGroupsUpToASubdomainsLength() {
		String group = "a".repeat(63) + "." + "b".repeat(63) + "." + "c".repeat(63) + "." + "d".repeat(61);
		assertThat(group).hasSize(253);
		assertThat(Names.group(group)).isEqualTo(group);
		assertThatExceptionOfType(ScaffoldException.class).isThrownBy(() -> Names.group(group + "d"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "v1", "v2", "v10", "v1alpha1", "v2beta3", "v1beta10" })
	void acceptsKubernetesVersions(String version) {
		assertThat(Names.version(version)).isEqualTo(version);
	}

	@ParameterizedTest
	@ValueSource(strings = { "v0", "v1.0", "1", "v1alpha", "v1alpha0", "v1rc1", "V1", "v01" })
	void refusesOtherVersions(String version) {
		assertThatExceptionOfType(ScaffoldException.class).isThrownBy(() -> Names.version(version))
			.withMessage("-DapiVersion=" + version + " is no Kubernetes version: v<n>, v<n>alpha<m> or v<n>beta<m>, "
					+ "such as v1alpha1");
	}

	@ParameterizedTest
	@CsvSource({ "Database,databases", "Policy,policies", "Gateway,gateways", "Box,boxes", "Status,statuses",
			"Batch,batches", "Mesh,meshes", "Quiz,quizes", "Y,ys", "AppConfig,appconfigs" })
	void pluralisesAsTheCrdGeneratorDoes(String kind, String plural) {
		assertThat(Names.pluralOf(kind)).isEqualTo(plural);
	}

	@Test
	void refusesAPluralThatIsNoLabel() {
		assertThatExceptionOfType(ScaffoldException.class).isThrownBy(() -> Names.plural("Data_bases", "a.b"))
			.withMessageStartingWith("-Dplural=Data_bases is no DNS label");
		assertThat(Names.plural("data-bases", "a.b")).isEqualTo("data-bases");
	}

	@Test
	void refusesAPluralThatMakesTheCrdNameTooLong() {
		String group = "a".repeat(63) + "." + "b".repeat(63) + "." + "c".repeat(63) + ".d";
		assertThatExceptionOfType(ScaffoldException.class).isThrownBy(() -> Names.plural("b".repeat(63), group))
			.withMessageEndingWith("is too long for a CRD's name: at most 253 characters");
	}

	@Test
	void theKindAndGroupRulesAreTheArchetypes() throws IOException {
		String metadata = Files.readString(ARCHETYPE_METADATA);
		assertThat(regexOf(metadata, "kind")).isEqualTo(Names.KIND.pattern());
		assertThat(regexOf(metadata, "group")).isEqualTo(Names.GROUP.pattern());
		assertThat(regexOf(metadata, "plural")).isEqualTo(Names.DNS_LABEL.pattern());
	}

	private static String regexOf(String metadata, String property) {
		Matcher matcher = Pattern
			.compile("<requiredProperty key=\"" + property
					+ "\">.*?<validationRegex><!\\[CDATA\\[(.*?)]]></validationRegex>", Pattern.DOTALL)
			.matcher(metadata);
		assertThat(matcher.find()).as("the archetype's regex of %s", property).isTrue();
		return matcher.group(1);
	}

}
