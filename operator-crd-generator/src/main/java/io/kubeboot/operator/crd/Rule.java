package io.kubeboot.operator.crd;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One entry of a schema's {@code x-kubernetes-validations}: a CEL rule with what the API
 * server answers when it is broken.
 *
 * @param rule the CEL expression
 * @param message the message, empty for the API server's default
 * @param messageExpression the CEL expression of the message, or empty
 * @param reason the reason ({@code FieldValueForbidden}, ...), empty for the default
 * ({@code FieldValueInvalid})
 * @param fieldPath where the error is reported, relative to the schema, or empty
 * @param optionalOldSelf whether the rule also runs without an old value
 * @param transition whether the rule uses {@code oldSelf}
 * @param origin the annotation the rule comes from
 */
record Rule(String rule, String message, String messageExpression, String reason, String fieldPath,
		boolean optionalOldSelf, boolean transition, Origin origin) {

	/**
	 * The entry as the CustomResourceDefinition holds it, without the empty values.
	 * @return the entry
	 */
	Map<String, Object> toMap() {
		Map<String, Object> map = new LinkedHashMap<>();
		map.put("rule", this.rule);
		putIfPresent(map, "message", this.message);
		putIfPresent(map, "messageExpression", this.messageExpression);
		putIfPresent(map, "reason", this.reason);
		putIfPresent(map, "fieldPath", this.fieldPath);
		if (this.optionalOldSelf) {
			map.put("optionalOldSelf", true);
		}
		return map;
	}

	private static void putIfPresent(Map<String, Object> map, String key, String value) {
		if (!value.isEmpty()) {
			map.put(key, value);
		}
	}

}
