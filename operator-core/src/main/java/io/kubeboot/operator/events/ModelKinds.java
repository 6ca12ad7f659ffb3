package io.kubeboot.operator.events;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kubeboot.operator.model.KubernetesKind;

/**
 * Tells the kind of a model class without any I/O or expensive initialization, so it can
 * run on the thread that records an event: from {@link KubernetesKind}, or from the name
 * of a client-java model class ({@code V1ConfigMap}, {@code V1beta1CronJob},
 * {@code EventsV1Event}). Objects read from a list carry no {@code kind}, so the class
 * has to tell it.
 */
final class ModelKinds {

	private static final String MODEL_PACKAGE = "io.kubernetes.client.openapi.models";

	private static final Pattern MODEL_NAME = Pattern
		.compile("^(?:[A-Z][a-z][A-Za-z]*?)?V\\d+(?:[a-z]+\\d+)?([A-Z]\\w*)$");

	private static final ClassValue<String> KINDS = new ClassValue<>() {

		@Override
		protected String computeValue(Class<?> type) {
			KubernetesKind annotation = type.getAnnotation(KubernetesKind.class);
			if (annotation != null) {
				return annotation.kind();
			}
			if (MODEL_PACKAGE.equals(type.getPackageName())) {
				Matcher matcher = MODEL_NAME.matcher(type.getSimpleName());
				if (matcher.matches()) {
					return matcher.group(1);
				}
			}
			return "";
		}

	};

	private ModelKinds() {
	}

	/**
	 * Returns the kind a model class declares.
	 * @param type the model class
	 * @return the kind, or an empty string if the class does not tell it
	 */
	static String kindOf(Class<?> type) {
		return KINDS.get(type);
	}

}
