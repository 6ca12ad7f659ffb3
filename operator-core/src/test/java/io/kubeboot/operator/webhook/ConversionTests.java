package io.kubeboot.operator.webhook;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;

import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;
import io.kubeboot.operator.webhook.ConversionModels.Bucket;
import io.kubeboot.operator.webhook.ConversionModels.BucketV1alpha1;
import io.kubeboot.operator.webhook.ConversionModels.BucketV1beta1;
import io.kubeboot.operator.webhook.ConversionModels.Lamp;
import io.kubeboot.operator.webhook.ConversionModels.LampV1;
import io.kubeboot.operator.webhook.ConversionModels.Spec;
import io.kubeboot.operator.webhook.ConversionModels.SpecV1alpha1;
import io.kubeboot.operator.webhook.ConversionModels.SpecV1beta1;
import io.kubeboot.operator.webhook.ConversionModels.Status;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ConversionTests {

	private final Conversion<Bucket> conversion = Conversion.hub(Bucket.class)
		.spokes(BucketV1alpha1.class, BucketV1beta1.class);

	@Test
	void spokeRoundTripGivesBackAnEqualObjectAndLeavesTheGivenOneAlone() throws Exception {
		BucketV1alpha1 bucket = new BucketV1alpha1().metadata(metadata())
			.spec(new SpecV1alpha1(10, "red"))
			.status(new Status("Ready"));
		String before = bucket.toString();
		BucketV1alpha1 roundTripped = this.conversion.roundTrip(bucket);
		assertThat(roundTripped).isEqualTo(bucket).isNotSameAs(bucket);
		assertThat(bucket).hasToString(before);
	}

	@Test
	void hubRoundTripThroughASpokeThatKeepsHubFieldsInAnnotationsIsLossless() throws Exception {
		Bucket bucket = new Bucket().metadata(metadata()).spec(new Spec("2Gi", "blue"));
		assertThat(this.conversion.roundTrip(bucket, BucketV1beta1.class)).isEqualTo(bucket);
		BucketV1beta1 spoke = this.conversion.fromHub(bucket, BucketV1beta1.class);
		assertThat(spoke.getSpec()).isEqualTo(new SpecV1beta1(2048));
		assertThat(spoke.getMetadata().getAnnotations()).containsEntry(ConversionModels.COLOR, "blue");
	}

	@Test
	void toHubSetsTheHubsApiVersionAndCopiesTheMetadata() throws Exception {
		BucketV1alpha1 spoke = new BucketV1alpha1().metadata(metadata()).spec(new SpecV1alpha1(3, "green"));
		Bucket hub = this.conversion.toHub(spoke);
		assertThat(hub.getApiVersion()).isEqualTo("storage.example.com/v1");
		assertThat(hub.getKind()).isEqualTo("Bucket");
		assertThat(hub.getMetadata()).isEqualTo(spoke.getMetadata()).isNotSameAs(spoke.getMetadata());
		assertThat(hub.getSpec()).isEqualTo(new Spec("3Gi", "green"));
	}

	@Test
	void refusedConversionThrowsTheSpokesException() {
		Bucket bucket = new Bucket().metadata(metadata()).spec(new Spec("1.5Gi", "red"));
		assertThatExceptionOfType(ConversionException.class)
			.isThrownBy(() -> this.conversion.fromHub(bucket, BucketV1alpha1.class))
			.withMessage("spec.size 1.5Gi is not a whole number of Gi");
	}

	@Test
	@SuppressWarnings({ "unchecked", "rawtypes" })
	void objectOfAnotherConversionIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> ((Conversion) this.conversion).roundTrip(new LampV1()))
			.withMessage("LampV1 is not a spoke of Conversion[Bucket.storage.example.com, hub v1=Bucket, "
					+ "spokes v1alpha1=BucketV1alpha1, v1beta1=BucketV1beta1]");
	}

	@Test
	void spokeImplementingConvertibleThroughAGenericBaseClassIsAccepted() throws Exception {
		Conversion<Bucket> viaBase = Conversion.hub(Bucket.class).spokes(BucketV2.class);
		BucketV2 bucket = new BucketV2().metadata(metadata()).spec(Map.of("size", "1Gi"));
		assertThat(viaBase.roundTrip(bucket)).isEqualTo(bucket);
	}

	@Test
	void conversionWithoutSpokesIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> Conversion.hub(Bucket.class).spokes())
			.withMessage("A conversion needs a spoke besides the hub Bucket: name the other versions' classes");
	}

	@Test
	@SuppressWarnings({ "unchecked", "rawtypes" })
	void spokeThatIsNotConvertibleIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Conversion.hub(Bucket.class).spokes((Class) NotConvertible.class))
			.withMessage("Spoke NotConvertible does not implement Convertible: a spoke of hub Bucket implements "
					+ "Convertible<Bucket>");
	}

	@Test
	@SuppressWarnings({ "unchecked", "rawtypes" })
	void spokeOfAnotherHubIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> Conversion.hub(Bucket.class).spokes((Class) LampV1.class))
			.withMessage("Spoke LampV1 implements Convertible<Lamp>: a spoke of hub Bucket implements "
					+ "Convertible<Bucket>");
	}

	@Test
	@SuppressWarnings({ "unchecked", "rawtypes" })
	void rawConvertibleIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> Conversion.hub(Bucket.class).spokes((Class) Raw.class))
			.withMessage("Spoke Raw implements Convertible without a type argument: a spoke of hub Bucket "
					+ "implements Convertible<Bucket>");
	}

	@Test
	void spokeOfAnotherKindIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Conversion.hub(Bucket.class).spokes(BucketV1alpha1.class, Pail.class))
			.withMessage("Spoke Pail is Pail.storage.example.com but hub Bucket is Bucket.storage.example.com: "
					+ "the versions of a conversion share the hub's group and kind (@KubernetesKind)");
	}

	@Test
	void spokeOfAnotherGroupIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Conversion.hub(Bucket.class).spokes(ElsewhereBucket.class))
			.withMessage("Spoke ElsewhereBucket is Bucket.elsewhere.example.com but hub Bucket is "
					+ "Bucket.storage.example.com: the versions of a conversion share the hub's group and kind "
					+ "(@KubernetesKind)");
	}

	@Test
	void twoSpokesOfOneVersionAreRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Conversion.hub(Bucket.class).spokes(BucketV1alpha1.class, OtherV1alpha1.class))
			.withMessage("Spoke BucketV1alpha1 and spoke OtherV1alpha1 both declare version v1alpha1 of Bucket: "
					+ "each version has one model class");
	}

	@Test
	void spokeOfTheHubsVersionIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> Conversion.hub(Bucket.class).spokes(OtherV1.class))
			.withMessage("Hub Bucket and spoke OtherV1 both declare version v1 of Bucket: "
					+ "each version has one model class");
	}

	@Test
	@SuppressWarnings({ "unchecked", "rawtypes" })
	void hubAsItsOwnSpokeIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> Conversion.hub(Lamp.class).spokes((Class) Lamp.class))
			.withMessage("Lamp is the hub and cannot be a spoke too: name the other versions' classes");
	}

	@Test
	@SuppressWarnings({ "unchecked", "rawtypes" })
	void abstractSpokeIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> Conversion.hub(Bucket.class).spokes((Class) BaseV2.class))
			.withMessage("Spoke BaseV2 is abstract: conversions create objects of its class");
	}

	@Test
	void hubWithoutAGroupIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> Conversion.hub(V1ConfigMap.class))
			.withMessage("Hub V1ConfigMap (ConfigMap) has no API group: conversion webhooks convert custom "
					+ "resources, whose model classes say their group with @KubernetesKind(group = ...)");
	}

	private static V1ObjectMeta metadata() {
		return new V1ObjectMeta().name("photos")
			.namespace("storage")
			.uid("0b0e2b6a-8a4e-4a55-9d1a-3f3f1f2c9b10")
			.resourceVersion("42")
			.creationTimestamp(OffsetDateTime.of(2024, 5, 1, 12, 0, 0, 0, ZoneOffset.UTC))
			.putLabelsItem("app", "photos");
	}

	@KubernetesKind(group = "storage.example.com", version = "v1alpha1", kind = "Bucket")
	static class NotConvertible extends CustomResource<Map<String, Object>, Map<String, Object>> {

	}

	@KubernetesKind(group = "storage.example.com", version = "v1alpha2", kind = "Bucket")
	@SuppressWarnings("rawtypes")
	static class Raw extends CustomResource<Map<String, Object>, Map<String, Object>> implements Convertible {

		@Override
		public void convertTo(io.kubernetes.client.common.KubernetesObject hub) {
		}

		@Override
		public void convertFrom(io.kubernetes.client.common.KubernetesObject hub) {
		}

	}

	abstract static class BaseV2<H extends io.kubernetes.client.common.KubernetesObject>
			extends CustomResource<Map<String, Object>, Map<String, Object>> implements Convertible<H> {

	}

	@KubernetesKind(group = "storage.example.com", version = "v2", kind = "Bucket")
	static class BucketV2 extends BaseV2<Bucket> {

		@Override
		public void convertTo(Bucket hub) {
			hub.setSpec(new Spec((String) getSpec().get("size"), null));
		}

		@Override
		public void convertFrom(Bucket hub) {
			setSpec(Map.of("size", hub.getSpec().size()));
		}

	}

	@KubernetesKind(group = "storage.example.com", version = "v1alpha3", kind = "Pail")
	static class Pail extends NoOpSpoke {

	}

	@KubernetesKind(group = "elsewhere.example.com", version = "v1alpha3", kind = "Bucket")
	static class ElsewhereBucket extends NoOpSpoke {

	}

	@KubernetesKind(group = "storage.example.com", version = "v1alpha1", kind = "Bucket")
	static class OtherV1alpha1 extends NoOpSpoke {

	}

	@KubernetesKind(group = "storage.example.com", version = "v1", kind = "Bucket")
	static class OtherV1 extends NoOpSpoke {

	}

	static class NoOpSpoke extends CustomResource<Map<String, Object>, Map<String, Object>>
			implements Convertible<Bucket> {

		@Override
		public void convertTo(Bucket hub) {
		}

		@Override
		public void convertFrom(Bucket hub) {
		}

	}

}
