package io.kubeboot.operator.webhook;

import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JsonPatchesTests {

	@Test
	void equalDocumentsNeedNoPatch() {
		assertThat(diff("{\"a\": {\"b\": [1, 2]}}", "{\"a\": {\"b\": [1, 2]}}")).isEqualTo("[]");
	}

	@Test
	void membersAreAddedRemovedAndReplacedByTheirPaths() {
		assertThat(diff("{\"spec\": {\"a\": 1, \"gone\": true}}", "{\"spec\": {\"a\": 2, \"new\": \"x\"}}"))
			.isEqualTo("[{\"op\":\"replace\",\"path\":\"/spec/a\",\"value\":2},"
					+ "{\"op\":\"remove\",\"path\":\"/spec/gone\"},"
					+ "{\"op\":\"add\",\"path\":\"/spec/new\",\"value\":\"x\"}]");
	}

	@Test
	void arraysAreReplacedWholeAndNamesEscaped() {
		assertThat(diff("{\"m\": {\"a/b~c\": [1]}}", "{\"m\": {\"a/b~c\": [1, 2]}}"))
			.isEqualTo("[{\"op\":\"replace\",\"path\":\"/m/a~1b~0c\",\"value\":[1,2]}]");
	}

	private static String diff(String before, String after) {
		return JsonPatches.diff(JsonParser.parseString(before), JsonParser.parseString(after)).toString();
	}

}
