package io.kubeboot.operator.client;

import io.kubeboot.operator.client.internal.LabelSelector;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.google.gson.JsonParser;
import io.kubeboot.operator.manager.Manager;
import io.kubeboot.operator.reconcile.Request;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Bad input to the client fails at once with a message saying what to do, and the pure
 * parts (label selectors, merge patches) behave like the API server's.
 */
class ClientBadInputTests {

	private final Reader nothing = new Reader() {

		@Override
		public <T extends KubernetesObject> Optional<T> get(Class<T> type, Request request) {
			return Optional.empty();
		}

		@Override
		public <T extends KubernetesObject> List<T> list(Class<T> type, String namespace) {
			return List.of();
		}

	};

	@Test
	void aClientWithoutAFieldManagerIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Client.create(new ApiClient(), this.nothing, " ", Duration.ofSeconds(1)))
			.withMessage("a client needs a field manager (the name its writes are owned by)");
		assertThatIllegalArgumentException().isThrownBy(() -> Manager.builder(new ApiClient()).fieldManager(""))
			.withMessage("fieldManager must not be blank");
	}

	@Test
	void aClientWithoutAPositiveTimeoutIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Client.create(new ApiClient(), this.nothing, "operator", Duration.ZERO))
			.withMessage("a client's timeout must be positive, was PT0S");
	}

	@Test
	void labelSelectorsMatchLikeTheApiServer() {
		Map<String, String> labels = Map.of("app", "web", "tier", "front");
		assertThat(LabelSelector.parse("app=web").matches(labels)).isTrue();
		assertThat(LabelSelector.parse("app==web,tier!=back").matches(labels)).isTrue();
		assertThat(LabelSelector.parse("app in (web, db),!canary").matches(labels)).isTrue();
		assertThat(LabelSelector.parse("tier notin (front)").matches(labels)).isFalse();
		assertThat(LabelSelector.parse("canary").matches(labels)).isFalse();
		assertThat(LabelSelector.parse("app=db").matches(null)).isFalse();
		assertThat(LabelSelector.parse("").matches(labels)).isTrue();
		assertThatIllegalArgumentException().isThrownBy(() -> LabelSelector.parse("app=web,(oops"))
			.withMessage("Cannot parse label selector 'app=web,(oops' at '(oops'");
	}

	@Test
	void mergePatchHoldsExactlyTheDifferences() {
		var base = JsonParser.parseString("""
				{"metadata": {"name": "a", "resourceVersion": "7", "labels": {"x": "1", "y": "2"}},
				 "data": {"k": "v"}, "list": [1, 2]}
				""");
		var modified = JsonParser.parseString("""
				{"metadata": {"name": "a", "resourceVersion": "7", "labels": {"x": "1", "z": "3"}},
				 "data": {"k": "v"}, "list": [1, 2, 3]}
				""");
		var patch = MergePatches.diff(base, modified);
		assertThat(patch).isEqualTo(JsonParser.parseString("""
				{"metadata": {"labels": {"z": "3", "y": null}}, "list": [1, 2, 3]}
				"""));
		MergePatches.lockOn(patch, base);
		assertThat(patch.getAsJsonObject("metadata").get("resourceVersion").getAsString()).isEqualTo("7");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> MergePatches.lockOn(MergePatches.diff(JsonParser.parseString("{}"), modified),
					JsonParser.parseString("{}")))
			.withMessage("an optimistic lock needs metadata.resourceVersion in the base object");
	}

}
