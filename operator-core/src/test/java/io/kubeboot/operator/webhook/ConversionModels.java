package io.kubeboot.operator.webhook;

import java.util.HashMap;
import java.util.Map;

import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/**
 * Three versions of a Bucket: v1 the hub (size as a quantity string and a color),
 * v1alpha1 (size in Gi, a color), v1beta1 (size in Mi, no color: it keeps the hub's in an
 * annotation, so that hub to v1beta1 to hub is lossless); and a Lamp with two versions.
 */
final class ConversionModels {

	static final String COLOR = "storage.example.com/color";

	private ConversionModels() {
	}

	record Spec(String size, String color) {
	}

	record SpecV1alpha1(int sizeInGi, String color) {
	}

	record SpecV1beta1(long sizeInMi) {
	}

	record Status(String phase) {
	}

	@KubernetesKind(group = "storage.example.com", version = "v1", kind = "Bucket")
	static class Bucket extends CustomResource<Spec, Status> {

	}

	@KubernetesKind(group = "storage.example.com", version = "v1alpha1", kind = "Bucket")
	static class BucketV1alpha1 extends CustomResource<SpecV1alpha1, Status> implements Convertible<Bucket> {

		@Override
		public void convertTo(Bucket hub) {
			hub.setSpec(new Spec(getSpec().sizeInGi() + "Gi", getSpec().color()));
			hub.setStatus(getStatus());
		}

		@Override
		public void convertFrom(Bucket hub) throws ConversionException {
			if ("panic".equals(hub.getSpec().color())) {
				throw new IllegalStateException("a bug in the conversion");
			}
			setSpec(new SpecV1alpha1(gibibytes(hub.getSpec().size()), hub.getSpec().color()));
			setStatus(hub.getStatus());
		}

	}

	@KubernetesKind(group = "storage.example.com", version = "v1beta1", kind = "Bucket")
	static class BucketV1beta1 extends CustomResource<SpecV1beta1, Status> implements Convertible<Bucket> {

		@Override
		public void convertTo(Bucket hub) {
			Map<String, String> annotations = new HashMap<>(annotations(hub.getMetadata()));
			String color = annotations.remove(COLOR);
			hub.getMetadata().setAnnotations(annotations);
			hub.setSpec(new Spec((getSpec().sizeInMi() / 1024) + "Gi", color));
			hub.setStatus(getStatus());
		}

		@Override
		public void convertFrom(Bucket hub) throws ConversionException {
			if (hub.getSpec().color() != null) {
				getMetadata().putAnnotationsItem(COLOR, hub.getSpec().color());
			}
			setSpec(new SpecV1beta1(gibibytes(hub.getSpec().size()) * 1024L));
			setStatus(hub.getStatus());
		}

	}

	static int gibibytes(String size) throws ConversionException {
		if (size == null || !size.matches("[0-9]+Gi")) {
			throw new ConversionException("spec.size " + size + " is not a whole number of Gi");
		}
		return Integer.parseInt(size.substring(0, size.length() - 2));
	}

	private static Map<String, String> annotations(V1ObjectMeta metadata) {
		return (metadata.getAnnotations() != null) ? metadata.getAnnotations() : Map.of();
	}

	@KubernetesKind(group = "home.example.com", version = "v2", kind = "Lamp")
	static class Lamp extends CustomResource<Map<String, Object>, Map<String, Object>> {

	}

	@KubernetesKind(group = "home.example.com", version = "v1", kind = "Lamp")
	static class LampV1 extends CustomResource<Map<String, Object>, Map<String, Object>> implements Convertible<Lamp> {

		@Override
		public void convertTo(Lamp hub) {
			hub.setSpec(Map.of("on", "on".equals(getSpec().get("state"))));
		}

		@Override
		public void convertFrom(Lamp hub) {
			setSpec(Map.of("state", Boolean.TRUE.equals(hub.getSpec().get("on")) ? "on" : "off"));
		}

	}

}
